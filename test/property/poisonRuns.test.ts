import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workerDiedReason } from '../../src/actors/experiment/queue/deliveryClaim.js';
import { runRunWorker, type WorkerEvent } from '../../src/actors/experiment/queue/runWorker.js';
import { submitRun } from '../../src/actors/experiment/queue/submitRun.js';
import { builtinComponents } from '../../src/builtins/index.js';
import { parseRunFile } from '../../src/config/runFile.js';
import {
  createInProcessRunQueue,
  type RunDelivery,
  type RunQueue,
} from '../../src/ports/queue/runQueue.js';
import type { Clock } from '../../src/ports/runtime/clock.js';
import { createMemoryStore } from '../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { repoRoot } from '../support/cli.js';

const runFilePath = path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml');
// no sleep in a step, fewer episodes: a run that is let be ends in a blink
const runFileText = readFileSync(runFilePath, 'utf8')
  .replace('delay_ms: 1', 'delay_ms: 0')
  .replace('episodes: 30', 'episodes: 6');

/** What becomes of the worker that takes one delivery, at the run's first episode. */
type Fate = 'dies' | 'handsBack';

/** Time as the store and the queue see it: a dead worker's lease and ack wait lapse when told. */
function fleetTime() {
  let offsetMs = 0;
  const clock: Clock = {
    now: () => new Date(Date.now() + offsetMs),
    monotonicMs: () => performance.now() + offsetMs,
  };
  return { clock, now: () => Date.now() + offsetMs, pass: (ms: number) => (offsetMs += ms) };
}

/**
 * One worker process, in this process: once it is dead, nothing it does
 * reaches the store or the queue (every store call throws, acks and naks
 * are lost, the queue gives it nothing), as if it had been SIGKILLed.
 */
function mortalWorker(store: RunStore, queue: RunQueue, name: string, fate: Fate | 'lives') {
  let dead = false;
  const stop = new AbortController();
  let died: () => void = () => undefined;
  const death = new Promise<'died'>((resolve) => {
    died = () => resolve('died');
  });
  const mortalStore = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (dead) throw new Error(`${name} is dead`);
        if (property === 'recordEpisode' && fate !== 'lives') {
          if (fate === 'dies') {
            dead = true;
            stop.abort();
            died();
            throw new Error(`${name} is dead`);
          }
          stop.abort(); // SIGTERM: the run is handed back at its last barrier
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const mortal = (delivery: RunDelivery): RunDelivery => ({
    runId: delivery.runId,
    deliveryCount: delivery.deliveryCount,
    working: () => (dead ? undefined : delivery.working()),
    ack: async () => (dead ? undefined : delivery.ack()),
    nak: (delayMs) => (dead ? undefined : delivery.nak(delayMs)),
  });
  const mortalQueue: RunQueue = {
    submit: (runId) => queue.submit(runId),
    close: async () => undefined,
    async next(options) {
      const delivery = dead ? null : await queue.next(options);
      return delivery === null ? null : mortal(delivery);
    },
  };
  const events: WorkerEvent[] = [];
  const settled = new Promise<'settled'>((resolve) => {
    const done = runRunWorker({
      store: mortalStore,
      queue: mortalQueue,
      builtins: builtinComponents,
      name,
      ackWaitMs: 10_000,
      leaseTtlMs: 5000,
      maxDeliveries: maxDeliveriesOf.current,
      signal: stop.signal,
      onEvent: (event) => {
        events.push(event);
        // a worker that lives takes one delivery and is stopped after it
        if (['ended', 'failed', 'handedBack', 'deferred', 'dropped'].includes(event.type)) {
          stop.abort();
        }
      },
    });
    void done.then(() => resolve('settled'));
  });
  return { events, fate: Promise.race([death, settled]) };
}

const maxDeliveriesOf = { current: 3 };

/** The reference: which delivery gives the run up, and how many deliveries started before. */
function expected(fates: readonly Fate[], maxDeliveries: number) {
  let started = 0;
  let latestDied = false;
  for (const fate of [...fates, 'lives' as const]) {
    if (started >= maxDeliveries && latestDied) return { started, failed: true };
    started += 1;
    if (fate === 'lives') return { started, failed: false };
    latestDied = fate === 'dies';
  }
  throw new Error('unreachable');
}

describe('a run whose workers die while running it', () => {
  it('has its delivery count in the store equal to the deliveries that started, and is failed exactly at the first delivery after a death at or past max', async () => {
    const spec = parseRunFile(runFileText, { sourcePath: runFilePath });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.constantFrom<Fate>('dies', 'handsBack'), { minLength: 0, maxLength: 5 }),
        async (maxDeliveries, fates) => {
          maxDeliveriesOf.current = maxDeliveries;
          const time = fleetTime();
          const store = createMemoryStore({ clock: time.clock });
          const queue = createInProcessRunQueue({ ackWaitMs: 10_000, now: time.now });
          const { runId } = await submitRun(spec, { store, queue, runFileText });
          const model = expected(fates, maxDeliveries);
          const outcomes: string[] = [];
          // the supervisor: a new worker for each delivery, started when the one before is gone
          for (const [index, fate] of [...fates, 'lives' as const].entries()) {
            const worker = mortalWorker(store, queue, `w${index + 1}`, fate);
            const outcome = await worker.fate;
            // a dead worker's lease lapses and its delivery comes back after the ack wait
            if (outcome === 'died') time.pass(20_000);
            const last = worker.events.at(-1);
            outcomes.push(outcome === 'died' ? 'died' : (last?.type ?? 'nothing'));
            if (last?.type === 'failed' || last?.type === 'ended') break;
          }
          const run = store.getRun(runId);
          expect(store.deliveryCount(runId).claimed, outcomes.join(' ')).toBe(model.started);
          if (model.failed) {
            expect(outcomes.at(-1)).toBe('failed');
            expect(run).toMatchObject({
              status: 'failed',
              error: `gave up after ${model.started} deliveries (${workerDiedReason})`,
              lease: null,
            });
          } else {
            expect(outcomes.at(-1)).toBe('ended');
            expect(run.status).toBe('succeeded');
          }
          // acked: nothing comes back
          time.pass(60_000);
          expect(await queue.next({ waitMs: 0 })).toBeNull();
        },
      ),
      { numRuns: 25, seed: 20261222 },
    );
  }, 50_000);
});
