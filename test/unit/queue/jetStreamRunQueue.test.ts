import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJetStreamRunQueue } from '../../../src/ports/nats/jetStreamRunQueue.js';
import type { RunQueue } from '../../../src/ports/queue/runQueue.js';
import { type NatsServer, startNatsServer } from '../../support/natsServer.js';

let server: NatsServer;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.dispose();
});

const open = (stream: string, ackWaitMs = 1000): Promise<RunQueue> =>
  openJetStreamRunQueue({
    url: server.url,
    stream,
    subject: `arena.test.${stream}`,
    consume: { ackWaitMs },
  });

describe('the JetStream run queue', () => {
  it('delivers a submitted run once and drops a duplicate submit of the same run id', async () => {
    const queue = await open('DEDUPE');
    expect(await queue.submit('run-a')).toEqual({ duplicate: false });
    expect(await queue.submit('run-a')).toEqual({ duplicate: true });
    const delivery = await queue.next({ waitMs: 1000 });
    expect(delivery?.runId).toBe('run-a');
    expect(delivery?.deliveryCount).toBe(1);
    await delivery?.ack();
    expect(await queue.next({ waitMs: 1000 })).toBeNull();
    await queue.close();
  });

  it('redelivers a run whose delivery was neither acked nor kept in progress', async () => {
    const queue = await open('REDELIVER', 1000);
    await queue.submit('run-b');
    // bounded by tries, not by a time: a loaded machine may need more than one fetch
    let first = null;
    for (let attempt = 0; attempt < 10 && first === null; attempt++) {
      first = await queue.next({ waitMs: 1000 });
    }
    expect(first?.deliveryCount).toBe(1);
    let again = null;
    for (let attempt = 0; attempt < 10 && again === null; attempt++) {
      again = await queue.next({ waitMs: 1000 });
    }
    expect(again?.runId).toBe('run-b');
    // at least once: a redelivery that reached a pull given up on a loaded machine comes once more
    expect(again?.deliveryCount).toBeGreaterThanOrEqual(2);
    await again?.ack();
    await queue.close();
  });

  it('shares one durable consumer: a run taken by one worker is not given to another', async () => {
    const [one, two] = [await open('SHARED', 5000), await open('SHARED', 5000)];
    await one.submit('run-c');
    const taken = await one.next({ waitMs: 1000 });
    expect(taken?.runId).toBe('run-c');
    expect(await two.next({ waitMs: 1000 })).toBeNull();
    taken?.nak();
    const handedBack = await two.next({ waitMs: 2000 });
    expect(handedBack?.runId).toBe('run-c');
    await handedBack?.ack();
    await Promise.all([one.close(), two.close()]);
  });

  it('keeps the queue across a server restart', async () => {
    const queue = await open('DURABLE', 5000);
    await queue.submit('run-d');
    await queue.close();
    await server.stop();
    await server.start();
    const reopened = await open('DURABLE', 5000);
    const delivery = await reopened.next({ waitMs: 2000 });
    expect(delivery?.runId).toBe('run-d');
    await delivery?.ack();
    await reopened.close();
  });

  it("tells a run's status hint to its listeners only; a malformed one, or one naming another run, is dropped", async () => {
    const worker = await open('HINTS', 5000);
    const submitter = await openJetStreamRunQueue({
      url: server.url,
      stream: 'HINTS',
      subject: 'arena.test.HINTS',
    });
    const heard: string[] = [];
    const stopA = submitter.onStatus?.('run.a', () => heard.push('a'));
    const stopB = submitter.onStatus?.('run-b', () => heard.push('b'));
    // a raw client on the subject of run.a (its id as hex): forged bodies, then one naming it
    const raw = await connect({ servers: server.url });
    const subjectOfA = `arena.runs.status.${Buffer.from('run.a').toString('hex')}`;
    raw.publish(subjectOfA, 'not json');
    raw.publish(subjectOfA, JSON.stringify({ runId: 'run-b' }));
    raw.publish(subjectOfA, JSON.stringify({ evaluationRunId: 'run.a' }));
    raw.publish(subjectOfA, JSON.stringify({ runId: 'run.a' }));
    await raw.flush();
    // one connection's messages arrive in order: the last heard means the forged ones were dropped
    await expect.poll(() => heard).toEqual(['a']);
    worker.announceStatus?.('run-b');
    await expect.poll(() => heard).toEqual(['a', 'b']);
    stopA?.();
    worker.announceStatus?.('run.a');
    worker.announceStatus?.('run-b');
    await expect.poll(() => heard).toEqual(['a', 'b', 'b']);
    stopB?.();
    await raw.close();
    await Promise.all([worker.close(), submitter.close()]);
  });
});
