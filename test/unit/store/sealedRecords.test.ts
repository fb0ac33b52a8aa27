import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { JudgeContext } from '../../../src/domain/judge/context.js';
import { changedTables } from '../../../src/ports/store/core/sealedRecords.js';
import { checkSqliteStore } from '../../../src/ports/store/sqlite/sqliteCheck.js';
import { openSqliteJudgeStore } from '../../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';
import { sampleEvaluationRun, sampleVerdict } from '../../support/judgeVerdicts.js';

const folder = mkdtempSync(path.join(tmpdir(), 'arena-sealed-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let count = 0;
const newFile = () => path.join(folder, `store-${++count}.db`);

const episodeBase = {
  phaseIndex: 0,
  mode: 'train',
  evaluation: false,
  steps: 4,
  doneReason: 'terminal',
} as const;

/** A run of one phase and two episodes, finished (`succeeded`) or left running. */
function storedRun(file: string, finish: boolean): string {
  const store = openSqliteStore(file);
  const { runId } = store.createRun({
    uid: 'grid',
    seed: 1,
    runFile: 'uid: grid',
    runFilePath: '/g.yaml',
  });
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
  for (const episode of [1, 2]) {
    const episodeReturn = episode / 3;
    store.recordEpisode({
      ...episodeBase,
      runId,
      episode,
      episodeReturn,
      returnsByAgent: { a: 1 },
    });
  }
  if (finish) store.finishRun(runId, { status: 'succeeded' });
  store.close();
  return runId;
}

/** Change a SQLite store as a tool other than arena would: no arena function registered. */
function outside(file: string, sql: string): void {
  const db = new Database(file);
  db.exec(sql);
  db.close();
}

describe('a finished run sealed by a digest (SQLite)', () => {
  it('arena check --deep verifies every finished run, and none while running', () => {
    const file = newFile();
    storedRun(file, true);
    storedRun(file, false);
    expect(checkSqliteStore(file, { deep: true }).deep).toEqual({ verified: 1, changed: [] });
    expect(checkSqliteStore(file).deep).toBeUndefined();
  });

  it('names each table of a finished run changed outside arena', () => {
    const file = newFile();
    const runId = storedRun(file, true);
    outside(file, 'UPDATE episodes SET episode_return = 7 WHERE episode = 2');
    outside(file, `UPDATE runs SET summary = '{}' WHERE run_id = '${runId}'`);
    expect(checkSqliteStore(file, { deep: true }).deep).toEqual({
      verified: 1,
      changed: [{ kind: 'run', id: runId, tables: ['runs', 'episodes'] }],
    });
    outside(file, 'DELETE FROM episodes WHERE episode = 1');
    expect(checkSqliteStore(file, { deep: true }).deep?.changed[0]?.tables).toEqual([
      'runs',
      'episodes',
    ]);
  });

  it('a resumed run loses its digest until it finishes again, then is sealed with its new records', () => {
    const file = newFile();
    const runId = storedRun(file, true);
    const store = openSqliteStore(file);
    store.truncateAfter(runId, { phaseIndex: 0, episode: 1 });
    expect(checkSqliteStore(file, { deep: true }).deep).toEqual({ verified: 0, changed: [] });
    store.finishRun(runId, { status: 'failed', error: 'stopped' });
    store.close();
    expect(checkSqliteStore(file, { deep: true }).deep).toEqual({ verified: 1, changed: [] });
  });
});

const contextOf = (evaluationRunId: string, id: string): JudgeContext => ({
  evaluationRunId,
  caseId: id,
  subjectId: id,
  input: `secret input ${id}`,
  candidateOutput: `secret output ${id}`,
  observation: null as unknown as JudgeContext['observation'],
});

describe('a finished evaluation run keeps its verdicts and the cases’ digests, not their texts (SQLite)', () => {
  const contexts = (file: string) => {
    const db = new Database(file, { readonly: true });
    const rows = db
      .prepare('SELECT case_key, context, context_sha256 FROM evaluation_cases ORDER BY case_key')
      .all() as { case_key: string; context: string; context_sha256: string | null }[];
    db.close();
    return rows;
  };

  async function judgedRun(file: string, keepTexts: boolean): Promise<string> {
    const store = openSqliteJudgeStore(file);
    const { evaluationRunId } = await store.createEvaluationRun({
      ...sampleEvaluationRun,
      keepTexts,
    });
    const cases = ['c1', 'c2'].map((id) => ({
      caseKey: sampleVerdict(evaluationRunId, id).caseKey,
      context: contextOf(evaluationRunId, id),
    }));
    await store.recordCases(evaluationRunId, cases);
    expect(contexts(file).map((row) => row.context_sha256)).toEqual([null, null]);
    await store.setCasesTotal(evaluationRunId, 2, 0);
    for (const id of ['c1', 'c2']) await store.recordVerdict(sampleVerdict(evaluationRunId, id));
    expect((await store.getEvaluationRun(evaluationRunId)).status).toBe('succeeded');
    await store.close();
    return evaluationRunId;
  }

  it('drops the texts when the last verdict finishes the run, keeping each case’s digest', async () => {
    const file = newFile();
    const evaluationRunId = await judgedRun(file, false);
    const rows = contexts(file);
    expect(rows.map((row) => row.context)).toEqual(['', '']);
    for (const row of rows) expect(row.context_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(checkSqliteStore(file, { deep: true }).deep).toEqual({ verified: 1, changed: [] });
    outside(
      file,
      `UPDATE verdicts SET result = '{}' WHERE evaluation_run_id = '${evaluationRunId}'`,
    );
    expect(checkSqliteStore(file, { deep: true }).deep?.changed).toEqual([
      { kind: 'evaluation run', id: evaluationRunId, tables: ['verdicts'] },
    ]);
  });

  it('keeps the texts of a run created to keep them (--keep-texts)', async () => {
    const file = newFile();
    await judgedRun(file, true);
    const rows = contexts(file);
    expect(rows.map((row) => JSON.parse(row.context).input)).toEqual([
      'secret input c1',
      'secret input c2',
    ]);
    for (const row of rows) expect(row.context_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a cancelled run drops its texts too', async () => {
    const file = newFile();
    const store = openSqliteJudgeStore(file);
    const { evaluationRunId } = await store.createEvaluationRun(sampleEvaluationRun);
    await store.recordCases(evaluationRunId, [
      { caseKey: 'k', context: contextOf(evaluationRunId, 'k') },
    ]);
    await store.cancelEvaluationRun(evaluationRunId);
    await store.close();
    expect(contexts(file).map((row) => row.context)).toEqual(['']);
  });
});

describe('changedTables', () => {
  it('names the tables whose digest differs, in the kept order', () => {
    expect(changedTables('{"runs":"a","episodes":"b"}', '{"runs":"a","episodes":"c"}')).toEqual([
      'episodes',
    ]);
    expect(changedTables('{"runs":"a"}', '{"runs":"a"}')).toEqual([]);
  });
});
