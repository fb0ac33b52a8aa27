import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EvaluationRunStatus,
  JudgeStore,
  VerdictRecording,
} from '../../src/ports/store/judgeStore.js';
import { openPostgresJudgeStore } from '../../src/ports/store/postgres/postgresJudgeStore.js';
import { openSqliteJudgeStore } from '../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { sampleEvaluationRun, sampleVerdict } from '../support/judgeVerdicts.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

/** One recordVerdict call: which store object (worker) sends which case. */
interface Send {
  readonly racer: number;
  readonly caseIndex: number;
}

/**
 * A schedule: batches of sends run concurrently, one after the other; the
 * submitter's total comes before batch `totalAt` (or after all), and a cancel
 * before batch `cancelAt`, racing that batch when `cancelRaces`.
 */
interface Schedule {
  readonly racers: number;
  readonly cases: number;
  readonly batches: readonly (readonly Send[])[];
  readonly totalAt: number;
  readonly cancelAt: number | null;
  readonly cancelRaces: boolean;
}

const schedules: fc.Arbitrary<Schedule> = fc
  .record({ racers: fc.integer({ min: 2, max: 3 }), cases: fc.integer({ min: 1, max: 6 }) })
  .chain(({ racers, cases }) => {
    const send = fc.record({
      racer: fc.nat({ max: racers - 1 }),
      caseIndex: fc.nat({ max: cases - 1 }),
    });
    const batches = fc.array(fc.array(send, { minLength: 1, maxLength: 5 }), {
      minLength: 1,
      maxLength: 6,
    });
    return batches.chain((list) =>
      fc.record({
        racers: fc.constant(racers),
        cases: fc.constant(cases),
        batches: fc.constant(list),
        totalAt: fc.nat({ max: list.length }),
        cancelAt: fc.option(fc.nat({ max: list.length }), { freq: 2 }),
        cancelRaces: fc.boolean(),
      }),
    );
  });

/** Run a schedule on fresh evaluation run; check what was recorded against what each call said. */
async function check(stores: readonly JudgeStore[], schedule: Schedule): Promise<void> {
  const [submitter] = stores as [JudgeStore];
  const runId = (await submitter.createEvaluationRun(sampleEvaluationRun)).evaluationRunId;
  const caseId = (index: number) => `case-${index}`;
  const outcomes: { send: Send; worker: string; outcome: VerdictRecording; batch: number }[] = [];
  let cancelReturned: EvaluationRunStatus | null = null;
  let totalSet = false;
  const sendBatch = (batch: number) =>
    (schedule.batches[batch] ?? []).map(async (send, index) => {
      const worker = `w${send.racer}-b${batch}-s${index}`;
      const store = stores[send.racer % stores.length] as JudgeStore;
      const outcome = await store.recordVerdict(
        sampleVerdict(runId, caseId(send.caseIndex), { worker }),
      );
      outcomes.push({ send, worker, outcome, batch });
    });

  for (let batch = 0; batch <= schedule.batches.length; batch++) {
    if (schedule.totalAt === batch) {
      await submitter.setCasesTotal(runId, schedule.cases, 0);
      totalSet = true;
    }
    const cancelsNow = schedule.cancelAt === batch;
    if (cancelsNow && !schedule.cancelRaces) {
      const casesIn = new Set(
        outcomes
          .filter((entry) => entry.outcome === 'recorded')
          .map((entry) => entry.send.caseIndex),
      ).size;
      cancelReturned = (await submitter.cancelEvaluationRun(runId)).status;
      // a cancel finds the run succeeded exactly when its total and all its verdicts were in
      expect(cancelReturned).toBe(
        totalSet && casesIn === schedule.cases ? 'succeeded' : 'cancelled',
      );
    }
    const canceller = stores[stores.length - 1] as JudgeStore;
    const racingCancel =
      cancelsNow && schedule.cancelRaces
        ? canceller.cancelEvaluationRun(runId).then((run) => {
            cancelReturned = run.status;
          })
        : Promise.resolve();
    await Promise.all([...sendBatch(batch), racingCancel]);
  }

  const stored = await submitter.verdicts(runId, { limit: 1000 });
  const recorded = outcomes.filter((entry) => entry.outcome === 'recorded');
  // exactly one verdict per case that got one, and it is the one whose call said 'recorded'
  expect(stored).toHaveLength(recorded.length);
  expect(new Set(stored.map((verdict) => verdict.caseKey)).size).toBe(stored.length);
  expect(new Set(stored.map((verdict) => verdict.worker))).toEqual(
    new Set(recorded.map((entry) => entry.worker)),
  );
  const cancelBatch = schedule.cancelAt ?? Number.POSITIVE_INFINITY;
  const cancelled = cancelReturned === 'cancelled';
  const recordedCases = new Set(recorded.map((entry) => entry.send.caseIndex));
  for (const entry of outcomes) {
    const afterCancel =
      entry.batch > cancelBatch || (entry.batch === cancelBatch && !schedule.cancelRaces);
    if (afterCancel && cancelled) expect(entry.outcome).toBe('closed');
    // before the cancel (or with none), no case goes without its verdict
    if (entry.batch < cancelBatch) expect(recordedCases.has(entry.send.caseIndex)).toBe(true);
    if (!cancelled) expect(entry.outcome).not.toBe('closed');
  }
  const run = await submitter.getEvaluationRun(runId);
  const allIn = totalSet && recordedCases.size === schedule.cases;
  expect(run.status).toBe(cancelled ? 'cancelled' : allIn ? 'succeeded' : 'running');
  expect(await submitter.verdictCount(runId)).toBe(recordedCases.size);
}

describe.each([
  { adapter: 'SQLite', numRuns: 200 },
  { adapter: 'PostgreSQL', numRuns: 150 },
])('random schedules of verdicts on $adapter (property)', ({ adapter, numRuns }) => {
  let stores: JudgeStore[] = [];
  let server: TestPostgres | undefined;
  let folder: string | undefined;
  beforeAll(async () => {
    if (adapter === 'SQLite') {
      folder = mkdtempSync(path.join(tmpdir(), 'arena-judge-property-'));
      const file = path.join(folder, 'arena.db');
      stores = [1, 2, 3].map(() => openSqliteJudgeStore(file));
    } else {
      server = await startTestPostgres();
      const uri = await server.createDatabase('judge_property');
      stores = await Promise.all([1, 2, 3].map(() => openPostgresJudgeStore(uri)));
    }
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await server?.stop();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('2-3 racing store objects: one verdict per case before the cancel, none after it, success exactly when all are in and not cancelled', async () => {
    await fc.assert(
      fc.asyncProperty(schedules, (schedule) => check(stores.slice(0, schedule.racers), schedule)),
      { numRuns, seed: 20261201 },
    );
  });
});
