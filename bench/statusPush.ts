/**
 * The store reads of a run's followers before and after status hints, in one
 * process on an in-process fleet (a run queue that carries hints, one run
 * worker, a memory store): `arena submit --wait`'s follower of one run that
 * waits `STATUS_PUSH_QUEUED_MS` (default 2000) in the queue before a worker
 * starts it, and `arena sweep --nats`'s reads of its trials over the shipped
 * sweep. The baseline is the polling of before (every 250 ms, no hints); the
 * pushed side hears the worker's hints and polls every 5 s as a safety net.
 * Target: fewer reads than the baseline for the same run and sweep.
 */
import path from 'node:path';
import { followRun } from '../src/actors/experiment/queue/followRun.js';
import { runRunWorker } from '../src/actors/experiment/queue/runWorker.js';
import { submitRun } from '../src/actors/experiment/queue/submitRun.js';
import { runSweep } from '../src/actors/sweep/runSweep.js';
import { builtinComponents } from '../src/builtins/index.js';
import { loadRunFile } from '../src/config/runFile.js';
import { loadSweepFile } from '../src/config/sweepFile.js';
import { prepareSweepTrials } from '../src/config/sweepTrials.js';
import { createInProcessRunQueue, type RunQueue } from '../src/ports/queue/runQueue.js';
import { statusPollMs, statusSafetyNetMs } from '../src/ports/queue/statusHints.js';
import { createMemoryStore } from '../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../src/ports/store/store.js';
import { repoRoot } from '../test/support/cli.js';
import { countedReads } from '../test/support/countedReads.js';

const queuedMs = Number(process.env.STATUS_PUSH_QUEUED_MS ?? 2000);
const runFile = path.join(repoRoot, 'examples/hosting-capacity.yaml');
const sweepFile = path.join(repoRoot, 'examples/sweep.yaml');

/** A queue that hears and tells hints, or the same queue without them (the polling of before). */
function queueOf(pushed: boolean): { queue: RunQueue; hints: { count: number } } {
  const queue = createInProcessRunQueue({ ackWaitMs: 30_000 });
  const hints = { count: 0 };
  if (!pushed) {
    const { announceStatus: _told, onStatus: _heard, ...silent } = queue;
    return { queue: silent, hints };
  }
  const announce = queue.announceStatus?.bind(queue);
  return {
    queue: {
      ...queue,
      announceStatus: (runId) => {
        hints.count += 1;
        announce?.(runId);
      },
    },
    hints,
  };
}

function startWorker(store: RunStore, queue: RunQueue) {
  const stop = new AbortController();
  const working = runRunWorker({
    store,
    queue,
    builtins: builtinComponents,
    name: 'w1',
    ackWaitMs: 30_000,
    signal: stop.signal,
  });
  return async () => {
    stop.abort();
    await working;
  };
}

async function followOne(pushed: boolean) {
  const store = createMemoryStore();
  const { queue, hints } = queueOf(pushed);
  const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
  const { store: following, reads } = countedReads(store, ['getRun', 'phases', 'episodeSummary']);
  const started = performance.now();
  const ended = followRun(following, runId, {
    queue,
    pollMs: pushed ? statusSafetyNetMs : statusPollMs,
  });
  await new Promise((resolve) => setTimeout(resolve, queuedMs));
  const stop = startWorker(store, queue);
  const run = await ended;
  const seconds = (performance.now() - started) / 1000;
  await stop();
  if (run?.status !== 'succeeded') throw new Error(`the run ended ${run?.status}`);
  return { reads: reads.count, hints: hints.count, seconds };
}

async function sweepOnce(pushed: boolean) {
  const store = createMemoryStore();
  const { queue, hints } = queueOf(pushed);
  const { spec, text } = loadSweepFile(sweepFile);
  const trials = await prepareSweepTrials(spec, sweepFile, { builtins: builtinComponents });
  const stop = startWorker(store, queue);
  const { store: sweeping, reads } = countedReads(store, ['getRun', 'checkpoints', 'trialOfRun']);
  const started = performance.now();
  const outcome = await runSweep(
    { kind: 'new', spec, sweepFile: text, sweepFilePath: sweepFile, trials },
    {
      store: sweeping,
      builtins: builtinComponents,
      queue,
      pollMs: pushed ? statusSafetyNetMs : statusPollMs,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  await stop();
  if (outcome.status !== 'succeeded') throw new Error(`the sweep ended ${outcome.status}`);
  return { reads: reads.count, hints: hints.count, seconds };
}

const line = (
  what: string,
  polled: { reads: number; seconds: number },
  pushed: { reads: number; hints: number; seconds: number },
): string =>
  `${what.padEnd(34)} polled ${String(polled.reads).padStart(5)} reads (${(polled.reads / polled.seconds).toFixed(1)}/s over ${polled.seconds.toFixed(1)} s)   pushed ${String(pushed.reads).padStart(5)} reads (${(pushed.reads / pushed.seconds).toFixed(1)}/s over ${pushed.seconds.toFixed(1)} s, ${pushed.hints} hints)   ratio ${(pushed.reads / polled.reads).toFixed(2)}  target < 1 ${pushed.reads < polled.reads ? 'met' : 'MISSED'}`;

const polledRun = await followOne(false);
const pushedRun = await followOne(true);
process.stdout.write(`${line(`submit --wait (${queuedMs} ms queued)`, polledRun, pushedRun)}\n`);
const polledSweep = await sweepOnce(false);
const pushedSweep = await sweepOnce(true);
process.stdout.write(`${line('sweep --nats (shipped sweep)', polledSweep, pushedSweep)}\n`);
