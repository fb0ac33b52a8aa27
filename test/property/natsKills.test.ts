import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import {
  judgeFixture,
  judgeFleetEnv,
  resultLines,
  startJudgeWorker,
  verdictFacts,
  verdictFor,
} from '../support/judgeFleet.js';
import { startNatsServer } from '../support/natsServer.js';
import {
  allSucceeded,
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  submit,
  type WorkerProcess,
  waitForStart,
  waitUntil,
  withWorkerLogs,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

/** One outage of a schedule: once `after` units of work are stored, nats-server is SIGKILLed for `downMs`. */
interface Outage {
  readonly after: number;
  readonly downMs: number;
}

const outages = (maxAfter: number): fc.Arbitrary<Outage[]> =>
  fc
    .array(
      fc.record({
        after: fc.integer({ min: 1, max: maxAfter }),
        downMs: fc.integer({ min: 1500, max: 3500 }),
      }),
      { minLength: 1, maxLength: 2 },
    )
    .map((drawn) => [...drawn].sort((a, b) => a.after - b.after));

/** NATS_KILL_RUNS draws more schedules for a fault table (2 in the test suite). */
const scheduleRuns = Number(process.env.NATS_KILL_RUNS ?? 2);
/** ARENA_FAULT_CASES judges more cases in each judge trial, for a fault table at scale (90 in the test suite). */
const judgeCases = Number(process.env.ARENA_FAULT_CASES ?? 90);
const judgeScale = Math.ceil(judgeCases / 90);

const alive = (worker: WorkerProcess): boolean =>
  worker.child.exitCode === null && worker.child.signalCode === null;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer((request) => verdictFor(request, 40));
});
afterAll(async () => {
  await chat?.close();
});

