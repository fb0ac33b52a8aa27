import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCasesPerMessage } from '../../src/ports/queue/caseBatches.js';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import {
  judgeFixture,
  judgeFleetEnv,
  spawnArena,
  startJudgeWorker,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll, type WorkerProcess, waitUntil, withWorkerLogs } from '../support/queueFleet.js';

// `arena judge --nats` still queueing when nats-server is SIGKILLed and started again (its folder
// kept), twice, each at a random moment: its publishes are made again until the server is back,
// and a publish that had reached the stream comes back a duplicate, counted as queued.
let nats: NatsServer;
let chat: ChatServer;
let watcher: NatsConnection;
const started: WorkerProcess[] = [];
beforeAll(async () => {
  nats = await startNatsServer();
  chat = await startChatServer((request) => verdictFor(request, 0));
  watcher = await connect({
    servers: nats.url,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 100,
  });
});
afterAll(async () => {
  await killAll(started);
  await watcher?.close().catch(() => undefined);
  await chat?.close();
  await nats?.dispose();
});

/**
 * How many cases the judge stream has taken at least (its last sequence, a
 * message of `defaultCasesPerMessage` cases each but the last; 0 before it exists).
 */
async function casesPublished(): Promise<number> {
  const jsm = await jetstreamManager(watcher, { timeout: 1000 });
  return (await jsm.streams.info('ARENA_JUDGE')).state.last_seq * defaultCasesPerMessage;
}

/** 3,000 in the suite; `ARENA_QUEUEING_CASES=20000` runs the full size (a few minutes). */
const queueingCases = Number(process.env.ARENA_QUEUEING_CASES ?? 3000);

describe('a NATS restart while arena judge --nats is queueing', () => {
  it(
    'every case is queued and judged exactly once, exit 0, through two restarts at random moments',
    async () => {
      const cases = queueingCases;
      const fixture = judgeFixture(chat, cases);
      const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
      const worker = startJudgeWorker({
        nats: nats.url,
        store,
        name: 'j1',
        cwd: fixture.folder,
        judgeConcurrency: 8,
      });
      started.push(worker);
      await withWorkerLogs(
        [worker],
        waitUntil('the worker is up', () => /put back \d+ runs?/.test(worker.stderr())),
      );
      const judging = spawnArena(
        [
          ...['judge', fixture.cases, '--config', fixture.config],
          ...['--nats', nats.url, '--store', store, '--wait'],
        ],
        { cwd: fixture.folder, env: { ...judgeFleetEnv } },
      );
      // two moments in the queueing, drawn anew each run (printed when the test fails)
      const moments = [0.1 + Math.random() * 0.2, 0.5 + Math.random() * 0.25].map((share) =>
        Math.floor(cases * share),
      );
      const queuedWhenKilled: boolean[] = [];
      for (const moment of moments) {
        await waitUntil(
          `${moment} cases published`,
          async () => (await casesPublished()) >= moment,
          {
            attempts: 6000,
            everyMs: 10,
          },
        );
        queuedWhenKilled.push(/queued \d+ cases as evaluation run/.test(judging.stderr()));
        await nats.kill();
        await new Promise((resolve) => setTimeout(resolve, 500));
        await nats.start();
      }
      const ended = await judging.exited;
      const context = `restarts after ${moments.join(' and ')} cases\n${ended.stderr}\n${worker.stderr().slice(-3000)}`;
      expect(ended.code, context).toBe(0);
      // both restarts came while the cases were still being queued
      expect(queuedWhenKilled, context).toEqual([false, false]);
      expect(ended.stderr).toContain(`queued ${cases} cases as evaluation run`);
      expect(ended.stderr).not.toMatch(/unexpected error|\n\s+at /);
      const evaluationRunId = /as evaluation run (\S+)/.exec(ended.stderr)?.[1] as string;
      const opened = await openJudgeStore(parseStoreUri(store));
      try {
        const run = await opened.getEvaluationRun(evaluationRunId);
        expect(run.status).toBe('succeeded');
        expect(run.casesTotal).toBe(cases);
        const keys = (await opened.verdicts(evaluationRunId, { limit: cases * 2 })).map(
          (verdict) => verdict.caseKey,
        );
        expect(keys).toHaveLength(cases);
        expect(new Set(keys).size).toBe(cases);
      } finally {
        await opened.close();
      }
      expect(worker.child.exitCode).toBeNull();
    },
    300_000 * Math.max(1, Math.ceil(queueingCases / 3000)),
  );
});
