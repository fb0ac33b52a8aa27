import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJetStreamJudgeQueue } from '../../src/ports/nats/jetStreamJudgeQueue.js';
import { openJetStreamRunQueue } from '../../src/ports/nats/jetStreamRunQueue.js';
import type { JudgeQueue } from '../../src/ports/queue/judgeQueue.js';
import type { RunQueue } from '../../src/ports/queue/runQueue.js';
import {
  type AuthorizedNats,
  permissionErrors,
  startAuthorizedNats,
} from '../support/natsRoles.js';
import { waitUntil } from '../support/queueFleet.js';

// The attacks of issue 23 by a raw @nats-io client on a server running docs/nats/authorization.conf.
let nats: AuthorizedNats;
let runs: RunQueue;
let judging: JudgeQueue;
let viewer: NatsConnection;
beforeAll(async () => {
  nats = await startAuthorizedNats();
  // arena's own queues as the worker role: they create the streams and the durable consumers
  runs = await openJetStreamRunQueue({ url: nats.urlOf('worker'), consume: { ackWaitMs: 30_000 } });
  judging = await openJetStreamJudgeQueue({ url: nats.urlOf('worker'), consume: {} });
  viewer = await nats.connectAs('viewer');
});
afterAll(async () => {
  await runs?.close();
  await judging?.close();
  await nats?.dispose();
});

/** A denied request rejects at once with the server's permissions violation (as a RequestError's cause or itself). */
async function denied(request: Promise<unknown>): Promise<void> {
  await expect(request).rejects.toThrow(/permissions violation/i);
}

const messagesIn = async (stream: string): Promise<number> =>
  (await (await jetstreamManager(viewer)).streams.info(stream)).state.messages;

