import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRunWorker, type WorkerEvent } from '../../../src/actors/experiment/queue/runWorker.js';
import { submitRun } from '../../../src/actors/experiment/queue/submitRun.js';
import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { builtinComponents } from '../../../src/builtins/index.js';
import { loadRunFile } from '../../../src/config/runFile.js';
import { sha256Hex } from '../../../src/domain/shared/canonicalJson.js';
import { createInProcessRunQueue, type RunQueue } from '../../../src/ports/queue/runQueue.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
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
    maxDeliveries?: number;
    leaseTtlMs?: number;
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
    leaseTtlMs: options.leaseTtlMs ?? 1000,
    ...(options.maxDeliveries !== undefined ? { maxDeliveries: options.maxDeliveries } : {}),
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
/** Stops at the run's failure, or well past any bound these tests set (so a worker that never fails it fails the test). */
const failedOrPastBound = (event: WorkerEvent) =>
  event.type === 'failed' || (event.type === 'deferred' && event.deliveryCount >= 6);

describe('the run worker', () => {
  it('starts a queued run and records exactly what arena run records', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    expect(store.getRun(runId).status).toBe('queued');
    const { tally } = await work(store, queue, { name: 'w1', stopWhen: endedOrDropped });
    expect(tally).toEqual({ ended: 1, handedBack: 0, deferred: 0, dropped: 0, failed: 0 });
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
    expect(tally).toEqual({ ended: 0, handedBack: 0, deferred: 0, dropped: 1, failed: 0 });
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

  it('fails a run whose stored run file no longer loads at its N-th delivery, deferring it before', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    // a run file this arena does not accept (stored by another version, say)
    const text = 'uid: slow-line\nseed: 11\nversion: 1\nschedule: []\n';
    const { runId } = store.createRun({
      uid: 'slow-line',
      seed: 11,
      runFile: text,
      runFilePath: runFile,
      runFileSha256: sha256Hex(text),
      modules: [],
      status: 'queued',
    });
    await queue.submit(runId);
    const { tally, events } = await work(store, queue, {
      name: 'w1',
      maxDeliveries: 3,
      leaseTtlMs: 100,
      stopWhen: failedOrPastBound,
    });
    expect(tally).toEqual({ ended: 0, handedBack: 0, deferred: 2, dropped: 0, failed: 1 });
    const settled = events.filter((event) => event.type === 'deferred' || event.type === 'failed');
    expect(
      settled.map((event) => [
        event.type,
        'deliveryCount' in event ? event.deliveryCount : event.deliveries,
      ]),
    ).toEqual([
      ['deferred', 1],
      ['deferred', 2],
      ['failed', 3],
    ]);
    expect(settled[0]).toMatchObject({ maxDeliveries: 3 });
    const reason = (settled[2] as { reason: string }).reason;
    // the root cause: the run file's own error, with its path, field and line
    expect(reason).toBe(
      `StoredRunFileError: the run file stored with run '${runId}' no longer loads: ${runFile}: invalid run file, 1 problem:\n  schedule: expected a non-empty list of phases, got an empty list (line 4, column 11)`,
    );
    expect(store.getRun(runId)).toMatchObject({
      status: 'failed',
      error: `${reason}; gave up after 3 deliveries`,
      lease: null,
      summary: {
        runId,
        status: 'failed',
        error: `${reason}; gave up after 3 deliveries`,
        phases: [],
      },
    });
    // acked: it never comes back
    expect(await queue.next({ waitMs: 300 })).toBeNull();
  });

  it('fails a run whose module is gone at its N-th delivery, closing the phase a hand-back left open', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-worker-'));
    try {
      cpSync(path.dirname(runFile), folder, { recursive: true });
      const store = createMemoryStore();
      const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
      const { runId } = await submitRun(await loadRunFile(path.join(folder, 'run.yaml')), {
        store,
        queue,
      });
      expect(
        (await work(store, queue, { name: 'w1', episodesBeforeStop: 7 })).tally.handedBack,
      ).toBe(1);
      rmSync(path.join(folder, 'components.js'));
      const { events } = await work(store, queue, {
        name: 'w2',
        maxDeliveries: 2,
        leaseTtlMs: 100,
        stopWhen: failedOrPastBound,
      });
      const module = path.join(folder, 'components.js');
      const failed = events.at(-1);
      expect(failed).toEqual({
        type: 'failed',
        runId,
        deliveries: 2,
        reason: `ModuleMissingError: run '${runId}' cannot run on this worker: its module ${module} is not there (it was when the run was submitted)`,
      });
      const run = store.getRun(runId);
      expect(run).toMatchObject({ status: 'failed', lease: null });
      expect(run.error).toContain(`its module ${module} is not there`);
      expect(store.phases(runId)).toMatchObject([
        { phaseIndex: 0, status: 'failed', terminationReason: 'failed', error: run.error },
      ]);
      expect(store.phases(runId)[0]?.episodes).toBe(store.episodes(runId, 0).length);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('defers a run leased elsewhere past the delivery bound: a transient cause never fails it', async () => {
    const store = createMemoryStore();
    const queue = createInProcessRunQueue({ ackWaitMs: 5000 });
    const { runId } = await submitRun(await loadRunFile(runFile), { store, queue });
    const lease = store.acquireLease(runId, {
      owner: { id: 'elsewhere', host: 'another-host', pid: 1 },
      ttlMs: 60_000,
    });
    const { tally, events } = await work(store, queue, {
      name: 'w1',
      maxDeliveries: 2,
      leaseTtlMs: 100,
      stopWhen: (event) => event.type === 'deferred' && event.deliveryCount >= 4,
    });
    expect(tally).toMatchObject({ deferred: 4, failed: 0 });
    for (const event of events.filter((each) => each.type === 'deferred')) {
      expect(event).toMatchObject({ maxDeliveries: null });
      expect((event as { reason: string }).reason).toMatch(
        /^RunLeasedError: run .* is being run by elsewhere/,
      );
    }
    expect(store.getRun(runId)).toMatchObject({ status: 'queued', error: null });
    store.releaseLease(lease);
  });
});
