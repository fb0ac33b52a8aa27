import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import {
  judgeFixture,
  judgeFleetEnv,
  resultLines,
  spawnArena,
  startJudgeWorker,
  verdictFacts,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  killAll,
  queueExperiment,
  readStore,
  startWorker,
  storedEpisodes,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

// `submit --wait` and `judge --wait` follow the store, not the queue: nats-server SIGKILLed and
// started again (its JetStream folder kept) while they follow is an outage the fleet rides out.
let nats: NatsServer;
let chat: ChatServer;
const started: WorkerProcess[] = [];
beforeAll(async () => {
  nats = await startNatsServer();
  chat = await startChatServer((request) => verdictFor(request, 30));
});
afterAll(async () => {
  await killAll(started);
  await chat?.close();
  await nats?.dispose();
});

const alive = (worker: WorkerProcess): boolean =>
  worker.child.exitCode === null && worker.child.signalCode === null;

/** nats-server SIGKILLed, away about two seconds, started again on its kept folder. */
async function outage(): Promise<void> {
  await nats.kill();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await nats.start();
}

describe('nats-server SIGKILLed and restarted (store kept) while --wait follows', () => {
  it('arena submit --wait rides it out: exit 0, the records of a local run, both workers still up', async () => {
    const experiment = queueExperiment(5);
    const solo = await runArena(
      ['run', experiment.runFile, '--store', `sqlite:${experiment.store}`],
      {
        cwd: experiment.folder,
      },
    );
    expect(solo.code, solo.stderr).toBe(0);
    const reference = readStore(experiment.store, (store) =>
      runRecords(store, store.listRuns()[0]?.runId as string),
    );
    const fleetStore = path.join(experiment.folder, 'fleet.db');
    const crew = ['w1', 'w2'].map((name) =>
      startWorker({ nats: nats.url, store: fleetStore, name, cwd: experiment.folder }),
    );
    started.push(...crew);
    const waiting = spawnArena(
      [
        'submit',
        experiment.runFile,
        '--nats',
        nats.url,
        '--store',
        `sqlite:${fleetStore}`,
        '--wait',
      ],
      { cwd: experiment.folder, env: { ...judgeFleetEnv } },
    );
    let runId = '';
    await waitUntil('the run has stored episodes', () => {
      runId = readStore(fleetStore, (store) => store.listRuns()[0]?.runId ?? '');
      return runId !== '' && storedEpisodes(fleetStore, runId) >= 3;
    });
    await outage();
    const waited = await waiting.exited;
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toContain(`run ${runId}: succeeded`);
    expect(readStore(fleetStore, (store) => runRecords(store, runId))).toEqual(reference);
    expect(crew.filter(alive)).toHaveLength(2);
    await killAll(crew);
  }, 120_000);

  it('arena judge --nats --wait rides it out: exit 0, exactly one verdict per case, the --out of a one-process run', async () => {
    const cases = 120;
    const fixture = judgeFixture(chat, cases);
    const single = await runArena([
      'judge',
      fixture.cases,
      '--config',
      fixture.config,
      '--out',
      path.join(fixture.folder, 'single.jsonl'),
    ]);
    expect(single.code, single.stderr).toBe(0);
    const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
    const crew = ['j1', 'j2'].map((name) =>
      startJudgeWorker({ nats: nats.url, store, name, cwd: fixture.folder, judgeConcurrency: 2 }),
    );
    started.push(...crew);
    const out = path.join(fixture.folder, 'fleet.jsonl');
    const judging = spawnArena(
      [
        'judge',
        fixture.cases,
        '--config',
        fixture.config,
        '--nats',
        nats.url,
        '--store',
        store,
        '--wait',
        '--out',
        out,
      ],
      { cwd: fixture.folder, env: { ...judgeFleetEnv } },
    );
    await waitUntil('the run is queued', () => /as evaluation run/.test(judging.stderr()));
    const evaluationRunId = /as evaluation run (\S+)/.exec(judging.stderr())?.[1] as string;
    const withStore = async <T>(
      read: (s: Awaited<ReturnType<typeof openJudgeStore>>) => Promise<T>,
    ) => {
      const opened = await openJudgeStore(parseStoreUri(store));
      try {
        return await read(opened);
      } finally {
        await opened.close();
      }
    };
    await waitUntil(
      'twenty verdicts',
      async () => (await withStore((opened) => opened.verdictCount(evaluationRunId))) >= 20,
      { everyMs: 20 },
    );
    await outage();
    const ended = await judging.exited;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout.split('\n')[0]).toBe(single.stdout.split('\n')[0]);
    const keys = await withStore(async (opened) =>
      (await opened.verdicts(evaluationRunId, { limit: 10_000 })).map((verdict) => verdict.caseKey),
    );
    expect(keys).toHaveLength(cases);
    expect(new Set(keys).size).toBe(cases);
    const byCase = (lines: Record<string, unknown>[]) =>
      lines.map(verdictFacts).sort((a, b) => String(a.caseId).localeCompare(String(b.caseId)));
    expect(byCase(resultLines(readFileSync(out, 'utf8')))).toEqual(
      byCase(resultLines(readFileSync(path.join(fixture.folder, 'single.jsonl'), 'utf8'))),
    );
    expect(crew.filter(alive)).toHaveLength(2);
    await killAll(crew);
  }, 120_000);
});
