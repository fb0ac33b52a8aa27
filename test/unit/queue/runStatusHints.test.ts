import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followRun } from '../../../src/actors/experiment/queue/followRun.js';
import { runRunWorker } from '../../../src/actors/experiment/queue/runWorker.js';
import { submitRun } from '../../../src/actors/experiment/queue/submitRun.js';
import { runSweep, type SweepOutcome } from '../../../src/actors/sweep/runSweep.js';
import { builtinComponents } from '../../../src/builtins/index.js';
import { loadRunFile } from '../../../src/config/runFile.js';
import { loadSweepFile } from '../../../src/config/sweepFile.js';
import { prepareSweepTrials } from '../../../src/config/sweepTrials.js';
import { createInProcessRunQueue, type RunQueue } from '../../../src/ports/queue/runQueue.js';
import { throttledStatusHints } from '../../../src/ports/queue/statusHints.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import { repoRoot } from '../../support/cli.js';
import { countedReads } from '../../support/countedReads.js';

// the safety net is an hour: only a worker's hint can end a wait within a test's timeout
const hour = 60 * 60_000;

const runFile = path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml');

/** Run a worker on `queue` until `signal` aborts. */
function startWorker(store: RunStore, queue: RunQueue, signal: AbortSignal) {
  return runRunWorker({
    store,
    queue,
    builtins: builtinComponents,
    name: 'w1',
    ackWaitMs: 5000,
    signal,
  });
}

const stops: AbortController[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop.abort();
  vi.useRealTimers();
});

describe('status hints for runs', () => {
  it('throttles a run’s hints: the first told at once, a burst once at its end, an end at once', () => {
    vi.useFakeTimers();
    const told: string[] = [];
    const hints = throttledStatusHints((id) => told.push(id), 500);
    hints.touch('a');
    hints.touch('a');
    hints.touch('a');
    hints.touch('b');
    expect(told).toEqual(['a', 'b']);
    vi.advanceTimersByTime(500);
    // the burst of a told once more at its end; b had no second change
    expect(told).toEqual(['a', 'b', 'a']);
    vi.advanceTimersByTime(500);
    expect(told).toEqual(['a', 'b', 'a']);
    hints.touch('a');
    hints.now('a');
    expect(told).toEqual(['a', 'b', 'a', 'a', 'a']);
    hints.touch('b');
    hints.touch('b');
    hints.flush();
    expect(told).toEqual(['a', 'b', 'a', 'a', 'a', 'b', 'b']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a follower of a run ends with it on its worker’s hint, not on its hour-long safety net', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    const stop = new AbortController();
    stops.push(stop);
    const { store: followed, reads } = countedReads(store, ['getRun']);
    const looks: string[] = [];
    const following = followRun(followed, runId, {
      queue,
      pollMs: hour,
      onProgress: ({ run }) => looks.push(run.status),
    });
    const working = startWorker(store, queue, stop.signal);
    const ended = await following;
    stop.abort();
    await working;
    expect(ended?.status).toBe('succeeded');
    expect(looks.at(0)).toBe('queued');
    expect(looks.at(-1)).toBe('succeeded');
    // one read a look: each after a hint (at most two a second), none on a timer
    expect(reads.count).toBe(looks.length);
  });

  it('a follower whose hints are all lost still ends with the run, by its safety-net poll', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    // the worker's hints go nowhere (a NATS restart, a refused subscription): the follower hears none
    const { announceStatus: _lost, ...silent } = queue;
    const stop = new AbortController();
    stops.push(stop);
    const working = startWorker(store, silent, stop.signal);
    const ended = await followRun(store, runId, { queue, pollMs: 300 });
    stop.abort();
    await working;
    expect(ended?.status).toBe('succeeded');
  });

  it('a forged hint makes a follower look, never end: the store says the run is still queued', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    const other = await submitRun(await loadRunFile(runFile), { store, queue });
    const looks: string[] = [];
    let ended = false;
    const following = followRun(store, runId, {
      queue,
      pollMs: hour,
      onProgress: ({ run }) => looks.push(run.status),
    }).then((run) => {
      ended = true;
      return run;
    });
    await expect.poll(() => looks.length).toBe(1);
    // anyone's hint, with no worker anywhere: a look at the store, which says queued
    queue.announceStatus?.(runId);
    await expect.poll(() => looks.length).toBe(2);
    queue.announceStatus?.(runId);
    await expect.poll(() => looks.length).toBe(3);
    expect(looks).toEqual(['queued', 'queued', 'queued']);
    expect(ended).toBe(false);
    // another run's hint is not this run's: no look
    queue.announceStatus?.(other.runId);
    queue.announceStatus?.(runId);
    await expect.poll(() => looks.length).toBe(4);
    expect(ended).toBe(false);
    // the run really ends: the worker's hint, and the store agrees
    const stop = new AbortController();
    stops.push(stop);
    const working = startWorker(store, queue, stop.signal);
    expect((await following)?.status).toBe('succeeded');
    stop.abort();
    await working;
  });
});

/** The shipped sweep, as `arena sweep` prepares it. */
async function shippedSweep() {
  const sweepFile = path.join(repoRoot, 'examples/sweep.yaml');
  const { spec, text } = loadSweepFile(sweepFile);
  const trials = await prepareSweepTrials(spec, sweepFile, { builtins: builtinComponents });
  return { kind: 'new' as const, spec, sweepFile: text, sweepFilePath: sweepFile, trials };
}

const decided = (outcome: SweepOutcome) =>
  outcome.progress.trials.map((trial) => [trial.status, trial.rungIndex, trial.prunedAtRung]);

/** The shipped sweep on an in-process fleet of one worker; the sweep's trial reads counted. */
async function sweepOnFleet(queue: RunQueue, pollMs: number) {
  const store = createMemoryStore();
  const stop = new AbortController();
  stops.push(stop);
  const working = startWorker(store, queue, stop.signal);
  const { store: sweeping, reads } = countedReads(store, ['getRun', 'checkpoints', 'trialOfRun']);
  const outcome = await runSweep(await shippedSweep(), {
    store: sweeping,
    builtins: builtinComponents,
    queue,
    pollMs,
  });
  stop.abort();
  await working;
  return { outcome, reads: reads.count };
}

describe('status hints for a sweep’s rungs', () => {
  it('a sweep on the fleet takes its trials’ holds and ends on their workers’ hints, to the decisions of a local sweep', async () => {
    const local = await runSweep(await shippedSweep(), {
      store: createMemoryStore(),
      builtins: builtinComponents,
    });
    const { outcome } = await sweepOnFleet(createInProcessRunQueue({ ackWaitMs: 5000 }), hour);
    expect(outcome.status).toBe('succeeded');
    expect(decided(outcome)).toEqual(decided(local));
    expect(outcome.progress.trials.some((trial) => trial.status === 'pruned')).toBe(true);
  }, 60_000);

  it('a sweep whose queue carries no hints still ends, by its poll', async () => {
    const plain = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { onStatus: _hints, announceStatus: _told, ...silent } = plain;
    const { outcome } = await sweepOnFleet(silent, 250);
    expect(outcome.status).toBe('succeeded');
  }, 60_000);
});
