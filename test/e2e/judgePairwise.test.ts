import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { repoRoot, runArena } from '../support/cli.js';
import {
  type JudgeWorkerProcess,
  judgeFleetEnv,
  resultLines,
  startJudgeWorker,
  stopWorkers,
} from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll } from '../support/queueFleet.js';

// The shipped pairwise example (3 systems, 4 cases, 24 recorded answers), as a user runs it.
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function exampleFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'arena-pairwise-'));
  folders.push(folder);
  cpSync(path.join(repoRoot, 'examples'), path.join(folder, 'examples'), { recursive: true });
  return folder;
}

const CASES = 'examples/judge/pairwise-cases.jsonl';
const CONFIG = 'examples/judge/pairwise.yaml';

/** What a result says of its case, pair, order and answer. */
function facts(line: Record<string, unknown>) {
  const pair = line.pair as { first: string; second: string; winner: string; systems: string[] };
  return `${line.caseId} ${pair.first}>${pair.second} ${pair.winner} [${pair.systems.join(',')}]`;
}

describe('arena judge with a pairwise judge', () => {
  it('judges every order of every pair in one process, naming case, pair and order, with camelCase JSON', async () => {
    const folder = exampleFolder();
    const out = path.join(folder, 'results.jsonl');
    const run = await runArena(
      ['judge', CASES, '--config', CONFIG, '--out', out, '--concurrency', '3'],
      {
        cwd: folder,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').slice(0, 4)).toEqual([
      'judged 4 cases in 24 judgements with prefer (pairwise): answered 24, error 0',
      'tokens 6480 (in 5760, out 720), cost unknown (no prices configured)',
      'pairwise: 4 cases, 12 pairs judged in both orders, 0 pairs in error',
      'position consistency 0.75 (9 of 12 pairs), first-slot rate 0.6364 (14 of 22 non-tie answers chose first; 0.5 is unbiased)',
    ]);
    const lines = resultLines(readFileSync(out, 'utf8'));
    expect(lines).toHaveLength(24);
    expect(new Set(lines.map(facts)).size).toBe(24);
    expect(lines.map(facts)).toContain('arith beta>alpha first [alpha,beta]');

    const json = await runArena(['judge', CASES, '--config', CONFIG, '--json', '--out', out], {
      cwd: folder,
    });
    const summary = JSON.parse(json.stdout) as { pairwise: Record<string, unknown> };
    expect(Object.keys(summary.pairwise)).toEqual([
      'cases',
      'pairs',
      'errorPairs',
      'unmatched',
      'positionConsistency',
      'firstSlotRate',
      'answers',
      'byPair',
      'ratings',
      'ratingsRegularized',
      'resamples',
      'seed',
    ]);
    expect(summary.pairwise.positionConsistency).toBe(0.75);
    expect((summary.pairwise.ratings as { system: string }[]).map((entry) => entry.system)).toEqual(
      ['alpha', 'beta', 'gamma'],
    );
  });

  it('fails the min_win_rate gate on the interval, not the point estimate (exit 1)', async () => {
    const folder = exampleFolder();
    const config = path.join(folder, CONFIG);
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        'min_win_rate: { system: alpha, against: gamma, value: 0.5 }',
        'min_win_rate: { system: beta, against: gamma, value: 0.5 }',
      ),
    );
    const run = await runArena(['judge', CASES, '--config', CONFIG], { cwd: folder });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'gates: FAILED: win rate of beta over gamma 0.625 [0.25, 1]: its lower bound 0.25 is below min_win_rate 0.5',
    );
  });

  it('refuses bad candidates with exit 2, naming the file, line and field', async () => {
    const folder = exampleFolder();
    writeFileSync(
      path.join(folder, 'bad.jsonl'),
      [
        '{"case_id":"ok","input":"q","candidates":{"alpha":"1","beta":"2"}}',
        '{"case_id":"twice","input":"q","candidates":{"alpha":"1","alpha":"2"}}',
        '{"case_id":"single","input":"q","candidate_output":"1"}',
        '{"case_id":"one","input":"q","candidates":{"alpha":"1"}}',
        '{"case_id":"number","input":"q","candidates":{"alpha":"1","beta":2}}',
      ].join('\n'),
    );
    const run = await runArena(['judge', 'bad.jsonl', '--config', CONFIG], { cwd: folder });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'arena: bad.jsonl:2: candidates.alpha: system "alpha" is named twice',
    );
    expect(run.stderr).toContain(
      'arena: bad.jsonl:3: candidates: missing: a pairwise judge needs candidates',
    );
    expect(run.stderr).toContain(
      'arena: bad.jsonl:4: candidates: expected two or more systems, got 1',
    );
    expect(run.stderr).toContain(
      "arena: bad.jsonl:5: candidates.beta: expected the system's output as a string, got a number",
    );
  });

  it('with --store, judges again from the verdict cache alone, each order its own entry', async () => {
    const folder = exampleFolder();
    const store = `sqlite:${path.join(folder, 'verdicts.db')}`;
    const first = path.join(folder, 'first.jsonl');
    const again = path.join(folder, 'again.jsonl');
    const one = await runArena(
      ['judge', CASES, '--config', CONFIG, '--store', store, '--out', first],
      {
        cwd: folder,
      },
    );
    expect(one.code, one.stderr).toBe(0);
    expect(one.stderr).toContain(': 0 verdicts from the cache');
    const two = await runArena(
      ['judge', CASES, '--config', CONFIG, '--store', store, '--out', again],
      {
        cwd: folder,
      },
    );
    expect(two.code, two.stderr).toBe(0);
    expect(two.stderr).toContain(': 24 verdicts from the cache');
    const firstLines = resultLines(readFileSync(first, 'utf8'));
    const cachedLines = resultLines(readFileSync(again, 'utf8'));
    expect(cachedLines.every((line) => line.cached === true)).toBe(true);
    // an inconsistent pair answers "first" in both orders: one cache entry for both would lose that
    expect(cachedLines.map(facts).sort()).toEqual(firstLines.map(facts).sort());
    expect(two.stdout).toBe(one.stdout);
    const opened = await openJudgeStore(parseStoreUri(store));
    try {
      const runId = /evaluation run (\S+):/.exec(two.stderr)?.[1] ?? '';
      const verdicts = await opened.verdicts(runId, { limit: 100 });
      expect(new Set(verdicts.map((verdict) => verdict.caseKey)).size).toBe(24);
    } finally {
      await opened.close();
    }
  });
});

