import { describe, expect, it } from 'vitest';
import { createInProcessRunQueue, parseNatsUrl } from '../../../src/ports/queue/runQueue.js';

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the in-process run queue', () => {
  it('drops a duplicate submit while the run is on the queue', async () => {
    const queue = createInProcessRunQueue();
    expect(await queue.submit('r1')).toEqual({ duplicate: false });
    expect(await queue.submit('r1')).toEqual({ duplicate: true });
    const delivery = await queue.next({ waitMs: 0 });
    await delivery?.ack();
    expect(await queue.next({ waitMs: 0 })).toBeNull();
  });

  it('redelivers an unacked run after the ack wait, unless it is kept in progress', async () => {
    const clock = manualClock();
    const queue = createInProcessRunQueue({ ackWaitMs: 1000, now: clock.now });
    await queue.submit('r1');
    const first = await queue.next({ waitMs: 0 });
    clock.advance(900);
    first?.working();
    clock.advance(900);
    expect(await queue.next({ waitMs: 0 })).toBeNull();
    clock.advance(200);
    const second = await queue.next({ waitMs: 0 });
    expect(second).toMatchObject({ runId: 'r1', deliveryCount: 2 });
    // the stale delivery no longer holds the message
    first?.nak();
    expect(await queue.next({ waitMs: 0 })).toBeNull();
  });

  it('gives a nak-ed run back after its delay', async () => {
    const clock = manualClock();
    const queue = createInProcessRunQueue({ ackWaitMs: 10_000, now: clock.now });
    await queue.submit('r1');
    (await queue.next({ waitMs: 0 }))?.nak(500);
    expect(await queue.next({ waitMs: 0 })).toBeNull();
    clock.advance(500);
    expect(await queue.next({ waitMs: 0 })).toMatchObject({ runId: 'r1', deliveryCount: 2 });
  });
});

describe('parseNatsUrl', () => {
  it('takes nats:// URLs and bare host:port, and names --nats for anything else', () => {
    expect(parseNatsUrl('nats://127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
    expect(parseNatsUrl('127.0.0.1:4222')).toBe('nats://127.0.0.1:4222');
    expect(() => parseNatsUrl('postgres://db')).toThrow(
      /--nats must be a NATS URL.*'postgres:\/\/db'/,
    );
  });
});