describe('docs/nats/authorization.conf on a real nats-server', () => {
  it('a submitter cannot pull from the workers’ run or judge consumer, nor ack for them', async () => {
    const submitting = await openJetStreamRunQueue({ url: nats.urlOf('submitter') });
    await submitting.submit('stolen-run');
    await submitting.close();
    const attacker = await nats.connectAs('submitter');
    const js = jetstream(attacker);
    for (const [stream, durable] of [
      ['ARENA_RUNS', 'arena-workers'],
      ['ARENA_JUDGE', 'arena-judges'],
    ] as const) {
      const pulled = await js.consumers
        .get(stream, durable)
        .then((consumer) => consumer.next({ expires: 1000 }))
        .catch((error: unknown) => String(error));
      // a refused pull gets no message: its request is dropped (the client sees missed heartbeats)
      expect(pulled === null || typeof pulled === 'string', String(pulled)).toBe(true);
    }
    const pull = JSON.stringify({ batch: 1, expires: 1_000_000_000 });
    await denied(attacker.request('$JS.API.CONSUMER.MSG.NEXT.ARENA_RUNS.arena-workers', pull));
    await denied(attacker.request('$JS.API.CONSUMER.MSG.NEXT.ARENA_JUDGE.arena-judges', pull));
    await denied(attacker.request('$JS.ACK.ARENA_RUNS.arena-workers.1.1.1.1.0', '+ACK'));
    await denied(attacker.request('$JS.ACK.ARENA_JUDGE.arena-judges.1.1.1.1.0', '+ACK'));
    // the run is still there for a worker
    const delivery = await runs.next({ waitMs: 2000 });
    expect(delivery?.runId).toBe('stolen-run');
    await delivery?.ack();
  });

  it('a submitter cannot purge or delete arena’s streams or consumers', async () => {
    const submitting = await openJetStreamRunQueue({ url: nats.urlOf('submitter') });
    await submitting.submit('kept-run');
    await submitting.close();
    const jsm = await jetstreamManager(await nats.connectAs('submitter'));
    for (const stream of ['ARENA_RUNS', 'ARENA_JUDGE', 'ARENA_JUDGE_PAUSES']) {
      await denied(jsm.streams.purge(stream));
      await denied(jsm.streams.delete(stream));
    }
    await denied(jsm.consumers.delete('ARENA_RUNS', 'arena-workers'));
    await denied(jsm.consumers.delete('ARENA_JUDGE', 'arena-judges'));
    await denied(jsm.streams.add({ name: 'ARENA_RUNS_COPY', subjects: ['arena.runs.>'] }));
    expect(await messagesIn('ARENA_RUNS')).toBe(1);
    const info = await (await jetstreamManager(viewer)).consumers.info(
      'ARENA_RUNS',
      'arena-workers',
    );
    expect(info.name).toBe('arena-workers');
    const delivery = await runs.next({ waitMs: 2000 });
    expect(delivery?.runId).toBe('kept-run');
    await delivery?.ack();
  });

  it('a submitter cannot publish a model pause; a worker can', async () => {
    const attacker = await nats.connectAs('submitter');
    const forged = JSON.stringify({ key: 'any-model', untilMs: 1e12 });
    await denied(jetstream(attacker).publish('arena.judge.pause.616e79', forged));
    expect(await messagesIn('ARENA_JUDGE_PAUSES')).toBe(0);
    const heard: unknown[] = [];
    const off = judging.onPause((pause) => heard.push(pause));
    judging.announcePause({ key: 'real-model', untilMs: Date.now() + 1000 });
    await waitUntil(
      'the worker’s pause is in the stream',
      async () => (await messagesIn('ARENA_JUDGE_PAUSES')) === 1,
    );
    await waitUntil('the worker hears its pause', () => heard.length === 1);
    off();
  });

  it('a submitter cannot publish a cancel: no worker hears it, and arena’s own announcement is tolerated', async () => {
    const heard: string[] = [];
    const off = judging.onCancel((id) => heard.push(id));
    const listener = await nats.connectAs('worker');
    const raw: string[] = [];
    listener.subscribe('arena.judge.cancel', {
      callback: (error, message) => {
        if (error === null) raw.push(message.string());
      },
    });
    await listener.flush();
    const attacker = await nats.connectAs('submitter');
    const refused = permissionErrors(attacker);
    attacker.publish('arena.judge.cancel', JSON.stringify({ evaluationRunId: 'forged' }));
    await attacker.flush();
    await waitUntil('the server refuses the cancel', () => refused.length === 1);
    // what judge --wait's Ctrl-C sends as a submitter: denied, and neither throws nor closes the queue
    const submitting = await openJetStreamJudgeQueue({ url: nats.urlOf('submitter') });
    expect(() => submitting.announceCancel('cancelled-run')).not.toThrow();
    await denied(submitting.purge('cancelled-run'));
    await submitting.close();
    await listener.flush();
    expect(raw).toEqual([]);
    expect(heard).toEqual([]);
    off();
  });

  it('a submitter cannot join a service’s queue group; a service cannot serve another service or publish', async () => {
    const attacker = await nats.connectAs('submitter');
    const subscriptionErrors: string[] = [];
    const record = (error: Error | null) => {
      if (error !== null) subscriptionErrors.push(error.message);
    };
    attacker.subscribe('arena.component.tank.open', { queue: 'arena-serve', callback: record });
    attacker.subscribe('arena.component.tank.at.*', { callback: record });
    await attacker.flush();
    await waitUntil('both subscriptions refused', () => subscriptionErrors.length === 2);
    expect(subscriptionErrors.join('\n')).toMatch(/permissions violation/i);

    const service = await nats.connectAs('service-tank');
    subscriptionErrors.length = 0;
    service.subscribe('arena.component.tank.open', { queue: 'rogue-group', callback: record });
    service.subscribe('arena.component.grid.open', { queue: 'arena-serve', callback: record });
    await service.flush();
    await waitUntil('both refused', () => subscriptionErrors.length === 2);
    // it may answer requests it received, nothing else
    const refused = permissionErrors(service);
    service.publish('arena.runs.queued', JSON.stringify({ runId: 'forged' }));
    await service.flush();
    await waitUntil('the publish refused', () =>
      refused.some((error) => error.includes('arena.runs.queued')),
    );
  });

  it('a worker tells a run’s status hint and a submitter hears it; a submitter or a viewer may tell none, and a viewer hears none', async () => {
    const submitting = await openJetStreamRunQueue({ url: nats.urlOf('submitter') });
    const heard: string[] = [];
    const off = submitting.onStatus?.('hinted-run', () => heard.push('hinted-run'));
    const refusedSubscriptions: string[] = [];
    viewer.subscribe('arena.runs.status.*', {
      callback: (error) => {
        if (error !== null) refusedSubscriptions.push(error.message);
      },
    });
    await viewer.flush();
    await waitUntil('the viewer’s subscription refused', () => refusedSubscriptions.length === 1);
    const subject = `arena.runs.status.${Buffer.from('hinted-run').toString('hex')}`;
    for (const role of ['submitter', 'viewer'] as const) {
      const forger = await nats.connectAs(role);
      const refused = permissionErrors(forger);
      forger.publish(subject, JSON.stringify({ runId: 'hinted-run' }));
      await forger.flush();
      await waitUntil(`the ${role}’s hint refused`, () =>
        refused.some((error) => error.includes('arena.runs.status')),
      );
    }
    // the worker's own hint (its run queue's connection) reaches the submitter
    runs.announceStatus?.('hinted-run');
    await waitUntil('the submitter hears the worker’s hint', () => heard.length > 0);
    expect(heard).toEqual(['hinted-run']);
    off?.();
    await submitting.close();
  });

  it('a viewer reads the queues but cannot submit a run or a case', async () => {
    expect(await messagesIn('ARENA_RUNS')).toBe(0);
    const js = jetstream(viewer);
    await denied(js.publish('arena.runs.queued', JSON.stringify({ runId: 'forged' })));
    await denied(js.publish('arena.judge.cases.00', JSON.stringify({ evaluationRunId: 'x' })));
    const submitting = await openJetStreamRunQueue({ url: nats.urlOf('viewer') });
    await denied(submitting.submit('from-a-viewer'));
    await submitting.close();
    expect(await messagesIn('ARENA_RUNS')).toBe(0);
  });
});