describe('arena judge --nats with a pairwise judge', () => {
  let nats: NatsServer;
  const workers: JudgeWorkerProcess[] = [];
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await killAll(workers);
    await nats?.dispose();
  });

  it('judges every order of every pair exactly once on two workers, and folds them as one process does', async () => {
    const folder = exampleFolder();
    const store = `sqlite:${path.join(folder, 'fleet.db')}`;
    const started = [1, 2].map((index) =>
      startJudgeWorker({
        nats: nats.url,
        store,
        name: `p${index}`,
        cwd: folder,
        judgeConcurrency: 2,
      }),
    );
    workers.push(...started);
    const out = path.join(folder, 'fleet.jsonl');
    const run = await runArena(
      [
        'judge',
        CASES,
        '--config',
        CONFIG,
        '--nats',
        nats.url,
        '--store',
        store,
        '--wait',
        '--out',
        out,
      ],
      { cwd: folder, env: { ...judgeFleetEnv } },
    );
    expect(run.code, run.stderr).toBe(0);
    // what was queued, counted as what it is: each order of each pair one judgement
    expect(run.stderr).toContain(
      'queued 24 judgements (4 cases, every pair of systems in both orders) as evaluation run prefer-',
    );
    const alone = await runArena(
      ['judge', CASES, '--config', CONFIG, '--out', path.join(folder, 'alone.jsonl')],
      {
        cwd: folder,
      },
    );
    // the same figures; only a stored run can say whether its judge is calibrated
    expect(run.stdout).toMatch(/^uncalibrated: prefer@[0-9a-f]{12}$/m);
    expect(run.stdout.replace(/^uncalibrated: .*\n/m, '')).toBe(alone.stdout);
    const lines = resultLines(readFileSync(out, 'utf8'));
    expect(lines).toHaveLength(24);
    expect(new Set(lines.map(facts)).size).toBe(24);
    await stopWorkers(started);
  });
});
