import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { hangGuard } from '../support/hangGuard.js';
import {
  judgeFixture,
  judgeFleetEnv,
  startJudgeWorker,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  allSucceeded,
  fleetEnv,
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  submit,
  type WorkerProcess,
  waitUntil,
  withWorkerLogs,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

// The store is the truth, the queue a cache of it: a nats-server that comes back without its
// JetStream folder has lost every queued run and case; requeue (or a worker at start) puts them back.
let nats: NatsServer;
let chat: ChatServer;
const started: WorkerProcess[] = [];
/** Until the queue is lost, judgements past the first few are slow: the evaluation run is still running when it is. */
let queueLost = false;
const casesJudgedFast = 12;
beforeAll(async () => {
  nats = await startNatsServer();
  chat = await startChatServer((request, index) =>
    verdictFor(request, queueLost || index < casesJudgedFast ? 40 : 3000),
  );
});
afterAll(async () => {
  await killAll(started);
  await chat?.close();
  await nats?.dispose();
});

const alive = (worker: WorkerProcess): boolean =>
  worker.child.exitCode === null && worker.child.signalCode === null;

async function loseTheQueue(): Promise<void> {
  await nats.kill();
  await nats.start({ lostStore: true });
}

describe('nats-server restarted without its JetStream folder', () => {
  it(
    'arena requeue puts back every queued run, the workers take them and new submits, records identical to a local run',
    async () => {
      const local = queueExperiment(2, { gated: true });
      local.openGate();
      const solo = await runArena(['run', local.runFile, '--store', `sqlite:${local.store}`], {
        cwd: local.folder,
      });
      expect(solo.code, solo.stderr).toBe(0);
      const reference = readStore(local.store, (store) =>
        runRecords(store, store.listRuns()[0]?.runId as string),
      );

      // the runs hold at their first step until the gate opens: two in flight (one per worker),
      // three queued when the queue is lost, however slowly this machine submits and runs them
      const experiment = queueExperiment(2, { gated: true });
      const crew = ['w1', 'w2'].map((name) =>
        startWorker({ nats: nats.url, store: experiment.store, name, cwd: experiment.folder }),
      );
      started.push(...crew);
      try {
        const runIds: string[] = [];
        for (let index = 0; index < 5; index++) {
          const result = await submit(experiment.runFile, {
            nats: nats.url,
            store: experiment.store,
            cwd: experiment.folder,
          });
          expect(result.code, result.stderr).toBe(0);
          runIds.push(result.stdout.trim());
        }
        const statuses = () =>
          readStore(experiment.store, (store) => store.listRuns().map((run) => run.status));
        await withWorkerLogs(
          crew,
          waitUntil(
            'two runs taken',
            () => statuses().filter((status) => status === 'running').length === 2,
            { everyMs: 20, attempts: 3000 },
          ),
        );
        await loseTheQueue();
        // nothing takes a queued run now (the queue lost them all): requeue puts back exactly these
        const queuedAtLoss = statuses().filter((status) => status === 'queued').length;
        expect(queuedAtLoss).toBe(3);
        const requeued = await runArena(
          ['requeue', '--nats', nats.url, '--store', `sqlite:${experiment.store}`],
          { cwd: experiment.folder, env: { ...fleetEnv } },
        );
        expect(requeued.code, requeued.stderr).toBe(0);
        const queuedAtRequeue = (/put back (\d+) runs?/.exec(requeued.stdout) ?? [])[1];
        expect(Number(queuedAtRequeue)).toBe(queuedAtLoss);

        // a run submitted after the loss is taken too
        const late = await submit(experiment.runFile, {
          nats: nats.url,
          store: experiment.store,
          cwd: experiment.folder,
        });
        expect(late.code, late.stderr).toBe(0);
        runIds.push(late.stdout.trim());
        experiment.openGate();
        await withWorkerLogs(
          crew,
          waitUntil('every run succeeded', () => allSucceeded(experiment.store, 6), {
            attempts: 3000,
          }),
        ).catch((error) => {
          throw new Error(`${error}\n${requeued.stdout}`);
        });
        for (const runId of runIds) {
          expect(readStore(experiment.store, (store) => runRecords(store, runId))).toEqual(
            reference,
          );
        }
        expect(crew.filter(alive)).toHaveLength(2);
        // nothing left to put back: a second requeue is a no-op
        const again = await runArena(
          ['requeue', '--nats', nats.url, '--store', `sqlite:${experiment.store}`],
          { cwd: experiment.folder },
        );
        expect(again.code, again.stderr).toBe(0);
        expect(again.stdout).toContain('put back 0 runs');
      } finally {
        // run workers take judge jobs too: none may outlive this test into the next
        await killAll(crew);
      }
    },
    hangGuard(120_000),
  );

  it(
    'a judge worker started afterwards puts back every unjudged case: exactly one verdict per case, the first workers still up',
    async () => {
      const cases = 80;
      const fixture = judgeFixture(chat, cases);
      const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
      const judgeWorker = (name: string) => {
        const worker = startJudgeWorker({
          nats: nats.url,
          store,
          name,
          cwd: fixture.folder,
          judgeConcurrency: 2,
        });
        started.push(worker);
        return worker;
      };
      const crew = [judgeWorker('j1'), judgeWorker('j2')];
      const submitted = await runArena(
        ['judge', fixture.cases, '--config', fixture.config, '--nats', nats.url, '--store', store],
        { cwd: fixture.folder, env: { ...judgeFleetEnv } },
      );
      expect(submitted.code, submitted.stderr).toBe(0);
      const evaluationRunId = /as evaluation run (\S+)/.exec(submitted.stderr)?.[1] as string;
      const read = async () => {
        const opened = await openJudgeStore(parseStoreUri(store));
        try {
          return {
            run: await opened.getEvaluationRun(evaluationRunId),
            verdicts: await opened.verdicts(evaluationRunId, { limit: 10_000 }),
          };
        } finally {
          await opened.close();
        }
      };
      // workers start slowly on a loaded machine: a bound on tries (3000 x 20 ms and a read), not a time the test needs
      await withWorkerLogs(
        crew,
        waitUntil('ten verdicts', async () => (await read()).verdicts.length >= 10, {
          everyMs: 20,
          attempts: 3000,
        }),
      );
      // the point of the test: cases are still queued when the queue is lost
      expect((await read()).run.status).toBe('running');
      await loseTheQueue();
      queueLost = true;
      const third = judgeWorker('j3');
      await withWorkerLogs(
        [...crew, third],
        waitUntil('the evaluation run ended', async () => (await read()).run.status !== 'running', {
          attempts: 600,
        }),
      );
      const { run, verdicts } = await read();
      expect(run.error).toBeNull();
      expect(run.status).toBe('succeeded');
      expect(verdicts).toHaveLength(cases);
      expect(new Set(verdicts.map((verdict) => verdict.caseKey)).size).toBe(cases);
      expect(third.stderr()).toMatch(/put back \d+ cases? of evaluation run/);
      expect([...crew, third].filter(alive)).toHaveLength(3);
    },
    hangGuard(240_000),
  );
});