describe('the fleet under nats-server SIGKILLs (its store folder kept)', () => {
  it('judge workers: exactly one verdict per case, the verdicts of a one-process run, every worker still up', {
    // a hang guard, not a time the test needs: every wait inside gives up first, with the workers' logs
    timeout: 240_000 * scheduleRuns * judgeScale,
  }, async () => {
    const cases = judgeCases;
    const tally = { schedules: 0, outages: 0, exactlyOnce: 0, lost: 0, workersDown: 0 };
    const reference = judgeFixture(chat, cases);
    const single = await runArena([
      'judge',
      reference.cases,
      '--config',
      reference.config,
      '--out',
      path.join(reference.folder, 'single.jsonl'),
    ]);
    expect(single.code, single.stderr).toBe(0);
    const byCase = (lines: Record<string, unknown>[]) =>
      lines.map(verdictFacts).sort((a, b) => String(a.caseId).localeCompare(String(b.caseId)));
    const expected = byCase(
      resultLines(readFileSync(path.join(reference.folder, 'single.jsonl'), 'utf8')),
    );
    await fc.assert(
      fc.asyncProperty(outages(cases - 20), async (schedule) => {
        tally.schedules++;
        const nats = await startNatsServer();
        const fixture = judgeFixture(chat, cases);
        const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
        const crew = ['j1', 'j2'].map((name) =>
          startJudgeWorker({
            nats: nats.url,
            store,
            name,
            cwd: fixture.folder,
            judgeConcurrency: 4,
          }),
        );
        await waitForStart(crew);
        const withStore = async <T>(read: (s: Awaited<ReturnType<typeof openJudgeStore>>) => T) => {
          const opened = await openJudgeStore(parseStoreUri(store));
          try {
            return await read(opened);
          } finally {
            await opened.close();
          }
        };
        try {
          const submitted = await runArena(
            [
              'judge',
              fixture.cases,
              '--config',
              fixture.config,
              '--nats',
              nats.url,
              '--store',
              store,
            ],
            { cwd: fixture.folder, env: { ...judgeFleetEnv } },
          );
          expect(submitted.code, submitted.stderr).toBe(0);
          const evaluationRunId = /as evaluation run (\S+)/.exec(submitted.stderr)?.[1] as string;
          const count = () => withStore((opened) => opened.verdictCount(evaluationRunId));
          for (const outage of schedule) {
            await withWorkerLogs(
              crew,
              waitUntil(`${outage.after} verdicts`, async () => (await count()) >= outage.after, {
                everyMs: 20,
                attempts: 3000,
              }),
            );
            await nats.kill();
            tally.outages++;
            await pause(outage.downMs);
            await nats.start();
          }
          await withWorkerLogs(
            crew,
            waitUntil(
              'the evaluation run ended',
              async () =>
                (await withStore((opened) => opened.getEvaluationRun(evaluationRunId))).status !==
                'running',
              { everyMs: 100, attempts: 600 * judgeScale },
            ),
          );
          const { run, verdicts } = await withStore(async (opened) => ({
            run: await opened.getEvaluationRun(evaluationRunId),
            verdicts: await opened.verdicts(evaluationRunId, { limit: 10_000 }),
          }));
          const keys = new Set(verdicts.map((verdict) => verdict.caseKey));
          tally.lost += cases - keys.size;
          if (keys.size === cases && verdicts.length === cases) tally.exactlyOnce++;
          tally.workersDown += crew.filter((worker) => !alive(worker)).length;
          expect(run.error).toBeNull();
          expect(run.status).toBe('succeeded');
          expect(verdicts).toHaveLength(cases);
          expect(keys.size).toBe(cases);
          expect(
            byCase(verdicts.map((verdict) => verdict.result as unknown as Record<string, unknown>)),
          ).toEqual(expected);
          // a worker that died says why
          for (const worker of crew) expect(alive(worker), worker.stderr()).toBe(true);
        } finally {
          await killAll(crew);
          await nats.dispose();
        }
      }),
      { numRuns: scheduleRuns, seed: 20260301 },
    );
    console.info(`nats kill trials (judge workers): ${JSON.stringify(tally)}`);
  });

  it('run workers: records identical to a local run, every worker still up', {
    timeout: 60_000 * scheduleRuns,
  }, async () => {
    const local = queueExperiment(1);
    const run = await runArena(['run', local.runFile, '--store', `sqlite:${local.store}`], {
      cwd: local.folder,
    });
    expect(run.code, run.stderr).toBe(0);
    const reference = readStore(local.store, (store) =>
      runRecords(store, store.listRuns()[0]?.runId as string),
    );
    const episodesPerRun = reference.episodes.length;
    const tally = { schedules: 0, outages: 0, runs: 0, identical: 0, workersDown: 0 };
    await fc.assert(
      fc.asyncProperty(outages(episodesPerRun), async (schedule) => {
        tally.schedules++;
        const nats = await startNatsServer();
        const experiment = queueExperiment(1);
        const crew = ['w1', 'w2'].map((name) =>
          startWorker({ nats: nats.url, store: experiment.store, name, cwd: experiment.folder }),
        );
        await waitForStart(crew);
        const batchEpisodes = () =>
          readStore(experiment.store, (opened) =>
            opened
              .listRuns()
              .reduce((total, each) => total + opened.episodes(each.runId).length, 0),
          );
        try {
          const runIds: string[] = [];
          for (let index = 0; index < 3; index++) {
            const result = await submit(experiment.runFile, {
              nats: nats.url,
              store: experiment.store,
              cwd: experiment.folder,
            });
            expect(result.code, result.stderr).toBe(0);
            runIds.push(result.stdout.trim());
          }
          for (const outage of schedule) {
            await waitUntil('the outage point', () => batchEpisodes() >= outage.after, {
              everyMs: 10,
              attempts: 3000,
            });
            await nats.kill();
            tally.outages++;
            await pause(outage.downMs);
            await nats.start();
          }
          await waitUntil('the batch succeeded', () => allSucceeded(experiment.store, 3), {
            attempts: 600,
          });
          for (const runId of runIds) {
            const records = readStore(experiment.store, (store) => runRecords(store, runId));
            tally.runs++;
            if (JSON.stringify(records) === JSON.stringify(reference)) tally.identical++;
            expect(records).toEqual(reference);
          }
          tally.workersDown += crew.filter((worker) => !alive(worker)).length;
          // a worker that died says why
          for (const worker of crew) expect(alive(worker), worker.stderr()).toBe(true);
        } finally {
          await killAll(crew);
          await nats.dispose();
        }
      }),
      { numRuns: scheduleRuns, seed: 20260302 },
    );
    console.info(`nats kill trials (run workers): ${JSON.stringify(tally)}`);
  });
});
