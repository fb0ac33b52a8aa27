import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { judgeFixture, resultLines, spawnArena, verdictFor } from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import {
  fleetEnv,
  queueExperiment,
  spawnWorker,
  submit,
  waitUntil,
} from '../support/queueFleet.js';

// One process against a PostgreSQL store that restarts under it, and a store that never comes back.
let postgres: TestPostgres;
let nats: NatsServer;
let chat: ChatServer;
beforeAll(async () => {
  [postgres, nats, chat] = await Promise.all([
    startTestPostgres({ crashSafe: true }),
    startNatsServer(),
    startChatServer((request) => verdictFor(request, 10)),
  ]);
});
afterAll(async () => {
  await Promise.all([postgres?.stop(), nats?.dispose(), chat?.close()]);
});

describe('a PostgreSQL store that restarts', () => {
  it('one-process arena judge --store postgres:// through a crash and a stop finishes with one verdict per case and its --out', async () => {
    const cases = 300;
    const fixture = judgeFixture(chat, cases);
    const store = await postgres.createDatabase('one_process');
    const out = path.join(fixture.folder, 'out.jsonl');
    const judging = spawnArena(
      ['judge', fixture.cases, '--config', fixture.config, '--store', store, '--out', out],
      { cwd: fixture.folder },
    );
    // the server goes away twice while cases are judged: a crash, then a stop of a second
    await waitUntil('a few requests', () => chat.requests.length >= 40, {
      everyMs: 10,
      attempts: 3000,
    });
    await postgres.restart({ mode: 'immediate' });
    await waitUntil('more requests', () => chat.requests.length >= 150, {
      everyMs: 10,
      attempts: 3000,
    });
    await postgres.restart({ mode: 'fast', downMs: 1000 });
    const ended = await judging.exited;
    expect(ended.code, ended.stderr).toBe(0);
    const lines = resultLines(readFileSync(out, 'utf8'));
    expect(lines).toHaveLength(cases);
    expect(new Set(lines.map((line) => line.caseId)).size).toBe(cases);
    const runId = /evaluation run ([^\s:]+)/.exec(ended.stderr)?.[1] as string;
    const opened = await openJudgeStore(parseStoreUri(store));
    try {
      expect((await opened.getEvaluationRun(runId)).status).toBe('succeeded');
      expect(await opened.verdictCount(runId)).toBe(cases);
    } finally {
      await opened.close();
    }
  });

  it('arena submit --wait through a crash of the store follows the run to its end and exits 0', async () => {
    const experiment = queueExperiment(2);
    const store = await postgres.createDatabase('submit_wait');
    const worker = spawnWorker(['--nats', nats.url, '--store', store, '--name', 'steady'], {
      cwd: experiment.folder,
      env: fleetEnv,
    });
    try {
      const waiting = spawnArena(
        ['submit', experiment.runFile, '--nats', nats.url, '--store', store, '--wait'],
        { cwd: experiment.folder, env: fleetEnv },
      );
      await waitUntil('the run is taken', () => /taken/.test(worker.stderr()));
      await postgres.restart({ mode: 'immediate', downMs: 1000 });
      const ended = await waiting.exited;
      expect(ended.code, ended.stderr).toBe(0);
      expect(worker.child.exitCode, worker.stderr()).toBe(null);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('a run worker whose store stays away past ARENA_SERVER_PATIENCE_MS exits 3 with one line, leaving its run running', async () => {
    const experiment = queueExperiment(20);
    const store = await postgres.createDatabase('past_patience');
    const submitted = await submit(experiment.runFile, {
      nats: nats.url,
      store,
      cwd: experiment.folder,
    });
    expect(submitted.code, submitted.stderr).toBe(0);
    const worker = spawnWorker(['--nats', nats.url, '--store', store, '--name', 'impatient'], {
      cwd: experiment.folder,
      env: { ...fleetEnv, ARENA_SERVER_PATIENCE_MS: '2000' },
    });
    await waitUntil('the run is taken', () => /taken/.test(worker.stderr()));
    // taken is claimed before the run starts: stop the server only once the store holds it running
    await waitUntil('the run is running', async () => {
      const listed = await runArena(['runs', '--store', store, '--json'], {
        cwd: experiment.folder,
      });
      return listed.stdout.includes('"running"');
    });
    // the server is stopped for longer than the worker's patience (2 s in this test)
    const down = postgres.restart({ mode: 'fast', downMs: 8000 });
    const exit = await worker.exited;
    await down;
    expect(exit.code, worker.stderr()).toBe(3);
    const errorLines = worker
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('arena:'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(
      /ServerUnavailableError: the run store did not come back within 2 s/,
    );
    const listed = await runArena(['runs', '--store', store, '--json'], { cwd: experiment.folder });
    // the worker that ran it is gone: the run waits for a resume
    expect((JSON.parse(listed.stdout) as { status: string }[]).map((run) => run.status)).toEqual([
      'interrupted',
    ]);
  });
});
