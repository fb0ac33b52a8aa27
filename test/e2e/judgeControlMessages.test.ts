import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseKeyOf } from '../../src/actors/judging/modelPauses.js';
import type { JudgeStore } from '../../src/ports/store/judgeStore.js';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, type ReceivedRequest, startChatServer } from '../support/chatServer.js';
import type { RunningProcess } from '../support/cli.js';
import {
  caseOf,
  type JudgeWorkerProcess,
  judgeFixture,
  judgeFleetEnv,
  spawnArena,
  startJudgeWorker,
  stopWorkers,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { killAll, waitUntil } from '../support/queueFleet.js';

// Control messages on an open bus: a raw @nats-io client forges pauses and cancels; none is believed.
// The submitter may not publish cancels: a real cancel must still stop the fleet through the store.
const authorization = `authorization {
  users = [
    { user: worker, password: worker-secret }
    { user: forger, password: forger-secret }
    { user: submitter, password: submitter-secret,
      permissions: { publish: { allow: [">"], deny: ["arena.judge.cancel"] } } }
  ]
}`;

let nats: NatsServer;
let postgres: TestPostgres;
let forger: NatsConnection;
const servers: ChatServer[] = [];
const workers: JudgeWorkerProcess[] = [];
const processes: RunningProcess[] = [];
beforeAll(async () => {
  [nats, postgres] = await Promise.all([
    startNatsServer({ config: authorization }),
    startTestPostgres(),
  ]);
  forger = await connect({
    servers: nats.url,
    user: 'forger',
    pass: 'forger-secret',
    name: 'forger',
  });
});
afterAll(async () => {
  await forger?.close();
  await killAll([...workers, ...processes]);
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all([nats?.dispose(), postgres?.stop()]);
});

const as = (user: string): string => nats.url.replace('nats://', `nats://${user}:${user}-secret@`);

async function chatServer(reply: (request: ReceivedRequest) => ReturnType<typeof verdictFor>) {
  const server = await startChatServer(reply);
  servers.push(server);
  return server;
}

function fleet(store: string, cwd: string, count: number): JudgeWorkerProcess[] {
  const started = Array.from({ length: count }, (_, index) =>
    startJudgeWorker({
      nats: as('worker'),
      store,
      name: `c${index + 1}`,
      cwd,
      judgeConcurrency: 2,
    }),
  );
  workers.push(...started);
  return started;
}

function judgeWait(fixture: { folder: string; cases: string; config: string }, store: string) {
  const judging = spawnArena(
    ['judge', fixture.cases, '--config', fixture.config, '--nats', as('submitter')].concat([
      '--store',
      store,
      '--wait',
    ]),
    { cwd: fixture.folder, env: { ...judgeFleetEnv } },
  );
  processes.push(judging);
  return judging;
}

async function withStore<T>(uri: string, read: (store: JudgeStore) => Promise<T>): Promise<T> {
  const store = await openJudgeStore(parseStoreUri(uri));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

const runIdOf = (stderr: string): string => {
  const match = /as evaluation run (\S+)/.exec(stderr);
  if (!match) throw new Error(`no evaluation run id in: ${stderr}`);
  return match[1] as string;
};

/** `judge --wait`'s exit, or a failure naming the hang once `attempts` looks have passed. */
async function endOf(judging: RunningProcess, attempts = 300) {
  await waitUntil('judge --wait to end', () => judging.child.exitCode !== null, { attempts });
  return judging.exited;
}

async function startedRun(judging: RunningProcess, store: string, verdicts: number) {
  await waitUntil('the run is queued', () => /as evaluation run/.test(judging.stderr()));
  const evaluationRunId = runIdOf(judging.stderr());
  await waitUntil(`${verdicts} verdicts`, async () =>
    withStore(store, async (opened) => (await opened.verdictCount(evaluationRunId)) >= verdicts),
  );
  return evaluationRunId;
}

const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

describe('fleet control messages are checked, not believed (NATS JetStream + PostgreSQL)', () => {
  it('a forged pause of 10^12 ms and malformed pauses cost at most the back-off cap: every case judged exactly once, no timer overflows', async () => {
    const server = await chatServer((request) => verdictFor(request, 50));
    // back-off max_ms 400: the cap of any pause; an attempt times out after 2 s
    const fixture = judgeFixture(server, 30, { timeoutSeconds: 2, backoffMs: 100 });
    const store = await postgres.createDatabase('control_pause');
    const crew = fleet(store, fixture.folder, 2);
    const judging = judgeWait(fixture, store);
    const evaluationRunId = await startedRun(judging, store, 3);
    const key = pauseKeyOf({ base_url: server.baseURL, model: 'llama3.1:8b' });
    const subject = `arena.judge.pause.${hex(key)}`;
    const js = jetstream(forger);
    await js.publish(subject, JSON.stringify({ key, untilMs: Date.now() + 1e12 }));
    for (const body of [
      JSON.stringify({ key, untilMs: -5 }),
      `{"key":${JSON.stringify(key)},"untilMs":NaN}`,
      JSON.stringify({ key, untilMs: String(Date.now() + 1e12) }),
      JSON.stringify({ key, untilMs: 1e308 }),
      'not json at all',
      JSON.stringify({ key: 'another model', untilMs: Date.now() + 1e12 }),
    ])
      await js.publish(subject, body);
    const ended = await endOf(judging);
    expect(ended.code, ended.stderr).toBe(0);
    const { run, verdicts } = await withStore(store, async (opened) => ({
      run: await opened.getEvaluationRun(evaluationRunId),
      verdicts: await opened.verdicts(evaluationRunId, { limit: 1000 }),
    }));
    expect(run.status).toBe('succeeded');
    expect(new Set(verdicts.map((verdict) => verdict.caseKey)).size).toBe(30);
    expect(verdicts).toHaveLength(30);
    // no judgement timed out waiting: each case made one call, and got its verdict
    expect(verdicts.every((verdict) => verdict.result.status !== 'error')).toBe(true);
    expect(verdicts.every((verdict) => verdict.result.attemptCount === 1)).toBe(true);
    const perCase = new Map<string, number>();
    for (const request of server.requests)
      perCase.set(caseOf(request), (perCase.get(caseOf(request)) ?? 0) + 1);
    expect([...perCase.values()].every((calls) => calls === 1)).toBe(true);
    await stopWorkers(crew);
    const logs = crew.map((worker) => worker.stderr()).join('\n');
    expect(logs).not.toContain('TimeoutOverflowWarning');
    expect(logs).toContain('a control message was dropped');
  }, 90_000);

  it('a forged cancel loses no case: --wait ends with exactly one verdict per case', async () => {
    const server = await chatServer((request) => verdictFor(request, 200));
    const fixture = judgeFixture(server, 24);
    const store = await postgres.createDatabase('control_cancel');
    const crew = fleet(store, fixture.folder, 2);
    const judging = judgeWait(fixture, store);
    const evaluationRunId = await startedRun(judging, store, 3);
    for (const body of [
      JSON.stringify({ evaluationRunId }),
      'not json',
      JSON.stringify({ evaluationRunId: 5 }),
    ])
      forger.publish('arena.judge.cancel', body);
    await forger.flush();
    const ended = await endOf(judging);
    expect(ended.code, ended.stderr).toBe(0);
    const { run, verdicts } = await withStore(store, async (opened) => ({
      run: await opened.getEvaluationRun(evaluationRunId),
      verdicts: await opened.verdicts(evaluationRunId, { limit: 1000 }),
    }));
    expect(run.status).toBe('succeeded');
    expect(verdicts).toHaveLength(24);
    expect(new Set(verdicts.map((verdict) => verdict.caseKey)).size).toBe(24);
    await stopWorkers(crew);
    expect(crew.map((worker) => worker.stderr()).join('\n')).toContain(
      'a control message was dropped',
    );
  }, 90_000);

  it('a real cancel whose message NATS denies still stops the judgements in flight, through the store', async () => {
    // answers slower than the test waits: only a cancel ends these calls
    const server = await chatServer((request) => verdictFor(request, 60_000));
    const fixture = judgeFixture(server, 12, { timeoutSeconds: 120 });
    const store = await postgres.createDatabase('control_real_cancel');
    const crew = fleet(store, fixture.folder, 1);
    const judging = judgeWait(fixture, store);
    await waitUntil('two judgements in flight', () => server.requests.length >= 2);
    judging.child.kill('SIGINT');
    const ended = await endOf(judging);
    expect(ended.code).toBe(130);
    const evaluationRunId = runIdOf(ended.stderr);
    expect(ended.stderr).toContain(`evaluation run ${evaluationRunId} cancelled`);
    // the cancel message never reached the worker: it finds the cancel in the store and aborts its calls
    await waitUntil('the calls in flight aborted', () => server.aborted() >= 2, { attempts: 100 });
    const { run, verdicts } = await withStore(store, async (opened) => ({
      run: await opened.getEvaluationRun(evaluationRunId),
      verdicts: await opened.verdicts(evaluationRunId, { limit: 1000 }),
    }));
    expect(run.status).toBe('cancelled');
    expect(verdicts).toHaveLength(0);
    expect(server.requests.length).toBe(2);
    await stopWorkers(crew);
  }, 90_000);
});
