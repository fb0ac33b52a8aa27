import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeStore } from '../../src/ports/store/judgeStore.js';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, type ReceivedRequest, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import {
  caseOf,
  type JudgeWorkerProcess,
  judgeFixture,
  judgeFleetEnv,
  resultLines,
  spawnArena,
  startJudgeWorker,
  stopWorkers,
  verdictFacts,
  verdictFor,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { killAll, waitUntil } from '../support/queueFleet.js';

// Judging at scale with the real engines: cases on NATS JetStream, verdicts in PostgreSQL, a real HTTP model server.
let nats: NatsServer;
let postgres: TestPostgres;
const servers: ChatServer[] = [];
const workers: JudgeWorkerProcess[] = [];
beforeAll(async () => {
  [nats, postgres] = await Promise.all([startNatsServer(), startTestPostgres()]);
});
afterAll(async () => {
  await killAll(workers);
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all([nats?.dispose(), postgres?.stop()]);
});

async function chatServer(
  reply: (request: ReceivedRequest, index: number) => ReturnType<typeof verdictFor>,
) {
  const server = await startChatServer(reply);
  servers.push(server);
  return server;
}

function fleet(
  store: string,
  cwd: string,
  count: number,
  judgeConcurrency = 4,
): JudgeWorkerProcess[] {
  const started = Array.from({ length: count }, (_, index) =>
    startJudgeWorker({ nats: nats.url, store, name: `j${index + 1}`, cwd, judgeConcurrency }),
  );
  workers.push(...started);
  return started;
}

async function withStore<T>(uri: string, read: (store: JudgeStore) => Promise<T>): Promise<T> {
  const store = await openJudgeStore(parseStoreUri(uri));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

/** Every stored verdict of the store's only evaluation run with this id. */
async function storedVerdicts(uri: string, evaluationRunId: string) {
  return withStore(uri, async (store) => ({
    run: await store.getEvaluationRun(evaluationRunId),
    verdicts: await store.verdicts(evaluationRunId, { limit: 100_000 }),
  }));
}

function judgeArgs(fixture: { cases: string; config: string }, store: string, ...extra: string[]) {
  return [
    'judge',
    fixture.cases,
    '--config',
    fixture.config,
    '--nats',
    nats.url,
    '--store',
    store,
    ...extra,
  ];
}

const runIdOf = (stderr: string): string => {
  const match = /as evaluation run (\S+)/.exec(stderr);
  if (!match) throw new Error(`no evaluation run id in: ${stderr}`);
  return match[1] as string;
};

describe('arena judge on a fleet of workers (NATS JetStream + PostgreSQL)', () => {
  it('three workers under a fleet-wide cap store the verdicts a one-process run writes, then judge them again from the cache alone', async () => {
    const server = await chatServer((request) => verdictFor(request, 20));
    const fixture = judgeFixture(server, 45);
    const single = await runArena([
      'judge',
      fixture.cases,
      '--config',
      fixture.config,
      '--out',
      path.join(fixture.folder, 'single.jsonl'),
    ]);
    expect(single.code, single.stderr).toBe(0);
    const calledAlone = server.requests.length;
    server.resetMaxInFlight();

    const store = await postgres.createDatabase('judge_fleet');
    const started = fleet(store, fixture.folder, 3, 4);
    const out = path.join(fixture.folder, 'fleet.jsonl');
    const run = await runArena(
      [...judgeArgs(fixture, store, '--wait', '--max-in-flight', '5', '--out', out)],
      {
        cwd: fixture.folder,
        env: { ...judgeFleetEnv },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // the same summary line as the one-process run, and the same verdicts (order aside)
    expect(run.stdout.split('\n')[0]).toBe(single.stdout.split('\n')[0]);
    const byCase = (lines: Record<string, unknown>[]) =>
      lines.map(verdictFacts).sort((a, b) => String(a.caseId).localeCompare(String(b.caseId)));
    const fleetLines = resultLines(readFileSync(out, 'utf8'));
    expect(byCase(fleetLines)).toEqual(
      byCase(resultLines(readFileSync(path.join(fixture.folder, 'single.jsonl'), 'utf8'))),
    );
    expect(fleetLines.every((line) => line.cached === false)).toBe(true);
    // the fleet-wide cap held across three workers of four slots each
    expect(server.maxInFlight()).toBeLessThanOrEqual(5);
    expect(server.requests.length - calledAlone).toBe(45);
    const first = await storedVerdicts(store, runIdOf(run.stderr));
    expect(first.run.status).toBe('succeeded');
    expect(new Set(first.verdicts.map((verdict) => verdict.caseKey)).size).toBe(45);
    expect(new Set(first.verdicts.map((verdict) => verdict.worker)).size).toBeGreaterThan(1);

    // the same cases again: every verdict from the cache, no provider call
    const called = server.requests.length;
    const again = await runArena([...judgeArgs(fixture, store, '--wait', '--out', out)], {
      cwd: fixture.folder,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests.length).toBe(called);
    expect(again.stderr).toContain('45 verdicts from the cache');
    const cachedLines = resultLines(readFileSync(out, 'utf8'));
    expect(cachedLines.every((line) => line.cached === true)).toBe(true);
    expect(byCase(cachedLines)).toEqual(byCase(fleetLines));

    // --no-cache calls the provider for every case again
    const fresh = await runArena(
      [...judgeArgs(fixture, store, '--wait', '--no-cache', '--out', out)],
      {
        cwd: fixture.folder,
      },
    );
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(server.requests.length).toBe(called + 45);
    await stopWorkers(started);
  });

  it('SIGKILLed workers at random moments, replaced each time: exactly one verdict per case, none lost', async () => {
    const server = await chatServer((request) => verdictFor(request, 60));
    const tally = { tried: 0, exactlyOnce: 0, lost: 0, kills: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ afterVerdicts: fc.integer({ min: 0, max: 35 }), worker: fc.nat(2) }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (kills) => {
          tally.tried++;
          const fixture = judgeFixture(server, 36);
          const store = await postgres.createDatabase(`judge_kills_${tally.tried}`);
          const crew = fleet(store, fixture.folder, 3, 3);
          const judging = spawnArena(judgeArgs(fixture, store, '--wait'), {
            cwd: fixture.folder,
            env: { ...judgeFleetEnv },
          });
          await waitUntil('the run is queued', () => /as evaluation run/.test(judging.stderr()));
          const evaluationRunId = runIdOf(judging.stderr());
          const count = () => withStore(store, (opened) => opened.verdictCount(evaluationRunId));
          for (const kill of [...kills].sort((a, b) => a.afterVerdicts - b.afterVerdicts)) {
            await waitUntil(
              `${kill.afterVerdicts} verdicts`,
              async () => (await count().catch(() => -1)) >= kill.afterVerdicts,
              {
                attempts: 1200,
                everyMs: 50,
              },
            );
            const victim = crew[kill.worker]!;
            if (victim.child.exitCode === null && victim.child.signalCode === null) {
              victim.child.kill('SIGKILL');
              await victim.exited;
              tally.kills++;
            }
            // a replacement takes the victim's place (and its cases, once their ack wait lapses)
            crew[kill.worker] = fleet(store, fixture.folder, 1, 3)[0]!;
          }
          const ended = await judging.exited;
          expect(ended.code, ended.stderr).toBe(0);
          const { run, verdicts } = await storedVerdicts(store, evaluationRunId);
          const keys = verdicts.map((verdict) => verdict.caseKey);
          const once = new Set(keys).size === keys.length && keys.length === 36;
          if (once) tally.exactlyOnce++;
          tally.lost += 36 - new Set(keys).size;
          expect(run.status).toBe('succeeded');
          expect(once).toBe(true);
          await stopWorkers(crew);
        },
      ),
      // JUDGE_FLEET_KILL_RUNS draws more schedules for a fault table (3 in the test suite)
      { numRuns: Number(process.env.JUDGE_FLEET_KILL_RUNS ?? 3) },
    );
    console.info(`judge fleet kill trials: ${JSON.stringify(tally)}`);
  }, 300_000);

  it('Ctrl-C on --wait cancels the evaluation run for the fleet: no verdict after the cancel, its queued cases dropped', async () => {
    const server = await chatServer((request) => verdictFor(request, 300));
    const fixture = judgeFixture(server, 40);
    const store = await postgres.createDatabase('judge_cancel');
    const crew = fleet(store, fixture.folder, 2, 2);
    const judging = spawnArena(judgeArgs(fixture, store, '--wait'), { cwd: fixture.folder });
    await waitUntil('the run is queued', () => /as evaluation run/.test(judging.stderr()));
    const evaluationRunId = runIdOf(judging.stderr());
    await waitUntil('a few verdicts', async () =>
      withStore(store, async (opened) => (await opened.verdictCount(evaluationRunId)) >= 3),
    );
    judging.child.kill('SIGINT');
    const ended = await judging.exited;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain(`evaluation run ${evaluationRunId} cancelled`);
    const atCancel = await storedVerdicts(store, evaluationRunId);
    expect(atCancel.run.status).toBe('cancelled');
    const requestsAtCancel = server.requests.length;
    // long enough for any judgement in flight to have answered: none becomes a verdict, no new case is taken
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const later = await storedVerdicts(store, evaluationRunId);
    expect(later.verdicts.length).toBe(atCancel.verdicts.length);
    expect(later.verdicts.length).toBeLessThan(40);
    expect(server.requests.length).toBe(requestsAtCancel);
    await stopWorkers(crew);
  });

  it('a 429 with retry-after pauses that model on every worker, and no judgement exceeds max_attempts', async () => {
    const arrivals: { at: number; caseId: string }[] = [];
    let pausedAt = 0;
    const server = await chatServer((request, index) => {
      arrivals.push({ at: Date.now(), caseId: caseOf(request) });
      // one 429, so one worker meets it: the others learn of the pause only through NATS
      if (index === 0) {
        pausedAt = Date.now();
        return { status: 429, headers: { 'retry-after': '2' } };
      }
      return verdictFor(request, 150);
    });
    // enough work for the whole pause: without a shared pause the other workers would go on calling
    // back-off max_ms 2000: a judge waits out a pause for at most that, so the whole retry-after
    const fixture = judgeFixture(server, 60, { maxAttempts: 3, backoffMs: 500 });
    const store = await postgres.createDatabase('judge_429');
    const crew = fleet(store, fixture.folder, 3, 2);
    const run = await runArena([...judgeArgs(fixture, store, '--wait', '--max-in-flight', '6')], {
      cwd: fixture.folder,
    });
    expect(run.code, run.stderr).toBe(0);
    // after the 429 (allowing half a second for the news to reach every worker) nobody called until retry-after ended
    const duringPause = arrivals.filter(
      (arrival) => arrival.at > pausedAt + 500 && arrival.at < pausedAt + 1900,
    );
    expect(duringPause).toEqual([]);
    const perCase = new Map<string, number>();
    for (const arrival of arrivals)
      perCase.set(arrival.caseId, (perCase.get(arrival.caseId) ?? 0) + 1);
    expect(Math.max(...perCase.values())).toBeLessThanOrEqual(3);
    const { verdicts } = await storedVerdicts(store, runIdOf(run.stderr));
    expect(verdicts).toHaveLength(60);
    expect(verdicts.every((verdict) => verdict.result.attemptCount <= 3)).toBe(true);
    expect(verdicts.every((verdict) => verdict.result.status !== 'error')).toBe(true);
    await stopWorkers(crew);
  });
});
