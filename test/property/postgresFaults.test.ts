import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeStore } from '../../src/ports/store/judgeStore.js';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import {
  judgeFixture,
  judgeFleetEnv,
  spawnArena,
  startJudgeWorker,
  stopWorkers,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  submit,
  type WorkerProcess,
  waitForStart,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

// The store's server crashes or stops under a fleet, at random moments: nothing is lost, no worker exits.
let nats: NatsServer;
let postgres: TestPostgres;
let chat: ChatServer;
const processes: WorkerProcess[] = [];
beforeAll(async () => {
  [nats, postgres, chat] = await Promise.all([
    startNatsServer(),
    // a crash keeps what the server confirmed, as a real one does
    startTestPostgres({ crashSafe: true }),
    startChatServer((request) => verdictFor(request, 20)),
  ]);
});
afterAll(async () => {
  await killAll(processes);
  await Promise.all([nats?.dispose(), postgres?.stop(), chat?.close()]);
});

/** One server fault: once `after` units of work are stored, crash (immediate) or stop it (fast) for `downMs`. */
interface ServerFault {
  readonly after: number;
  readonly mode: 'immediate' | 'fast';
  readonly downMs: number;
}

const faults = (maxAfter: number): fc.Arbitrary<ServerFault[]> =>
  fc
    .array(
      fc.record({
        after: fc.integer({ min: 1, max: maxAfter }),
        mode: fc.constantFrom('immediate' as const, 'fast' as const),
        downMs: fc.constantFrom(0, 1000, 3000),
      }),
      { minLength: 1, maxLength: 2 },
    )
    .map((drawn) => [...drawn].sort((a, b) => a.after - b.after));

/** ARENA_PG_FAULT_RUNS draws more schedules for a fault table (2 in the test suite). */
const scheduleRuns = Number(process.env.ARENA_PG_FAULT_RUNS ?? 2);
/** ARENA_FAULT_CASES judges more cases in each judge trial, for a fault table at scale (150 in the test suite). */
const judgeCases = Number(process.env.ARENA_FAULT_CASES ?? 150);
const judgeScale = Math.ceil(judgeCases / 150);

function readPostgres<T>(uri: string, read: (store: RunStore) => T): T {
  const store = openPostgresStore(uri, { readonly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

async function withJudgeStore<T>(uri: string, read: (store: JudgeStore) => Promise<T>) {
  const store = await openJudgeStore(parseStoreUri(uri));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

const stillUp = (worker: WorkerProcess) =>
  worker.child.exitCode === null && worker.child.signalCode === null;

describe('a fleet through PostgreSQL crashes and restarts', () => {
  it('runs on two workers through any schedule of server crashes and stops end with the records of a local run, every worker still up', {
    timeout: 60_000 * scheduleRuns,
  }, async () => {
    const experiment = queueExperiment(2);
    const local = await runArena(
      ['run', experiment.runFile, '--store', `sqlite:${experiment.store}`],
      { cwd: experiment.folder },
    );
    expect(local.code, local.stderr).toBe(0);
    const reference = readStore(experiment.store, (store) =>
      runRecords(store, store.listRuns()[0]?.runId as string),
    );
    const tally = { schedules: 0, runs: 0, identical: 0, faults: 0, workersUp: 0 };
    await fc.assert(
      fc.asyncProperty(faults(60), async (schedule) => {
        tally.schedules++;
        const store = await postgres.createDatabase(`runs_${tally.schedules}`);
        const fleet = ['w0', 'w1'].map((name) =>
          startWorker({ nats: nats.url, store, name, cwd: experiment.folder }),
        );
        processes.push(...fleet);
        await waitForStart(fleet);
        const runIds: string[] = [];
        for (let index = 0; index < 2; index++) {
          const result = await submit(experiment.runFile, {
            nats: nats.url,
            store,
            cwd: experiment.folder,
          });
          expect(result.code, result.stderr).toBe(0);
          runIds.push(result.stdout.trim());
        }
        const episodes = () =>
          readPostgres(store, (opened) =>
            runIds.reduce((total, runId) => total + opened.episodes(runId).length, 0),
          );
        for (const fault of schedule) {
          await waitUntil(`${fault.after} episodes`, () => episodes() >= fault.after, {
            everyMs: 20,
            attempts: 3000,
          });
          await postgres.restart(fault);
          tally.faults++;
        }
        await waitUntil(
          'both runs to succeed',
          () =>
            readPostgres(store, (opened) =>
              runIds.every((runId) => opened.getRun(runId).status === 'succeeded'),
            ),
          { attempts: 1200 },
        );
        tally.workersUp += fleet.filter(stillUp).length;
        for (const worker of fleet) expect(stillUp(worker), worker.stderr()).toBe(true);
        for (const runId of runIds) {
          const records = readPostgres(store, (opened) => runRecords(opened, runId));
          tally.runs++;
          if (JSON.stringify(records) === JSON.stringify(reference)) tally.identical++;
          expect(records).toEqual(reference);
        }
        for (const worker of fleet) worker.child.kill('SIGTERM');
        for (const worker of fleet) expect((await worker.exited).code, worker.stderr()).toBe(0);
      }),
      { numRuns: scheduleRuns, seed: 20261222 },
    );
    console.info(`postgres fault trials (run workers): ${JSON.stringify(tally)}`);
  });

  it('judge workers through any schedule of server crashes and stops store exactly one verdict per case, --wait succeeds, every worker still up', {
    timeout: 60_000 * scheduleRuns * judgeScale,
  }, async () => {
    const cases = judgeCases;
    const tally = { schedules: 0, exactlyOnce: 0, lost: 0, faults: 0, workersUp: 0 };
    await fc.assert(
      fc.asyncProperty(faults(cases - 10), async (schedule) => {
        tally.schedules++;
        const fixture = judgeFixture(chat, cases);
        const store = await postgres.createDatabase(`judging_${tally.schedules}`);
        const crew = ['j0', 'j1'].map((name) =>
          startJudgeWorker({ nats: nats.url, store, name, cwd: fixture.folder }),
        );
        processes.push(...crew);
        await waitForStart(crew);
        const judging = spawnArena(
          [
            'judge',
            fixture.cases,
            '--config',
            fixture.config,
            '--nats',
            nats.url,
            '--store',
            store,
            '--wait',
          ],
          { cwd: fixture.folder, env: { ...judgeFleetEnv } },
        );
        await waitUntil('the run is queued', () => /as evaluation run/.test(judging.stderr()));
        const evaluationRunId = /as evaluation run (\S+)/.exec(judging.stderr())?.[1] as string;
        // one connection pool for every look (it reconnects after each fault): opening a store per
        // look (a worker thread, a schema check, a pool) every 20 ms starved the fleet under load
        const watcher = await openJudgeStore(parseStoreUri(store));
        try {
          for (const fault of schedule) {
            await waitUntil(
              `${fault.after} verdicts`,
              async () => (await watcher.verdictCount(evaluationRunId)) >= fault.after,
              { everyMs: 20, attempts: 3000 },
            );
            await postgres.restart(fault);
            tally.faults++;
          }
        } finally {
          await watcher.close();
        }
        // a worker that exits fails the trial at once, with what it said
        const ended = await Promise.race([
          judging.exited,
          ...crew.map(async (worker) => {
            const exit = await worker.exited;
            throw new Error(`worker exited ${JSON.stringify(exit)}: ${worker.stderr()}`);
          }),
        ]);
        tally.workersUp += crew.filter(stillUp).length;
        const { run, keys } = await withJudgeStore(store, async (opened) => ({
          run: await opened.getEvaluationRun(evaluationRunId),
          keys: (await opened.verdicts(evaluationRunId, { limit: 100_000 })).map(
            (verdict) => verdict.caseKey,
          ),
        }));
        const distinct = new Set(keys).size;
        tally.lost += cases - distinct;
        if (distinct === cases && keys.length === cases) tally.exactlyOnce++;
        expect(ended.code, ended.stderr).toBe(0);
        expect(run.status).toBe('succeeded');
        expect(keys.length).toBe(cases);
        expect(distinct).toBe(cases);
        for (const worker of crew) expect(stillUp(worker), worker.stderr()).toBe(true);
        await stopWorkers(crew);
        for (const worker of crew) expect((await worker.exited).code, worker.stderr()).toBe(0);
      }),
      { numRuns: scheduleRuns, seed: 20261223 },
    );
    console.info(`postgres fault trials (judge workers): ${JSON.stringify(tally)}`);
  });
});
