import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { remoteRunFile, type ServeProcess, startServe } from '../support/componentServer.js';
import {
  judgeFixture,
  judgeFleetEnv,
  resultLines,
  spawnArena,
  verdictFor,
} from '../support/judgeFleet.js';
import { manualText } from '../support/manual.js';
import { type AuthorizedNats, startAuthorizedNats } from '../support/natsRoles.js';
import {
  fleetEnv,
  hintsOnlyEnv,
  killAll,
  queueExperiment,
  spawnWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';

// arena's own commands, each connected as its role of docs/nats/authorization.conf, doing the fleet's work.
let nats: AuthorizedNats;
let viewer: NatsConnection;
let worker: WorkerProcess;
let service: ServeProcess;
const chatServers: ChatServer[] = [];
const experiment = queueExperiment(0);
const store = `sqlite:${path.join(experiment.folder, 'fleet.db')}`;

beforeAll(async () => {
  nats = await startAuthorizedNats();
  viewer = await nats.connectAs('viewer');
  worker = spawnWorker(
    [
      ...['--nats', nats.urlOf('worker'), '--store', store, '--name', 'w1'],
      ...['--concurrency', '1', '--judge-concurrency', '2'],
    ],
    { cwd: experiment.folder, env: { ...fleetEnv, ...judgeFleetEnv } },
  );
  // the worker creates the streams and consumers the submitter may only use
  const jsm = await jetstreamManager(viewer);
  await waitUntil('the worker set up both queues', async () => {
    await jsm.consumers.info('ARENA_RUNS', 'arena-workers');
    await jsm.consumers.info('ARENA_JUDGE', 'arena-judges');
    return true;
  });
  service = await startServe({
    component: './components.js:SlowLine',
    service: 'tank',
    nats: nats.urlOf('service-tank'),
    cwd: experiment.folder,
  });
});
afterAll(async () => {
  await killAll([worker, service].filter((each) => each !== undefined));
  await Promise.all(chatServers.map((server) => server.close()));
  await nats?.dispose();
});

async function chatServer(delayMs: number): Promise<ChatServer> {
  const server = await startChatServer((request) => verdictFor(request, delayMs));
  chatServers.push(server);
  return server;
}

const judgeArgs = (fixture: { cases: string; config: string }, ...extra: string[]) => [
  ...['judge', fixture.cases, '--config', fixture.config],
  ...['--nats', nats.urlOf('submitter'), '--store', store, '--wait', ...extra],
];

async function judgeRun(evaluationRunId: string) {
  const opened = await openJudgeStore(parseStoreUri(store));
  try {
    return {
      run: await opened.getEvaluationRun(evaluationRunId),
      verdicts: await opened.verdictCount(evaluationRunId),
    };
  } finally {
    await opened.close();
  }
}

const runIdOf = (stderr: string): string =>
  /as evaluation run (\S+)/.exec(stderr)?.[1] ?? 'no evaluation run id';

describe('the fleet with each command connected as its role', () => {
  it('submit --wait as the submitter: the worker runs it to succeeded, told by its hints; no password is printed', async () => {
    const submitted = await submit(experiment.runFile, {
      nats: nats.urlOf('submitter'),
      store,
      cwd: experiment.folder,
      extra: ['--wait'],
      // an hour's safety net: the submitter ends with the run only on the worker's hint
      env: { ...hintsOnlyEnv },
    });
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toMatch(/: succeeded \(seed \d+\)/);
    expect(worker.stderr()).toContain(
      `taking runs from nats://worker:***@127.0.0.1:${nats.server.port}`,
    );
    expect(`${worker.stderr()}${service.stderr()}`).not.toMatch(/example-password/);
  });

  it('a run naming nats:tank, served by the tank service role, succeeds on the worker', async () => {
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'tank' });
    const submitted = await submit(runFile, {
      nats: nats.urlOf('submitter'),
      store,
      cwd: experiment.folder,
      extra: ['--wait'],
    });
    expect(submitted.code, submitted.stderr).toBe(0);
    expect(submitted.stdout).toMatch(/: succeeded \(seed \d+\)/);
    expect(service.stderr()).toContain('as nats:tank on nats://service-tank:***@');
  });

  it('judge --nats --wait as the submitter: the worker judges every case, told by its hints', async () => {
    const fixture = judgeFixture(await chatServer(0), 6);
    const out = path.join(fixture.folder, 'verdicts.jsonl');
    const judged = await runArena(judgeArgs(fixture, '--out', out), {
      cwd: fixture.folder,
      env: { ...judgeFleetEnv, ...hintsOnlyEnv },
    });
    expect(judged.code, judged.stderr).toBe(0);
    expect(resultLines(readFileSync(out, 'utf8'))).toHaveLength(6);
    expect((await judgeRun(runIdOf(judged.stderr))).run.status).toBe('succeeded');
  });

  it('arena requeue as the submitter puts back what the store expects', async () => {
    const requeued = await runArena(
      ['requeue', '--nats', nats.urlOf('submitter'), '--store', store],
      {
        cwd: experiment.folder,
      },
    );
    expect(requeued.code, requeued.stderr).toBe(0);
    expect(requeued.stdout).toContain('put back 0 runs (0 still queued)');
  });

  it('submit, worker and serve connected as a role that may not do their job fail in one line naming the user and the refusal, exit 2', async () => {
    const server = `127.0.0.1:${nats.server.port}`;
    const refusedStore = `sqlite:${path.join(experiment.folder, 'refused.db')}`;
    const asViewer = await submit(experiment.runFile, {
      nats: nats.urlOf('viewer'),
      store: refusedStore,
      cwd: experiment.folder,
    });
    expect(asViewer.code).toBe(2);
    expect(asViewer.stderr).toBe(
      `arena: NatsPermissionError: nats://viewer:***@${server} refused user viewer: Permissions Violation for Publish to "arena.runs.queued" (that role may not do this; arena's roles: docs/nats/authorization.conf)\n`,
    );
    // the README shows this line, on the default port
    const readme = manualText();
    expect(readme).toContain(asViewer.stderr.replace(server, '127.0.0.1:4222'));
    const asSubmitter = await runArena(
      [
        'worker',
        '--nats',
        nats.urlOf('submitter'),
        '--store',
        refusedStore,
        '--name',
        'not-a-worker',
      ],
      { cwd: experiment.folder, env: fleetEnv },
    );
    const rogue = await runArena(
      ['serve', './components.js:SlowLine', '--nats', nats.urlOf('submitter'), '--as', 'tank'],
      { cwd: experiment.folder },
    );
    expect(rogue.code).toBe(2);
    expect(rogue.stderr).toBe(
      `arena: NatsPermissionError: nats://submitter:***@${server} refused user submitter: Permissions Violation for Subscription to "arena.component.tank.open" using queue "arena-serve" (that role may not do this; arena's roles: docs/nats/authorization.conf)\n`,
    );
    expect(asSubmitter.code).toBe(2);
    expect(asSubmitter.stderr).toBe(
      `arena: NatsPermissionError: nats://submitter:***@${server} refused user submitter: Permissions Violation for Publish to "$JS.API.CONSUMER.INFO.ARENA_RUNS.arena-workers" (that role may not do this; arena's roles: docs/nats/authorization.conf)\n`,
    );
  });

  it('Ctrl-C on judge --wait as the submitter cancels through the store: exit 130, no verdict after it, nothing left queued', async () => {
    const fixture = judgeFixture(await chatServer(300), 16);
    const judging = spawnArena(judgeArgs(fixture), { cwd: fixture.folder, env: judgeFleetEnv });
    await waitUntil('the run is queued', () => /as evaluation run/.test(judging.stderr()));
    const evaluationRunId = runIdOf(judging.stderr());
    await waitUntil('a verdict', async () => (await judgeRun(evaluationRunId)).verdicts >= 1);
    judging.child.kill('SIGINT');
    const ended = await judging.exited;
    expect(ended.code, ended.stderr).toBe(130);
    expect(ended.stderr).toContain(`evaluation run ${evaluationRunId} cancelled`);
    expect(ended.stderr).not.toMatch(/permissions violation/i);
    const atCancel = await judgeRun(evaluationRunId);
    expect(atCancel.run.status).toBe('cancelled');
    // the purge was the submitter's to skip: the worker drops the cancelled run's cases, none stays queued
    const jsm = await jetstreamManager(viewer);
    await waitUntil('the judge queue is empty', async () => {
      const info = await jsm.consumers.info('ARENA_JUDGE', 'arena-judges');
      return (
        (await jsm.streams.info('ARENA_JUDGE')).state.messages === 0 && info.num_ack_pending === 0
      );
    });
    expect((await judgeRun(evaluationRunId)).verdicts).toBe(atCancel.verdicts);
  });
});
