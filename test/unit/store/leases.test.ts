import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock, type ManualClock } from '../../../src/ports/clock.js';
import { holderProcessIsGone, processLeaseOwner } from '../../../src/ports/leaseOwner.js';
import { openSqliteStore } from '../../../src/ports/sqliteStore.js';
import type { LeaseOwner, RunStore } from '../../../src/ports/store.js';
import { createStoreWriter } from '../../../src/ports/storeWriter.js';
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

describe('run leases', () => {
  it('gives a free run to the first owner and shows the holder to readers', () => {
    const lease = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    expect(lease).toEqual({ runId, owner: alice, token: 1 });
    expect(store.getRun(runId).lease).toEqual({
      owner: alice,
      heartbeatAt: '2026-11-29T20:07:02.000Z',
      expiresAt: '2026-11-29T20:07:17.000Z',
    });
  });

  it('refuses a second owner while the lease is live, naming the holder and when it lapses', () => {
    store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    clock.advance(2_000);
    expect(() => store.acquireLease(runId, { owner: bob, ttlMs: 15_000 })).toThrow(
      "run 'r1' is being run by pid 1 on lab-1 (a) (last heartbeat 2 s ago, its lease lapses in 13 s): wait for it to end, or stop that process first",
    );
  });

  it('lets another owner take over a lease that lapsed, and fences the old holder off', () => {
    const old = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    clock.advance(15_001);
    const taken = store.acquireLease(runId, { owner: bob, ttlMs: 15_000 });
    expect(taken.token).toBe(2);
    expect(() => store.renewLease(old, 15_000)).toThrow(
      /no longer leased to this process \(pid 2 on lab-2 \(b\) holds it now\)/,
    );
    expect(() => store.requireLease(old)).toThrow(expect.objectContaining({ code: 'LEASE_LOST' }));
    const writer = createStoreWriter(store, { maxBatch: 10, maxDelayMs: 60_000, lease: old });
    writer.write({ kind: 'episode', record: sampleEpisode(runId, 0, 1) });
    expect(() => writer.flush()).toThrow(/no longer leased/);
    expect(store.episodes(runId)).toEqual([]);
  });

  it('takes over a live lease only when told the holder is gone', () => {
    store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    const taken = store.acquireLease(runId, {
      owner: bob,
      ttlMs: 15_000,
      takeOver: (holder) => holder.owner.pid === 1,
    });
    expect(store.getRun(runId).lease?.owner).toEqual(bob);
    expect(taken.token).toBe(2);
  });

  it('keeps a renewed lease alive past its first expiry', () => {
    const lease = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    clock.advance(10_000);
    store.renewLease(lease, 15_000);
    clock.advance(10_000);
    expect(() => store.acquireLease(runId, { owner: bob, ttlMs: 15_000 })).toThrow(
      expect.objectContaining({ code: 'RUN_LEASED' }),
    );
  });

  it('frees the run on release, and a stale release changes nothing', () => {
    const old = store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    store.releaseLease(old);
    expect(store.getRun(runId).lease).toBeNull();
    const next = store.acquireLease(runId, { owner: bob, ttlMs: 15_000 });
    store.releaseLease(old);
    expect(store.getRun(runId).lease?.owner).toEqual(bob);
    store.requireLease(next);
  });

  it('lets two handles of one file see the same lease (as two processes do)', () => {
    store.acquireLease(runId, { owner: alice, ttlMs: 15_000 });
    const other = openSqliteStore(path.join(folder, 'arena.db'), { clock });
    expect(() => other.acquireLease(runId, { owner: bob, ttlMs: 15_000 })).toThrow(
      expect.objectContaining({ code: 'RUN_LEASED' }),
    );
    other.close();
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
