import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { repoRoot, runArena } from '../support/cli.js';
import { spawnArena } from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  fleetEnv,
  hintsOnlyEnv,
  killAll,
  startWorker,
  type WorkerProcess,
  waitForStart,
  waitUntil,
} from '../support/queueFleet.js';
import { scratchFolder } from '../support/scratch.js';
import { decided, type Table } from '../support/sweeps.js';

let nats: NatsServer;
let postgres: TestPostgres;
const started: WorkerProcess[] = [];
beforeAll(async () => {
  [nats, postgres] = await Promise.all([startNatsServer(), startTestPostgres({ crashSafe: true })]);
});
afterAll(async () => {
  await killAll(started);
  await nats?.dispose();
  await postgres?.stop();
});

/**
 * The shipped sweep as a local sweep decides it (the reference), a fresh
 * PostgreSQL database and two workers on it, started.
 */
async function localSweepAndCrew(database: string, names: readonly string[]) {
  const folder = scratchFolder(`arena-${database.replace('_', '-')}-`);
  const sweepFile = path.join(repoRoot, 'examples/sweep.yaml');
  const reference = await runArena([
    'sweep',
    sweepFile,
    '--store',
    `sqlite:${path.join(folder, 'local.db')}`,
    '--json',
  ]);
  expect(reference.code, reference.stderr).toBe(0);
  const store = await postgres.createDatabase(database);
  const crew = names.map((name) => startWorker({ nats: nats.url, store, name, cwd: folder }));
  started.push(...crew);
  await waitForStart(crew);
  return { folder, sweepFile, reference, store, crew };
}

describe('arena sweep --nats', () => {
  it("runs the shipped sweep's trials as queued runs on two workers with a PostgreSQL store, to the table of a local sweep, told by the workers' hints", async () => {
    const { folder, sweepFile, reference, store, crew } = await localSweepAndCrew('sweep', [
      'w1',
      'w2',
    ]);
    // an hour's safety net: the sweep sees its trials held and ended only on the workers' hints
    const swept = await runArena(
      ['sweep', sweepFile, '--nats', nats.url, '--store', store, '--json'],
      { cwd: folder, env: { ...fleetEnv, ...hintsOnlyEnv } },
    );
    expect(
      swept.code,
      `${swept.stderr}\n${crew.map((worker) => worker.stderr()).join('\n---\n')}`,
    ).toBe(0);
    expect(swept.stderr).toContain('queued for the workers');
    const table = JSON.parse(swept.stdout) as Table;
    expect(decided(table)).toEqual(decided(JSON.parse(reference.stdout) as Table));
    expect(table.trials.some((trial) => trial.status === 'pruned')).toBe(true);
    // both workers took trials, and both are still up; a held trial is told as held
    const reader = openPostgresStore(store, { readonly: true });
    try {
      const workers = new Set(
        table.trials.map((trial) => reader.deliveryCount(trial.runId).owner?.worker ?? null),
      );
      expect([...workers].sort()).toEqual(['w1', 'w2']);
    } finally {
      reader.close();
    }
    for (const worker of crew) expect(worker.child.exitCode, worker.stderr()).toBeNull();
    expect(crew.map((worker) => worker.stderr()).join('\n')).toMatch(
      /run \S+ held at its sweep's rung \(3 evaluation checkpoints\)/,
    );
    await killAll(crew);
  }, 180_000);
  it('takes the decisions of a local sweep when PostgreSQL crashes and restarts twice under it', async () => {
    const { folder, sweepFile, reference, store, crew } = await localSweepAndCrew('sweep_restart', [
      'r1',
      'r2',
    ]);
    const sweeping = spawnArena(
      ['sweep', sweepFile, '--nats', nats.url, '--store', store, '--json'],
      { cwd: folder, env: { ...fleetEnv } },
    );
    // a random moment in the first rung, then one past it (the second decision is made across it)
    const checkpoints = (): number => {
      const reader = openPostgresStore(store, { readonly: true });
      try {
        return reader
          .listRuns()
          .reduce((sum, run) => sum + reader.checkpoints(run.runId).length, 0);
      } finally {
        reader.close();
      }
    };
    const first = 2 + Math.floor(Math.random() * 10);
    await waitUntil(`${first} checkpoints`, () => checkpoints() >= first, { attempts: 3000 });
    await postgres.restart({ mode: 'immediate', downMs: 500 + Math.floor(Math.random() * 1500) });
    await waitUntil(
      'a pruned trial',
      () => {
        const reader = openPostgresStore(store, { readonly: true });
        try {
          return reader.listRuns().some((run) => run.status === 'cancelled');
        } finally {
          reader.close();
        }
      },
      { attempts: 3000 },
    );
    await postgres.restart({ mode: 'immediate', downMs: 1000 });
    const swept = await sweeping.exited;
    expect(
      swept.code,
      `${swept.stderr}\n${crew.map((worker) => worker.stderr()).join('\n---\n')}`,
    ).toBe(0);
    expect(
      decided(JSON.parse(swept.stdout) as Table),
      `${swept.stderr}\n${crew.map((worker) => worker.stderr()).join('\n---\n')}`,
    ).toEqual(decided(JSON.parse(reference.stdout) as Table));
    for (const worker of crew) expect(worker.child.exitCode, worker.stderr()).toBeNull();
    await killAll(crew);
  }, 300_000);
});
