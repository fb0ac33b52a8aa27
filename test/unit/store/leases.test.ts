import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock, type ManualClock } from '../../../src/ports/runtime/clock.js';
import { holderProcessIsGone, processLeaseOwner } from '../../../src/ports/store/leaseOwner.js';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';
import type { LeaseOwner, RunStore } from '../../../src/ports/store/store.js';
import { RunLeasedError } from '../../../src/ports/store/storeErrors.js';
import { createStoreWriter } from '../../../src/ports/store/storeWriter.js';
import { sampleEpisode, sampleRunFile, sampleStart } from './sampleRun.js';

const alice: LeaseOwner = { id: 'pid 1 on lab-1 (a)', host: 'lab-1', pid: 1 };
const bob: LeaseOwner = { id: 'pid 2 on lab-2 (b)', host: 'lab-2', pid: 2 };
const runId = 'r1';
let folder: string;
let clock: ManualClock;
let store: RunStore;

beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-lease-'));
  clock = fixedClock(sampleStart);
  store = openSqliteStore(path.join(folder, 'arena.db'), { clock });
  store.createRun({ runId, uid: 'u', seed: 1, runFile: sampleRunFile, runFilePath: '/r.yaml' });
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

// What a store does with leases is the contract's (test/contract/runStoreContract.ts); here: the writer and owners.
describe('a store writer under a lease', () => {
  it('writes nothing once its lease lapsed and another owner took the run over', () => {
    const old = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    clock.advance(15_001);
    store.acquireLease(runId, { owner: bob, ttlMs: 15_000 });
    const writer = createStoreWriter(store, { maxBatch: 10, maxDelayMs: 60_000, lease: old });
    writer.write({ kind: 'episode', record: sampleEpisode(runId, 0, 1) });
    expect(() => writer.flush()).toThrow(
      /no longer leased to this process \(pid 2 on lab-2 \(b\) holds it now\)/,
    );
    expect(store.episodes(runId)).toEqual([]);
  });
});

describe('lease owners', () => {
  it('names this process and judges it alive', () => {
    const owner = processLeaseOwner();
    expect(owner.id).toMatch(new RegExp(`^pid ${process.pid} on \\S+ \\([0-9a-f]{6}\\)$`));
    const holder = { owner, heartbeatAt: '', expiresAt: '' };
    expect(holderProcessIsGone(holder)).toBe(false);
  });

  it('judges a process of this host that no longer exists gone, and one of another host never', () => {
    const here = processLeaseOwner();
    // pids above the kernel's pid_max cannot exist
    const dead = { ...here, pid: 2 ** 22 + 12345, id: 'dead' };
    expect(holderProcessIsGone({ owner: dead, heartbeatAt: '', expiresAt: '' })).toBe(true);
    const remote = { ...dead, host: `${here.host}-elsewhere` };
    expect(holderProcessIsGone({ owner: remote, heartbeatAt: '', expiresAt: '' })).toBe(false);
  });
});

describe('the refusal of a leased run', () => {
  it('says a heartbeat under half a second old came 0 s ago, never "in 0 s"', () => {
    store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    clock.advance(300);
    expect(() => store.acquireLease(runId, { owner: bob, ttlMs: 15_000 })).toThrow(
      `is being run by ${alice.id} (last heartbeat 0 s ago, its lease lapses in 15 s)`,
    );
  });

  it('words a lapse already past as ago, like a heartbeat', () => {
    const holder = {
      owner: alice,
      heartbeatAt: sampleStart.toISOString(),
      expiresAt: sampleStart.toISOString(),
    };
    const error = new RunLeasedError(runId, holder, new Date(sampleStart.getTime() + 2_400));
    expect(error.message).toContain('(last heartbeat 2 s ago, its lease lapses 2 s ago)');
    expect(error).toMatchObject({ code: 'RUN_LEASED', name: 'RunLeasedError' });
  });
});
