import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { judgeFixture, judgeFleetEnv, resultLines, verdictFor } from '../support/judgeFleet.js';
import { moduleLog } from '../support/moduleLog.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll, spawnWorker, type WorkerProcess, waitUntil } from '../support/queueFleet.js';

let nats: NatsServer;
let server: ChatServer;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  [nats, server] = await Promise.all([startNatsServer(), startChatServer(verdictFor)]);
});
afterAll(async () => {
  await killAll(workers);
  await Promise.all([server?.close(), nats?.dispose()]);
});

describe('arena worker --judge-only', () => {
  it('judges every case of a fleet run once, taking no runs, and starts without loading the run side, zod or the model client', async () => {
    const fixture = judgeFixture(server, 24);
    const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
    const log = moduleLog(fixture.folder, 'worker');
    const worker = spawnWorker(
      [
        '--nats',
        nats.url,
        '--store',
        store,
        '--name',
        'j1',
        '--judge-only',
        '--judge-concurrency',
        '4',
      ],
      { cwd: fixture.folder, env: { ...judgeFleetEnv, ...log.env } },
    );
    workers.push(worker);
    await waitUntil('the worker takes judge jobs', () =>
      worker.stderr().includes('taking judge jobs'),
    );
    expect(worker.stderr()).not.toContain('taking runs');
    // what it loaded until now is its start-up (nothing is queued yet): the judging loop, not runs,
    // nor what judging a case loads when one comes (zod for its judge config, the model client);
    // of the run side only --max-deliveries' default, for the help
    const started = log.loaded();
    expect(started).toMatch(/src\/actors\/judging\/judgeWorker\.ts/);
    expect(started).not.toMatch(
      /node_modules\/(?:zod|openai|xstate)\/|src\/actors\/experiment\/(?!queue\/maxDeliveries\.ts)|src\/ports\/store\/(?:core\/runStoreCore|sqlite\/sqliteStore)\.ts/,
    );
    const out = path.join(fixture.folder, 'out.jsonl');
    const judged = await runArena(
      [
        ...['judge', fixture.cases, '--config', fixture.config, '--wait', '--out', out],
        ...['--nats', nats.url, '--store', store],
      ],
      { cwd: fixture.folder, env: judgeFleetEnv },
    );
    expect(judged.code, judged.stderr).toBe(0);
    const caseIds = resultLines(readFileSync(out, 'utf8')).map((result) => result.caseId);
    expect(caseIds).toHaveLength(24);
    expect(new Set(caseIds).size).toBe(24);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    expect(worker.stderr()).toMatch(
      /stopped \(judged 24, from the cache 0, duplicates 0, handed back 0\)/,
    );
  });

  it('refuses --judge-concurrency 0, which would take nothing, exit 2', async () => {
    const fixture = judgeFixture(server, 1);
    const worker = spawnWorker(
      [
        '--nats',
        nats.url,
        '--store',
        `sqlite:${path.join(fixture.folder, 'v.db')}`,
        '--judge-only',
        '--judge-concurrency',
        '0',
      ],
      { cwd: fixture.folder, env: judgeFleetEnv },
    );
    workers.push(worker);
    expect((await worker.exited).code).toBe(2);
    expect(worker.stderr()).toContain('--judge-only needs --judge-concurrency >= 1');
  });
});
