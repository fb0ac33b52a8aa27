import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena, startProcess } from '../support/cli.js';
import { hangGuard } from '../support/hangGuard.js';
import { waitUntil } from '../support/queueFleet.js';
import { scratchFolder } from '../support/scratch.js';
import { sequentialOf, servedSequentialConfig, sumVerdict } from '../support/servedSums.js';

const example = (file: string) => path.join(repoRoot, 'examples/judge', file);
const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/**
 * A real model server that answers the first `allowed` requests and leaves
 * the rest hanging: a process judging against it stops with exactly that
 * many verdicts, whatever the machine's load, until `allowed` is raised.
 */
async function gatedServer() {
  const gate = { allowed: Number.POSITIVE_INFINITY, answered: 0 };
  const server = await startChatServer((request) => {
    if (gate.answered >= gate.allowed) return { delayMs: 600_000, content: '{}' };
    gate.answered++;
    return { content: sumVerdict(request).content };
  });
  servers.push(server);
  return { server, gate };
}

function verdictCount(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT COUNT(*) AS count FROM verdicts').get() as { count: number };
    return row.count;
  } finally {
    db.close();
  }
}

describe('arena judge --store with gates.sequential, killed and resumed', () => {
  it('a run killed (SIGKILL) at random points and resumed with --resume reaches the decision, at the case and with the wealth, of one that never stopped', async () => {
    const { server, gate } = await gatedServer();
    const folder = scratchFolder('arena-sequential-resume-');
    const config = servedSequentialConfig(folder, server.baseURL, 0.9);
    const judgeArgs = (store: string, ...extra: string[]) => [
      'judge',
      example('sums.jsonl'),
      '--config',
      config,
      '--store',
      `sqlite:${store}`,
      '--seed',
      '5',
      '--concurrency',
      '4',
      '--json',
      '--out',
      path.join(folder, 'results.jsonl'),
      ...extra,
    ];
    const whole = await runArena(judgeArgs(path.join(folder, 'whole.db')), { cwd: folder });
    expect(whole.stderr).toMatch(
      /^evaluation run (\S+): 1000 cases drawn with seed 5 \(resume with --resume \1\)\n/,
    );
    const uninterrupted = sequentialOf(whole.stdout);
    expect(uninterrupted.decidedAt).toBeGreaterThan(20);
    expect(uninterrupted.seed).toBe(5);

    const killPoints = fc.sample(fc.integer({ min: 1, max: uninterrupted.decidedAt - 4 }), {
      numRuns: 3,
    });
    for (const [trial, killAfter] of killPoints.entries()) {
      const store = path.join(folder, `killed-${trial}.db`);
      gate.answered = 0;
      gate.allowed = killAfter;
      const running = startProcess(
        process.execPath,
        [path.join(repoRoot, 'cli/bin/arena.js'), ...judgeArgs(store)],
        { cwd: folder, env: { ...process.env, NO_COLOR: '1' }, timeoutMs: hangGuard(55_000) },
      );
      await waitUntil(`${killAfter} verdicts stored`, () => verdictCount(store) >= killAfter);
      running.child.kill('SIGKILL');
      const killed = await running.exited;
      expect(killed.signal, `killed after ${killAfter} verdicts`).toBe('SIGKILL');
      const runId = /evaluation run (\S+):/.exec(killed.stderr)![1]!;
      gate.allowed = Number.POSITIVE_INFINITY;
      const resumed = await runArena([...judgeArgs(store, '--resume', runId)], { cwd: folder });
      expect(resumed.stderr, `killed after ${killAfter} verdicts`).toMatch(
        new RegExp(
          `^evaluation run ${runId}: resumed after case \\d+ of 1000 in draw order \\(seed 5\\)\n`,
        ),
      );
      const after = sequentialOf(resumed.stdout);
      expect(
        { decision: after.decision, decidedAt: after.decidedAt, wealth: after.wealth },
        `killed after ${killAfter} verdicts`,
      ).toEqual({
        decision: uninterrupted.decision,
        decidedAt: uninterrupted.decidedAt,
        wealth: uninterrupted.wealth,
      });
      expect(after.judged).toBeGreaterThanOrEqual(after.decidedAt);
      expect(resumed.code).toBe(uninterrupted.decision === 'pass' ? 0 : 1);

      // a decided run is not judged further: its resume makes no request
      const requests = server.requests.length;
      const again = await runArena([...judgeArgs(store, '--resume', runId)], { cwd: folder });
      expect(sequentialOf(again.stdout)).toEqual(after);
      expect(again.stderr).toContain(
        `evaluation run ${runId}: decided at case ${after.decidedAt} of 1000 in draw order (seed 5): nothing more is judged`,
      );
      expect(server.requests.length).toBe(requests);
    }
  });

  it('refuses a resume of another file, seed or run, and --resume without a store or a sequential gate, exit 2', async () => {
    const folder = scratchFolder('arena-sequential-resume-');
    const store = `sqlite:${path.join(folder, 'store.db')}`;
    const first = await runArena([
      'judge',
      example('sums.jsonl'),
      '--config',
      example('sequential.yaml'),
      '--store',
      store,
      '--out',
      path.join(folder, 'results.jsonl'),
    ]);
    expect(first.code).toBe(0);
    const runId = /evaluation run (\S+):/.exec(first.stderr)![1]!;
    const resume = (cases: string, config: string, ...extra: string[]) =>
      runArena(['judge', example(cases), '--config', example(config), ...extra]);
    const refusals = [
      [
        await resume('cases.jsonl', 'sequential.yaml', '--store', store, '--resume', runId),
        `arena: --resume ${runId}: it judged ${example('sums.jsonl')} as it was then, and ${example('cases.jsonl')} is not that file\n`,
      ],
      [
        await resume(
          'sums.jsonl',
          'sequential.yaml',
          '--store',
          store,
          '--resume',
          runId,
          '--seed',
          '3',
        ),
        `arena: --resume ${runId}: it draws with seed 239030065, not --seed 3\n`,
      ],
      [
        await resume('sums.jsonl', 'sequential.yaml', '--store', store, '--resume', 'nope'),
        `arena: --resume nope: no evaluation run 'nope' in ${path.join(folder, 'store.db')}\n`,
      ],
      [
        await resume('sums.jsonl', 'sequential.yaml', '--resume', runId),
        `arena: --resume ${runId} continues a stored evaluation run: give the store it is in (--store <uri>)\n`,
      ],
      [
        await resume('sums.jsonl', 'replay.yaml', '--store', store, '--resume', runId),
        `arena: --resume continues an evaluation run of gates.sequential, and ${example('replay.yaml')} has no gates.sequential\n`,
      ],
    ] as const;
    for (const [run, message] of refusals) {
      expect({ code: run.code, stderr: run.stderr.replace(/^evaluation run .*\n/, '') }).toEqual({
        code: 2,
        stderr: message,
      });
    }
  });
});
