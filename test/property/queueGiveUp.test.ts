import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runRunWorker, type WorkerEvent } from '../../src/actors/experiment/queue/runWorker.js';
import { submitRun } from '../../src/actors/experiment/queue/submitRun.js';
import { builtinComponents } from '../../src/builtins/index.js';
import { loadRunFile } from '../../src/config/runFile.js';
import { createInProcessRunQueue, type RunQueue } from '../../src/ports/queue/runQueue.js';
import { createMemoryStore } from '../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { RunLeasedError } from '../../src/ports/store/storeErrors.js';
import { repoRoot } from '../support/cli.js';

const runFile = path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml');

/** What keeps one delivery from running: another process's lease, or an error of this worker. */
type Cause = 'transient' | 'permanent';

const elsewhere = {
  owner: { id: 'elsewhere', host: 'another-host', pid: 1 },
  heartbeatAt: '2026-12-01T09:00:00.000Z',
  expiresAt: '2026-12-01T09:00:15.000Z',
};

/**
 * The store and queue of one drawn history: the k-th delivery's claim of the
 * run's lease throws the k-th cause (a later `acquireLease` in the same
 * delivery, the one that records the failure, is the real one).
 */
function faultyFleet(causes: readonly Cause[]) {
  const store = createMemoryStore();
  const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
  let pending: Error | null = null;
  const faultyStore = new Proxy(store, {
    get(target, property) {
      if (property === 'acquireLease') {
        return (...args: Parameters<RunStore['acquireLease']>) => {
          const error = pending;
          pending = null;
          if (error !== null) throw error;
          return target.acquireLease(...args);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const faultyQueue: RunQueue = {
    submit: (runId) => queue.submit(runId),
    close: () => queue.close(),
    async next(options) {
      const delivery = await queue.next(options);
      if (delivery !== null) {
        const cause = causes[delivery.deliveryCount - 1] ?? 'transient';
        pending =
          cause === 'transient'
            ? new RunLeasedError(delivery.runId, elsewhere, new Date('2026-12-01T09:00:02Z'))
            : new Error(`a glitch of this worker at delivery ${delivery.deliveryCount}`);
      }
      return delivery;
    },
  };
  return { store, queue, faultyStore, faultyQueue };
}

describe('a worker bounds the deliveries of a run only for permanent causes', () => {
  it('fails the run exactly at the first permanent cause at or past delivery N, never on a transient one, and defers every delivery before it', async () => {
    const spec = await loadRunFile(runFile);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom<Cause>('transient', 'permanent'), {
          minLength: 1,
          maxLength: 7,
        }),
        async (maxDeliveries, causes) => {
          const { store, queue, faultyStore, faultyQueue } = faultyFleet(causes);
          const { runId } = await submitRun(spec, { store, queue });
          const failsAt = causes.findIndex(
            (cause, index) => cause === 'permanent' && index + 1 >= maxDeliveries,
          );
          const deliveries = failsAt === -1 ? causes.length : failsAt + 1;
          const stop = new AbortController();
          const events: WorkerEvent[] = [];
          let settled = 0;
          const tally = await runRunWorker({
            store: faultyStore,
            queue: faultyQueue,
            builtins: builtinComponents,
            name: 'w1',
            ackWaitMs: 5000,
            leaseTtlMs: 1,
            maxDeliveries,
            signal: stop.signal,
            onEvent: (event) => {
              events.push(event);
              if (event.type === 'deferred' || event.type === 'failed') settled += 1;
              if (settled === deliveries || event.type === 'failed') stop.abort();
            },
          });
          const outcomes = events.filter(
            (event) => event.type === 'deferred' || event.type === 'failed',
          );
          expect(outcomes).toHaveLength(deliveries);
          outcomes.forEach((event, index) => {
            const cause = causes[index];
            if (failsAt === index) {
              expect(event).toMatchObject({ type: 'failed', deliveries: index + 1 });
              return;
            }
            expect(event).toMatchObject({
              type: 'deferred',
              deliveryCount: index + 1,
              // a permanent cause tells at which delivery it fails; a transient one has no bound
              maxDeliveries: cause === 'permanent' ? maxDeliveries : null,
            });
          });
          const run = store.getRun(runId);
          if (failsAt === -1) {
            expect(tally.failed).toBe(0);
            expect(run).toMatchObject({ status: 'queued', error: null, lease: null });
          } else {
            expect(tally.failed).toBe(1);
            expect(run).toMatchObject({
              status: 'failed',
              error: `Error: a glitch of this worker at delivery ${deliveries}; gave up after ${deliveries} deliveries`,
              lease: null,
            });
            // acked: nothing comes back
            expect(await queue.next({ waitMs: 30 })).toBeNull();
          }
        },
      ),
      { numRuns: 40, seed: 20261201 },
    );
  }, 30_000);
});
