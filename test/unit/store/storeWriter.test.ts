import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import { StoreWriteError, StoreWriterClosedError } from '../../../src/ports/store/storeErrors.js';
import { createStoreWriter, type StoreWriteCommand } from '../../../src/ports/store/storeWriter.js';
import {
  createSampleRun,
  sampleCheckpoint,
  sampleClock,
  sampleEpisode,
  sampleMetaDecision,
} from './sampleRun.js';

const runId = 'r1';
let store: RunStore;
let transactions = 0;
let writesOutsideTransactions = 0;

/** The memory store, counting transactions and any write made outside one. */
function countingStore(): RunStore {
  const inner = createMemoryStore({ clock: sampleClock() });
  let depth = 0;
  const outside =
    <A extends unknown[], R>(write: (...args: A) => R) =>
    (...args: A): R => {
      if (depth === 0) writesOutsideTransactions += 1;
      return write(...args);
    };
  return {
    ...inner,
    recordEpisode: outside(inner.recordEpisode),
    recordCheckpoint: outside(inner.recordCheckpoint),
    transaction(work) {
      transactions += 1;
      depth += 1;
      try {
        return inner.transaction(work);
      } finally {
        depth -= 1;
      }
    },
  };
}

const episode = (index: number): StoreWriteCommand => ({
  kind: 'episode',
  record: sampleEpisode(runId, 0, index),
});

beforeEach(() => {
  transactions = 0;
  writesOutsideTransactions = 0;
  store = countingStore();
  createSampleRun(store, runId);
});
afterEach(() => {
  vi.useRealTimers();
  store.close();
});

describe('store writer', () => {
  it('applies everything queued in one transaction on flush', () => {
    const writer = createStoreWriter(store, { maxBatch: 100, maxDelayMs: 10_000 });
    writer.write({
      kind: 'startPhase',
      phase: { runId, phaseIndex: 0, name: 'train', mode: 'train' },
    });
    writer.write({ kind: 'metaDecision', record: sampleMetaDecision(runId, 0) });
    for (let index = 1; index <= 5; index++) writer.write(episode(index));
    writer.write({ kind: 'checkpoint', record: sampleCheckpoint(runId, 0, 0, 5, 0.5) });
    writer.write({
      kind: 'finishPhase',
      runId,
      phaseIndex: 0,
      outcome: { status: 'done', terminationReason: 'success', episodes: 5 },
    });
    writer.write({ kind: 'finishRun', runId, outcome: { status: 'succeeded' } });
    expect(writer.pending).toBe(10);
    expect(store.episodes(runId)).toEqual([]);

    writer.flush();
    expect(transactions).toBe(1);
    expect(writesOutsideTransactions).toBe(0);
    expect(writer.pending).toBe(0);
    expect(store.episodes(runId)).toHaveLength(5);
    expect(store.checkpoints(runId)).toHaveLength(1);
    expect(store.metaDecisions(runId)).toHaveLength(1);
    expect(store.phases(runId)[0]).toMatchObject({ status: 'done', terminationReason: 'success' });
    expect(store.getRun(runId).status).toBe('succeeded');
    writer.close();
  });

  it('commits a barrier snapshot together with the records before it', () => {
    store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
    const writer = createStoreWriter(store, { maxBatch: 100, maxDelayMs: 10_000 });
    writer.write(episode(1));
    writer.write({
      kind: 'snapshot',
      snapshot: { runId, phaseIndex: 0, episode: 1, state: { rng: 7 } },
    });
    expect(store.latestSnapshot(runId)).toBeNull();
    writer.flush();
    expect(transactions).toBe(1);
    expect(store.latestSnapshot(runId)).toMatchObject({ episode: 1, state: { rng: 7 } });
    writer.close();
  });

  it('writes a full batch at once, in one transaction', () => {
    store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
    const writer = createStoreWriter(store, { maxBatch: 3, maxDelayMs: 10_000 });
    for (let index = 1; index <= 7; index++) writer.write(episode(index));
    expect(transactions).toBe(2);
    expect(store.episodes(runId)).toHaveLength(6);
    expect(writer.pending).toBe(1);
    writer.close();
    expect(store.episodes(runId)).toHaveLength(7);
  });

  it('writes a command at the latest maxDelayMs after it was queued', () => {
    vi.useFakeTimers();
    store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
    const writer = createStoreWriter(store, { maxBatch: 100, maxDelayMs: 50 });
    writer.write(episode(1));
    vi.advanceTimersByTime(30);
    writer.write(episode(2));
    vi.advanceTimersByTime(19);
    expect(writer.pending).toBe(2);
    vi.advanceTimersByTime(1);
    expect(writer.pending).toBe(0);
    expect(transactions).toBe(1);
    expect(store.episodes(runId)).toHaveLength(2);
    writer.write(episode(3));
    vi.advanceTimersByTime(50);
    expect(store.episodes(runId)).toHaveLength(3);
    writer.close();
  });

  it('does nothing on a flush with nothing queued', () => {
    const writer = createStoreWriter(store, { maxBatch: 10, maxDelayMs: 10 });
    writer.flush();
    expect(transactions).toBe(0);
    writer.close();
  });

  it('rolls a failed batch back whole and throws it on this and every later flush and write', () => {
    store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
    const writer = createStoreWriter(store, { maxBatch: 100, maxDelayMs: 10_000 });
    writer.write(episode(1));
    writer.write(episode(2));
    writer.write(episode(1));
    expect(() => writer.flush()).toThrow(StoreWriteError);
    expect(store.episodes(runId)).toEqual([]);
    expect(() => writer.flush()).toThrow(
      "a batch of 3 store writes failed and was rolled back: episode 1 of phase 0 of run 'r1' is already stored",
    );
    expect(() => writer.write(episode(3))).toThrow(StoreWriteError);
  });

  it('reports a batch that fails on its timer on error$, not silently', () => {
    vi.useFakeTimers();
    const writer = createStoreWriter(store, { maxBatch: 100, maxDelayMs: 20 });
    const errors: StoreWriteError[] = [];
    writer.error$.subscribe((error) => errors.push(error));
    writer.write(episode(1)); // phase 0 was never started
    vi.advanceTimersByTime(20);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("run 'r1' has no phase 0");
    expect(errors[0]?.lostCommands).toBe(1);
    expect(() => writer.flush()).toThrow(errors[0]);
  });

  it('flushes on close, completes error$ and refuses later writes', () => {
    store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
    const writer = createStoreWriter(store, { maxBatch: 100, maxDelayMs: 10_000 });
    let completed = false;
    writer.error$.subscribe({ complete: () => (completed = true) });
    writer.write(episode(1));
    writer.close();
    expect(store.episodes(runId)).toHaveLength(1);
    expect(completed).toBe(true);
    expect(() => writer.write(episode(2))).toThrow(StoreWriterClosedError);
    expect(() => writer.close()).not.toThrow();
  });
});
