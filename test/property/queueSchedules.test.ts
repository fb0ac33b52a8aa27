import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { startNatsServer } from '../support/natsServer.js';
import {
  allSucceeded,
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

/** One fault of a schedule: once the batch has stored `afterEpisodes` episodes, stop a worker. */
interface Fault {
  readonly afterEpisodes: number;
  readonly signal: 'SIGKILL' | 'SIGTERM';
  readonly worker: 0 | 1;
}

const schedule: fc.Arbitrary<Fault[]> = fc
  .array(
    fc.record({
      afterEpisodes: fc.integer({ min: 1, max: 40 }),
      signal: fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const),
      worker: fc.constantFrom(0 as const, 1 as const),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((faults) => [...faults].sort((a, b) => a.afterEpisodes - b.afterEpisodes));

let reference: ReturnType<typeof runRecords>;
beforeAll(async () => {
  const experiment = queueExperiment(1);
  const run = await runArena(['run', experiment.runFile, '--store', `sqlite:${experiment.store}`], {
    cwd: experiment.folder,
  });
  expect(run.code).toBe(0);
  reference = readStore(experiment.store, (store) =>
    runRecords(store, store.listRuns()[0]?.runId as string),
  );
});

/** ARENA_QUEUE_SCHEDULE_RUNS draws more schedules for a fault table (3 in the test suite). */
const scheduleRuns = Number(process.env.ARENA_QUEUE_SCHEDULE_RUNS ?? 3);

type Records = ReturnType<typeof runRecords>;

/** Rows of `expected` missing from `actual`, and rows of `actual` beyond `expected` (as multisets). */
function rowDifference(expected: Records, actual: Records): { lost: number; extra: number } {
  let lost = 0;
  let extra = 0;
  for (const table of ['phases', 'episodes', 'checkpoints', 'metaDecisions'] as const) {
    const left = new Map<string, number>();
    for (const row of expected[table]) {
      const key = JSON.stringify(row);
      left.set(key, (left.get(key) ?? 0) + 1);
    }
    for (const row of actual[table]) {
      const key = JSON.stringify(row);
      const count = left.get(key) ?? 0;
      if (count > 0) left.set(key, count - 1);
      else extra++;
    }
    for (const count of left.values()) lost += count;
  }
  return { lost, extra };
}

const batchEpisodes = (store: string) =>
  readStore(store, (opened) =>
    opened.listRuns().reduce((total, run) => total + opened.episodes(run.runId).length, 0),
  );

describe('runs on a queue under worker faults', () => {
  const timeout = 60_000 + scheduleRuns * 30_000;
  it('any schedule of worker kills and restarts over a batch loses no record and duplicates none', {
    timeout,
  }, async () => {
    if (!Number.isSafeInteger(scheduleRuns) || scheduleRuns < 1) {
      throw new Error(
        `ARENA_QUEUE_SCHEDULE_RUNS must be a whole number >= 1, got '${process.env.ARENA_QUEUE_SCHEDULE_RUNS}'`,
      );
    }
    // per run of every schedule: identical to arena run, rows lost or duplicated; kills and terms: signals sent
    const tally = {
      schedules: 0,
      runs: 0,
      identical: 0,
      lost: 0,
      duplicated: 0,
      kills: 0,
      terms: 0,
      resumes: 0,
    };
    await fc.assert(
      fc.asyncProperty(schedule, async (faults) => {
        tally.schedules++;
        const server = await startNatsServer();
        const experiment = queueExperiment(1);
        const every: WorkerProcess[] = [];
        const start = (name: string) => {
          const started = startWorker({
            nats: server.url,
            store: experiment.store,
            name,
            cwd: experiment.folder,
          });
          every.push(started);
          return started;
        };
        try {
          const runIds: string[] = [];
          for (let index = 0; index < 2; index++) {
            const result = await submit(experiment.runFile, {
              nats: server.url,
              store: experiment.store,
              cwd: experiment.folder,
            });
            expect(result.code, result.stderr).toBe(0);
            runIds.push(result.stdout.trim());
          }
          const fleet = [start('w0'), start('w1')];
          for (const [index, fault] of faults.entries()) {
            await waitUntil(
              'the fault point',
              () =>
                allSucceeded(experiment.store, 2) ||
                batchEpisodes(experiment.store) >= fault.afterEpisodes,
              { everyMs: 10, attempts: 3000 },
            );
            const victim = fleet[fault.worker] as WorkerProcess;
            victim.child.kill(fault.signal);
            await victim.exited;
            if (fault.signal === 'SIGKILL') tally.kills++;
            else tally.terms++;
            fleet[fault.worker] = start(`w${fault.worker}-${index + 1}`);
          }
          await waitUntil('the batch succeeded', () => allSucceeded(experiment.store, 2));
          const stored = runIds.map((runId) =>
            readStore(experiment.store, (store) => ({
              records: runRecords(store, runId),
              resumes: store.resumes(runId).length,
            })),
          );
          for (const { records, resumes } of stored) {
            const { lost, extra } = rowDifference(reference, records);
            tally.runs++;
            tally.lost += lost;
            tally.duplicated += extra;
            tally.resumes += resumes;
            if (lost === 0 && extra === 0) tally.identical++;
          }
          for (const { records } of stored) expect(records).toEqual(reference);
        } finally {
          await killAll(every);
          await server.dispose();
        }
      }),
      { numRuns: scheduleRuns, seed: 20261201 },
    );
    console.info(`queue schedule trials: ${JSON.stringify(tally)}`);
  });
});
