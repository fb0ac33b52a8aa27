import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { judgeFixture, verdictFor } from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';

// Cases refused before anything is judged or queued, the same in every mode: a case id given
// twice, and (with --nats) a case too large for the server's max_payload.
const maxPayload = 16 * 1024;
let nats: NatsServer;
let server: ChatServer;
beforeAll(async () => {
  [nats, server] = await Promise.all([
    startNatsServer({ maxPayload }),
    startChatServer((request) => verdictFor(request)),
  ]);
});
afterAll(async () => {
  await Promise.all([nats?.dispose(), server?.close()]);
});

/** A fixture of `count` cases whose line `line` (1-based) is replaced by `replace(line text)`. */
function fixtureWith(count: number, replace: Record<number, (lines: string[]) => string>) {
  const fixture = judgeFixture(server, count);
  const lines = readFileSync(fixture.cases, 'utf8').trimEnd().split('\n');
  for (const [line, make] of Object.entries(replace)) lines[Number(line) - 1] = make(lines);
  writeFileSync(fixture.cases, `${lines.join('\n')}\n`);
  return { ...fixture, store: path.join(fixture.folder, 'verdicts.db') };
}

/** Evaluation runs the SQLite store holds; 0 when it was never created. */
function evaluationRuns(file: string): number {
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare('SELECT count(*) AS runs FROM evaluation_runs').get() as {
      runs: number;
    };
    return row.runs;
  } finally {
    db.close();
  }
}

/** Messages on the judge stream (every case ever queued and not yet taken). */
async function queuedCases(): Promise<number> {
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info('ARENA_JUDGE').catch(() => null);
    return info?.state.messages ?? 0;
  } finally {
    await nc.close();
  }
}

/** Line 5 gives case-1's id again with other content: the same case would mean two things. */
const repeatedId = (lines: string[]) =>
  JSON.stringify({ ...JSON.parse(lines[4]!), case_id: 'case-1', candidate_output: 'other' });

describe('arena judge refuses a case id given twice', () => {
  it.each([
    ['in one process', [] as string[]],
    ['with --store', ['--store']],
    ['with --nats', ['--nats', '--store']],
  ])('%s: exit 2 naming both lines, before anything is judged or queued', async (_mode, flags) => {
    const fixture = fixtureWith(6, { 5: repeatedId });
    const before = server.requests.length;
    const queuedBefore = await queuedCases();
    const args = flags.flatMap((flag) =>
      flag === '--store' ? [flag, `sqlite:${fixture.store}`] : [flag, nats.url],
    );
    const run = await runArena(
      [
        'judge',
        fixture.cases,
        '--config',
        fixture.config,
        '--out',
        path.join(fixture.folder, 'out.jsonl'),
        ...args,
      ],
      { cwd: fixture.folder },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `${fixture.cases}:5: case id "case-1" is given again (first on line 2)`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests.length).toBe(before);
    expect(evaluationRuns(fixture.store)).toBe(0);
    expect(await queuedCases()).toBe(queuedBefore);
  });
});

describe('arena judge --nats refuses a case whose name is larger than the server takes', () => {
  it('names its line and the limit, exit 2, queues nothing and creates no evaluation run', async () => {
    const longId = `case-2-${'x'.repeat(maxPayload / 2)}`;
    const fixture = fixtureWith(5, {
      3: (lines) => JSON.stringify({ ...JSON.parse(lines[2]!), case_id: longId }),
    });
    const before = await queuedCases();
    const run = await runArena(
      [
        'judge',
        fixture.cases,
        '--config',
        fixture.config,
        '--nats',
        nats.url,
        '--store',
        `sqlite:${fixture.store}`,
      ],
      { cwd: fixture.folder },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `${fixture.cases.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: case id "${longId}" needs a queue message of \\d+ bytes, more than the NATS server's max_payload of ${maxPayload} bytes`,
      ),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(evaluationRuns(fixture.store)).toBe(0);
    expect(await queuedCases()).toBe(before);
  });

  it('queues a case whose texts are larger than the limit: only its name travels', async () => {
    const fixture = fixtureWith(2, {
      2: (lines) =>
        JSON.stringify({
          ...JSON.parse(lines[1]!),
          candidate_output: 'x'.repeat(maxPayload * 2),
        }),
    });
    const run = await runArena(
      [
        'judge',
        fixture.cases,
        '--config',
        fixture.config,
        '--nats',
        nats.url,
        '--store',
        `sqlite:${fixture.store}`,
      ],
      { cwd: fixture.folder },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(evaluationRuns(fixture.store)).toBe(1);
  });
});
