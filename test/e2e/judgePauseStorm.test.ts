import path from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseKeyOf } from '../../src/actors/judging/modelPauses.js';
import { subjectToken } from '../../src/ports/nats/natsStatusHints.js';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import {
  type JudgeWorkerProcess,
  judgeFixture,
  judgeFleetEnv,
  spawnArena,
  startJudgeWorker,
  stopWorkers,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll } from '../support/queueFleet.js';

// Forged model pauses, repeated faster than they could ever end, while a fleet judges: a pause is
// waited out before an attempt (never inside its timeout), and repeating one does not extend it
// past the judge's back-off cap in each window of four caps.
let nats: NatsServer;
let chat: ChatServer;
let forger: NatsConnection;
const workers: JudgeWorkerProcess[] = [];
beforeAll(async () => {
  nats = await startNatsServer();
  chat = await startChatServer((request) => verdictFor(request, 50));
  forger = await connect({
    servers: nats.url,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 100,
  });
});
afterAll(async () => {
  await forger?.close().catch(() => undefined);
  await killAll(workers);
  await chat?.close();
  await nats?.dispose();
});

describe('a storm of forged pauses', () => {
  it('a forged pause every 250 ms (the cap is 400 ms, an attempt times out after 1 s): every case judged, no timeout verdict', async () => {
    const cases = 60;
    // back-off max_ms 400: the cap of any pause; one attempt per case, timed out after 1 s
    const fixture = judgeFixture(chat, cases, {
      timeoutSeconds: 1,
      backoffMs: 100,
      maxAttempts: 1,
    });
    const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
    const worker = startJudgeWorker({
      nats: nats.url,
      store,
      name: 's1',
      cwd: fixture.folder,
      judgeConcurrency: 4,
    });
    workers.push(worker);
    const key = pauseKeyOf({ base_url: chat.baseURL, model: 'llama3.1:8b' });
    const js = jetstream(forger);
    const forging = setInterval(() => {
      js.publish(
        `arena.judge.pause.${subjectToken(key)}`,
        JSON.stringify({ key, untilMs: Date.now() + 60_000 }),
      ).catch(() => undefined);
    }, 250);
    try {
      const judged = await spawnArena(
        [
          ...['judge', fixture.cases, '--config', fixture.config],
          ...['--nats', nats.url, '--store', store, '--wait'],
        ],
        { cwd: fixture.folder, env: { ...judgeFleetEnv } },
      ).exited;
      expect(judged.code, `${judged.stderr}\n${worker.stderr()}`).toBe(0);
      const evaluationRunId = /as evaluation run (\S+)/.exec(judged.stderr)?.[1] as string;
      const opened = await openJudgeStore(parseStoreUri(store));
      try {
        const verdicts = await opened.verdicts(evaluationRunId, { limit: 1000 });
        expect(new Set(verdicts.map((verdict) => verdict.caseKey)).size).toBe(cases);
        expect(verdicts.map((verdict) => verdict.result.errorType ?? null)).toEqual(
          verdicts.map(() => null),
        );
      } finally {
        await opened.close();
      }
    } finally {
      clearInterval(forging);
      await stopWorkers([worker]);
    }
  }, 120_000);
});
