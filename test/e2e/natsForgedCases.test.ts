import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { repoRoot } from '../support/cli.js';
import {
  caseOf,
  judgeFixture,
  judgeFleetEnv,
  spawnArena,
  verdictFor,
} from '../support/judgeFleet.js';
import { type AuthorizedNats, startAuthorizedNats } from '../support/natsRoles.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  killAll,
  queueExperiment,
  spawnWorker,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';

// Issue 35, item 1: case messages forged by the submitter and worker roles of
// docs/nats/authorization.conf, during a run stored in PostgreSQL under the
// roles of docs/postgres: the run's verdicts are exactly its stored cases.
let nats: AuthorizedNats;
let postgres: TestPostgres;
let chat: ChatServer;
let worker: WorkerProcess | undefined;
let admin: string;
const experiment = queueExperiment(0);
const uriAs = (role: string) => admin.replace('postgres://arena@', `postgres://${role}@`);
/** Case 0 of the run is answered only once the forged messages were handled: the run is still running then. */
let gateOpen = false;

async function sql<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return (await client.query(text, [...params])).rows as Row[];
  } finally {
    await client.end();
  }
}

const docs = (file: string) => readFileSync(path.join(repoRoot, 'docs/postgres', file), 'utf8');

beforeAll(async () => {
  [postgres, nats] = await Promise.all([startTestPostgres(), startAuthorizedNats()]);
  admin = await postgres.createDatabase('arena_forged');
  await sql(docs('roles.sql'));
  openPostgresStore(uriAs('arena_owner')).close();
  const owner = new pg.Client({ connectionString: uriAs('arena_owner') });
  await owner.connect();
  await owner.query(docs('grants.sql'));
  await owner.end();
  chat = await startChatServer((request) =>
    caseOf(request) === 'case-0' && !gateOpen
      ? { status: 503, content: 'busy' }
      : verdictFor(request),
  );
  worker = spawnWorker(
    [
      ...['--nats', nats.urlOf('worker'), '--store', uriAs('arena_worker'), '--name', 'w1'],
      ...['--judge-concurrency', '2'],
    ],
    { cwd: experiment.folder, env: { ...judgeFleetEnv } },
  );
  await waitUntil('the worker is taking cases', () =>
    /taking runs from/.test(worker?.stderr() ?? ''),
  );
});
afterAll(async () => {
  await killAll(worker === undefined ? [] : [worker]);
  await chat?.close();
  await Promise.all([nats?.dispose(), postgres?.stop()]);
});

const subjectOf = (evaluationRunId: string) =>
  `arena.judge.cases.${Buffer.from(evaluationRunId, 'utf8').toString('hex')}`;

describe('forged judge case messages on the documented roles', () => {
  it('judges only the cases the store holds: forged names and copies are dropped and logged, the run ends on its stored cases', async () => {
    const fixture = judgeFixture(chat, 6, { maxAttempts: 100, backoffMs: 50 });
    const judging = spawnArena(
      [
        ...['judge', fixture.cases, '--config', fixture.config],
        ...['--nats', nats.urlOf('submitter'), '--store', uriAs('arena_submitter'), '--wait'],
      ],
      { cwd: fixture.folder, env: judgeFleetEnv },
    );
    await waitUntil(
      'the run is queued',
      () => judging.child.exitCode !== null || /as evaluation run/.test(judging.stderr()),
    );
    expect(judging.stderr()).toMatch(/as evaluation run/);
    const evaluationRunId = /as evaluation run (\S+)/.exec(judging.stderr())?.[1] as string;
    await waitUntil(
      'its cases are stored',
      async () =>
        (
          await sql(`SELECT 1 FROM evaluation_cases WHERE evaluation_run_id = $1`, [
            evaluationRunId,
          ])
        ).length === 6,
    );
    const [stored] = await sql<{ context: string }>(
      `SELECT context FROM evaluation_cases WHERE evaluation_run_id = $1 ORDER BY case_key LIMIT 1`,
      [evaluationRunId],
    );
    const forgedContext = {
      ...JSON.parse(stored?.context as string),
      caseId: 'forged-case',
      subjectId: 'forged-case',
      candidateOutput: 'ok-99 forged',
    };
    const forgedKey = JSON.stringify([evaluationRunId, 'forged-case', 'forged-case']);
    const storedKey = JSON.stringify([evaluationRunId, 'case-1', 'case-1']);
    const subject = subjectOf(evaluationRunId);
    const asSubmitter = jetstream(await nats.connectAs('submitter'));
    const asWorker = jetstream(await nats.connectAs('worker'));
    // a name of a case the store does not hold, from each role
    await asSubmitter.publish(subject, JSON.stringify({ evaluationRunId, caseKey: forgedKey }));
    await asWorker.publish(subject, JSON.stringify({ evaluationRunId, caseKey: `${forgedKey} ` }));
    // the attack of issue 35: a whole case in the message
    await asWorker.publish(subject, JSON.stringify({ evaluationRunId, context: forgedContext }));
    // a stored case named again: judged once all the same
    await asSubmitter.publish(subject, JSON.stringify({ evaluationRunId, caseKey: storedKey }), {
      msgID: 'forged-repeat',
    });
    await waitUntil(
      'the worker dropped the three forged messages',
      () => (worker?.stderr().match(/names no case/g) ?? []).length >= 3,
    );
    gateOpen = true;
    const ended = await judging.exited;
    expect(ended.code, `${ended.stderr}\n${worker?.stderr()}`).toBe(0);

    const [run] = await sql<{ status: string; cases_total: number; verdicts_recorded: number }>(
      `SELECT status, cases_total, verdicts_recorded FROM evaluation_runs WHERE evaluation_run_id = $1`,
      [evaluationRunId],
    );
    expect(run).toEqual({ status: 'succeeded', cases_total: 6, verdicts_recorded: 6 });
    const keysOf = async (table: string) =>
      (
        await sql<{ case_key: string }>(
          `SELECT case_key FROM ${table} WHERE evaluation_run_id = $1 ORDER BY case_key`,
          [evaluationRunId],
        )
      ).map((row) => row.case_key);
    const storedKeys = await keysOf('evaluation_cases');
    expect(storedKeys).toHaveLength(6);
    expect(await keysOf('verdicts')).toEqual(storedKeys);
    // the forged text never reached the model
    expect(chat.requests.some((request) => JSON.stringify(request.body).includes('forged'))).toBe(
      false,
    );
    const log = worker?.stderr() ?? '';
    expect(log).toContain(
      'a case message names no case of its evaluation run: dropped, not judged',
    );
    expect(log).toContain('forged-case');
    expect(log).toContain('a case message that names no case was dropped');
  });
});
