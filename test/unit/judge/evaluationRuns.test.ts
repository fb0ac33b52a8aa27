import { afterEach, describe, expect, it } from 'vitest';
import { submitEvaluationRun } from '../../../src/actors/judging/evaluationRuns.js';
import type { CaseLineOutcome } from '../../../src/domain/judge/cases.js';
import { parseCaseLine } from '../../../src/domain/judge/cases.js';
import type { JudgeQueue, QueuedCase } from '../../../src/ports/queue/judgeQueue.js';
import type { JudgeStore } from '../../../src/ports/store/judgeStore.js';
import { openSqliteJudgeStore } from '../../../src/ports/store/sqlite/sqliteJudgeStore.js';

/** The submitting half of a judge queue, in memory: JetStream's duplicate window as a set of message ids. */
function memoryQueue(options: { failAt?: number } = {}) {
  const ids = new Set<string>();
  const queued: QueuedCase[] = [];
  const purged: string[] = [];
  let calls = 0;
  const queue = {
    async submit(job: QueuedCase) {
      calls++;
      if (calls === options.failAt) throw new Error('maximum payload exceeded');
      const id = `${job.evaluationRunId}:${job.caseKey}`;
      if (ids.has(id)) return { duplicate: true };
      ids.add(id);
      queued.push(job);
      return { duplicate: false };
    },
    async purge(evaluationRunId: string) {
      purged.push(evaluationRunId);
    },
  } as unknown as JudgeQueue;
  return { queue, queued, purged };
}

async function* lines(texts: readonly string[]): AsyncGenerator<CaseLineOutcome> {
  let line = 0;
  for (const text of texts) yield parseCaseLine(text, ++line, 'judge-file');
}

const caseLine = (id: string) => JSON.stringify({ case_id: id, input: 'q', candidate_output: 'a' });
const newRun = {
  judgeName: 'strict',
  judgeConfig: { rubric: { version: '1', text: 'r' } },
  configDir: '/configs',
  casesFile: '/configs/cases.jsonl',
  casesSha256: 'ab'.repeat(32),
  cache: true,
};

let store: JudgeStore | undefined;
afterEach(async () => {
  await store?.close();
});

describe('submitting an evaluation run', () => {
  it('counts the queued cases, not the duplicate or malformed lines, and records the total', async () => {
    store = openSqliteJudgeStore(':memory:');
    const { queue, queued } = memoryQueue();
    const malformed: number[] = [];
    const { run, duplicates } = await submitEvaluationRun(
      lines([caseLine('a'), caseLine('b'), caseLine('a'), 'not json', '', caseLine('c')]),
      {
        store,
        queue,
        run: newRun,
        window: 2,
        onMalformed: (problem) => malformed.push(problem.line),
      },
    );
    expect(queued.map((job) => JSON.parse(job.caseKey)[1])).toEqual(['a', 'b', 'c']);
    expect(duplicates).toBe(1);
    expect(malformed).toEqual([4]);
    expect(run).toMatchObject({ status: 'running', casesTotal: 3, malformedLines: 1 });
  });

  it('counts a case whose publish the server already kept (a retry across a restart) as queued, not as a duplicate', async () => {
    store = openSqliteJudgeStore(':memory:');
    const { queue, queued } = memoryQueue();
    // the server stored case b, its ack was lost, and the retried publish is answered "duplicate"
    const retried = {
      ...queue,
      async submit(job: QueuedCase) {
        const receipt = await queue.submit(job);
        return JSON.parse(job.caseKey)[1] === 'b' ? { duplicate: true } : receipt;
      },
    } as unknown as JudgeQueue;
    const { run, duplicates } = await submitEvaluationRun(
      lines([caseLine('a'), caseLine('b'), caseLine('c')]),
      { store, queue: retried, run: newRun },
    );
    expect(queued).toHaveLength(3);
    expect(duplicates).toBe(0);
    expect(run.casesTotal).toBe(3);
  });

  it('fails the run, naming why, and drops what was queued when the queue refuses a case', async () => {
    store = openSqliteJudgeStore(':memory:');
    const { queue, purged } = memoryQueue({ failAt: 2 });
    await expect(
      submitEvaluationRun(lines([caseLine('a'), caseLine('b'), caseLine('c')]), {
        store,
        queue,
        run: newRun,
        window: 1,
      }),
    ).rejects.toThrow('maximum payload exceeded');
    const [id] = purged;
    const run = await store.getEvaluationRun(id as string);
    expect(run.status).toBe('failed');
    expect(run.error).toBe('cases could not be queued: maximum payload exceeded');
  });
});
