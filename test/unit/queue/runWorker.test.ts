import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRunWorker, type WorkerEvent } from '../../../src/actors/queue/runWorker.js';
import { submitRun } from '../../../src/actors/queue/submitRun.js';
import { runExperiment } from '../../../src/actors/runExperiment.js';
import { builtinComponents } from '../../../src/builtins/index.js';
import { loadRunFile } from '../../../src/config/runFile.js';
import { createMemoryStore } from '../../../src/ports/memoryStore.js';
import { createInProcessRunQueue, type RunQueue } from '../../../src/ports/runQueue.js';
import type { RunStore } from '../../../src/ports/store.js';
import { repoRoot } from '../../support/cli.js';
import { runRecords } from '../../support/records.js';

const runFile = path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml');

async function referenceRecords() {
  const store = createMemoryStore();
  const spec = await loadRunFile(runFile);
  const summary = await runExperiment(spec, { store, builtins: builtinComponents });
  return runRecords(store, summary.runId);
}

/** Run a worker until `stopWhen` says stop, or it has seen `episodesBeforeStop` episodes. */
async function work(
  store: RunStore,
  queue: RunQueue,
  options: {
    name: string;
    stopWhen?: (event: WorkerEvent) => boolean;
    episodesBeforeStop?: number;
  },
) {
  const stop = new AbortController();
  const events: WorkerEvent[] = [];
  let episodes = 0;
  const tally = await runRunWorker({
    store,
    queue,
    builtins: builtinComponents,
    name: options.name,
    ackWaitMs: 5000,
    leaseTtlMs: 1000,
    signal: stop.signal,
    onEvent: (event) => {
      events.push(event);
      if (options.stopWhen?.(event) === true) stop.abort();
    },
    onRunEvent: (event) => {
      if (event.type !== 'episode.completed') return;
      episodes += 1;
      if (options.episodesBeforeStop !== undefined && episodes >= options.episodesBeforeStop) {
        stop.abort();
      }
    },
  });
  return { tally, events };
}

const endedOrDropped = (event: WorkerEvent) => event.type === 'ended' || event.type === 'dropped';

describe('the run worker', () => {
  it('starts a queued run and records exactly what arena run records', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    expect(store.getRun(runId).status).toBe('queued');
    const { tally } = await work(store, queue, { name: 'w1', stopWhen: endedOrDropped });
    expect(tally).toEqual({ ended: 1, handedBack: 0, deferred: 0, dropped: 0 });
    expect(store.getRun(runId)).toMatchObject({ status: 'succeeded', lease: null });
    // a start, not a resume
    expect(store.resumes(runId)).toEqual([]);
    expect(runRecords(store, runId)).toEqual(await referenceRecords());
  });

  it('drops a second delivery of a run that already succeeded: one execution, no new rows', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    await work(store, queue, { name: 'w1', stopWhen: endedOrDropped });
    const before = runRecords(store, runId);
    await queue.submit(runId);
    const { tally, events } = await work(store, queue, { name: 'w2', stopWhen: endedOrDropped });
    expect(tally).toEqual({ ended: 0, handedBack: 0, deferred: 0, dropped: 1 });
    expect(events).toContainEqual({ type: 'dropped', runId, status: 'succeeded' });
    expect(runRecords(store, runId)).toEqual(before);
    expect(store.resumes(runId)).toEqual([]);
  });

  it('hands a run back when stopped, and another worker finishes it with identical records', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    const first = await work(store, queue, { name: 'w1', episodesBeforeStop: 7 });
    expect(first.tally.handedBack).toBe(1);
    // back at its last barrier, unleased, not ended: any worker may take it
    expect(store.getRun(runId)).toMatchObject({ status: 'running', lease: null, endedAt: null });
    const second = await work(store, queue, { name: 'w2', stopWhen: endedOrDropped });
    expect(second.tally.ended).toBe(1);
    expect(store.getRun(runId).status).toBe('succeeded');
    expect(store.resumes(runId)).toHaveLength(1);
    expect(runRecords(store, runId)).toEqual(await referenceRecords());
  });

  it('defers a run leased by a live runner elsewhere instead of running it twice', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    const holder = { id: 'elsewhere', host: 'another-host', pid: 1 };
    const lease = store.acquireLease(runId, { owner: holder, ttlMs: 60_000 });
    const { events } = await work(store, queue, {
      name: 'w1',
      stopWhen: (event) => event.type === 'deferred',
    });
    expect(events.at(-1)).toMatchObject({ type: 'deferred', runId });
    expect(store.getRun(runId).lease?.owner.id).toBe('elsewhere');
    expect(store.phases(runId)).toEqual([]);
    store.releaseLease(lease);
  });
});
