import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawOrder } from '../../src/domain/stats/drawOrder.js';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import {
  type JudgeWorkerProcess,
  judgeFleetEnv,
  startJudgeWorker,
  stopWorkers,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { killAll } from '../support/queueFleet.js';
import { scratchFolder } from '../support/scratch.js';
import { sequentialOf, servedSequentialConfig, sumVerdict } from '../support/servedSums.js';

const sums = path.join(repoRoot, 'examples/judge/sums.jsonl');

/** sums.jsonl's case ids, in file order. */
const caseIds = readFileSync(sums, 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { case_id: string }).case_id);

describe('arena judge --nats with gates.sequential (NATS JetStream + PostgreSQL)', () => {
  it('two workers reach the decision of one process at the same case and wealth; nothing is queued past the run-ahead bound, nothing judged after the decision', async () => {
    const [nats, postgres] = await Promise.all([startNatsServer(), startTestPostgres()]);
    const server = await startChatServer((request) => {
      const { passed, content } = sumVerdict(request);
      // failures answer later: a fold in completion order would see the passes first
      return { delayMs: passed ? 5 : 40, content };
    });
    const crew: JudgeWorkerProcess[] = [];
    try {
      await judgeOnTwoWorkers(nats, postgres, server, crew);
    } finally {
      await killAll(crew);
      await server.close();
      await Promise.all([nats.dispose(), postgres.stop()]);
    }
  });
});

/** The test's body: one process, then the fleet, on the same seed. */
async function judgeOnTwoWorkers(
  nats: NatsServer,
  postgres: TestPostgres,
  server: ChatServer,
  crew: JudgeWorkerProcess[],
): Promise<void> {
  const folder = scratchFolder('arena-sequential-fleet-');
  const config = servedSequentialConfig(folder, server.baseURL, 0.9);
  const common = ['judge', sums, '--config', config, '--seed', '5', '--json'];
  const alone = await runArena([...common, '--out', path.join(folder, 'alone.jsonl')]);
  expect(alone.stderr).toBe('');
  const oneProcess = sequentialOf(alone.stdout);

  const store = await postgres.createDatabase('sequential_fleet');
  for (const name of ['s1', 's2']) {
    crew.push(startJudgeWorker({ nats: nats.url, store, name, cwd: folder, judgeConcurrency: 2 }));
  }
  const concurrency = 2;
  const fleet = await runArena(
    [
      ...common,
      '--nats',
      nats.url,
      '--store',
      store,
      '--concurrency',
      String(concurrency),
      '--out',
      path.join(folder, 'fleet.jsonl'),
    ],
    { cwd: folder, env: { ...judgeFleetEnv } },
  );
  expect(fleet.code, fleet.stderr).toBe(oneProcess.decision === 'pass' ? 0 : 1);
  const requestsByDecision = server.requests.length;
  const onFleet = sequentialOf(fleet.stdout);
  expect({
    decision: onFleet.decision,
    decidedAt: onFleet.decidedAt,
    wealth: onFleet.wealth,
  }).toEqual({
    decision: oneProcess.decision,
    decidedAt: oneProcess.decidedAt,
    wealth: oneProcess.wealth,
  });
  const runId = /evaluation run (\S+):/.exec(fleet.stderr)![1]!;
  const opened = await openJudgeStore(parseStoreUri(store));
  try {
    const run = await opened.getEvaluationRun(runId);
    const gate = await opened.sequentialGateOf(runId);
    const verdicts = await opened.verdicts(runId, { limit: 10_000 });
    expect(run.status).toBe('succeeded');
    expect(gate).toMatchObject({
      seed: 5,
      total: 1000,
      decision: oneProcess.decision,
      decidedAt: oneProcess.decidedAt,
    });
    expect(gate!.judged).toBeLessThanOrEqual(verdicts.length);
    expect(onFleet.judged).toBe(verdicts.length);
    // no verdict of a case drawn past the decision by more than the run-ahead bound
    const drawIndexOf = new Map<string, number>();
    const order = drawOrder(caseIds.length, 5);
    for (let drawIndex = 0; drawIndex < order.length; drawIndex++) {
      drawIndexOf.set(caseIds[order[drawIndex]!]!, drawIndex);
    }
    const drawn = verdicts.map((verdict) => drawIndexOf.get(verdict.result.caseId)!);
    expect(Math.max(...drawn)).toBeLessThan(oneProcess.decidedAt + 4 * concurrency);
    expect(new Set(verdicts.map((verdict) => verdict.worker)).size).toBe(2);
  } finally {
    await opened.close();
  }
  // the workers keep taking cases: a run with no sequential gate, judged to its end, comes after
  // any case of the decided run the queue still held
  const [cases, replay] = ['cases.jsonl', 'replay.yaml'].map((file) =>
    path.join(repoRoot, 'examples/judge', file),
  );
  const nextRun = ['judge', cases!, '--config', replay!, '--wait'];
  const after = await runArena([...nextRun, '--nats', nats.url, '--store', store], {
    cwd: repoRoot,
    env: { ...judgeFleetEnv },
  });
  expect(after.code, after.stderr).toBe(0);
  expect(server.requests.length).toBe(requestsByDecision);
  await stopWorkers(crew);
}
