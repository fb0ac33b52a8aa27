import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { judgeFixture, resultLines, verdictFacts, verdictFor } from '../support/judgeFleet.js';

const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const byCase = (lines: Record<string, unknown>[]) =>
  lines.map(verdictFacts).sort((a, b) => String(a.caseId).localeCompare(String(b.caseId)));

describe('arena judge --store in one process', () => {
  it('records one verdict per case, and judges the same cases again from the persistent cache without a provider call', async () => {
    const server = await startChatServer((request) => verdictFor(request));
    servers.push(server);
    const fixture = judgeFixture(server, 12);
    const single = await runArena(['judge', fixture.cases, '--config', fixture.config]);
    expect(single.code, single.stderr).toBe(0);
    const store = `sqlite:${path.join(fixture.folder, 'verdicts.db')}`;
    const out = path.join(fixture.folder, 'stored.jsonl');
    const args = [
      'judge',
      fixture.cases,
      '--config',
      fixture.config,
      '--store',
      store,
      '--out',
      out,
    ];
    const calls = server.requests.length;
    const first = await runArena(args, { cwd: fixture.folder });
    expect(first.code, first.stderr).toBe(0);
    expect(server.requests.length - calls).toBe(12);
    expect(first.stdout.split('\n')[0]).toBe(
      single.stderr.split('\n').find((line) => line.startsWith('judged')),
    );
    const stored = resultLines(readFileSync(out, 'utf8'));
    expect(byCase(stored)).toEqual(byCase(resultLines(single.stdout)));
    expect(stored.every((line) => line.cached === false)).toBe(true);

    const again = await runArena(args, { cwd: fixture.folder });
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests.length - calls).toBe(12);
    expect(again.stderr).toContain('12 verdicts from the cache');
    const cached = resultLines(readFileSync(out, 'utf8'));
    expect(cached.every((line) => line.cached === true)).toBe(true);
    expect(byCase(cached)).toEqual(byCase(stored));

    const uncached = await runArena([...args, '--no-cache'], { cwd: fixture.folder });
    expect(uncached.code, uncached.stderr).toBe(0);
    expect(server.requests.length - calls).toBe(24);

    const judgeStore = await openJudgeStore(parseStoreUri(store));
    try {
      const ids = [...again.stderr.matchAll(/evaluation run (\S+):/g)].map((match) => match[1]!);
      const run = await judgeStore.getEvaluationRun(ids[0]!);
      expect(run).toMatchObject({ status: 'succeeded', casesTotal: 12, cache: true });
      expect(await judgeStore.verdictCount(run.evaluationRunId)).toBe(12);
      // the store never holds an API key or the model's text: only hashes and verdict fields
      expect(
        JSON.stringify(await judgeStore.verdicts(run.evaluationRunId, { limit: 100 })),
      ).not.toContain('ok-1');
    } finally {
      await judgeStore.close();
    }
  });

  it('refuses --nats without a store, and a bad config with --nats, before anything is queued (exit 2)', async () => {
    const fixture = judgeFixture({ baseURL: 'http://127.0.0.1:9/v1' }, 2);
    const noStore = await runArena(
      ['judge', fixture.cases, '--config', fixture.config, '--nats', 'nats://127.0.0.1:9'],
      {
        env: { ARENA_STORE: '' },
      },
    );
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toContain('--nats needs --store <uri> (or ARENA_STORE)');
    const badConfig = path.join(fixture.folder, 'bad.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      badConfig,
      readFileSync(fixture.config, 'utf8').replace('max_attempts: 2', 'max_attempts: 0'),
    );
    const bad = await runArena([
      'judge',
      fixture.cases,
      '--config',
      badConfig,
      '--nats',
      'nats://127.0.0.1:9',
      '--store',
      `sqlite:${path.join(fixture.folder, 'x.db')}`,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('judges.strict.max_attempts');
  });
});
