import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';
import {
  editedSequentialConfig,
  sequentialOf,
  servedSequentialConfig,
  sumVerdict,
} from '../support/servedSums.js';

const example = (file: string) => path.join(repoRoot, 'examples/judge', file);
const servers: ChatServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** The shipped sequential.yaml, edited, in a scratch folder beside a copy of its replay file. */
const editedConfig = (edit: (yaml: string) => string): string =>
  editedSequentialConfig(scratchFolder('arena-sequential-'), edit);

describe('arena judge with gates.sequential', () => {
  it('stops judging once min_pass_rate is settled, and says after how many cases', async () => {
    const out = path.join(scratchFolder('arena-sequential-'), 'results.jsonl');
    const run = await runArena([
      'judge',
      example('sums.jsonl'),
      '--config',
      example('sequential.yaml'),
      '--out',
      out,
      '--seed',
      '7',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const gateLine = run.stdout.split('\n').find((line) => line.startsWith('gate min_pass_rate'));
    expect(gateLine).toMatch(
      /^gate min_pass_rate 0\.8: PASS after (\d+) of 1000 cases \(wealth [\d.]+ >= 1\/alpha 20\); pass rate 0\.\d+, 95% confidence sequence 0\.\d+-(0\.\d+|1)$/,
    );
    const decidedAt = Number(/PASS after (\d+)/.exec(gateLine!)![1]);
    expect(decidedAt).toBeLessThan(400);
    const results = readFileSync(out, 'utf8').trim().split('\n');
    // every judgement made is written, folded or not; none is started far past the decision
    expect(results.length).toBeGreaterThanOrEqual(decidedAt);
    expect(results.length).toBeLessThanOrEqual(decidedAt + 4 * 8);
    expect(run.stdout).toContain(`judged ${results.length} cases with strict`);
    expect(run.stdout).toContain('gates: pass');
  });

  it('fails a gate the file cannot reach, exit 1, and the same seed reaches the same decision at the same case', async () => {
    const config = editedConfig((yaml) =>
      yaml.replace('min_pass_rate: 0.8', 'min_pass_rate: 0.97'),
    );
    const judge = (concurrency: string) =>
      runArena([
        'judge',
        example('sums.jsonl'),
        '--config',
        config,
        '--json',
        '--out',
        path.join(scratchFolder('arena-sequential-'), 'results.jsonl'),
        '--seed',
        '11',
        '--concurrency',
        concurrency,
      ]);
    const [many, one] = [await judge('16'), await judge('1')];
    expect(many.code).toBe(1);
    const sequential = sequentialOf(many.stdout);
    expect(sequential).toMatchObject({ decision: 'fail', total: 1000, seed: 11 });
    expect(sequential.wealth).toBeGreaterThanOrEqual(20);
    expect(sequential.judged).toBeGreaterThanOrEqual(sequential.decidedAt);
    expect(sequential.confidenceSequence[1]).toBeLessThan(0.97 + 0.03);
    expect(JSON.parse(many.stdout.trim()).failedGates).toEqual([
      `min_pass_rate 0.97 failed by the sequential gate after ${sequential.decidedAt} of 1000 cases`,
    ]);
    expect(one.code).toBe(1);
    expect(sequentialOf(one.stdout).decidedAt).toBe(sequential.decidedAt);
  });

  it('folds in draw order: failures answered slowly by a real server change neither the decision nor the case it is reached at', async () => {
    // the candidate is wrong when it differs from the expected answer: such verdicts come late
    const server = await startChatServer((request) => {
      const { passed, content } = sumVerdict(request);
      return { delayMs: passed ? 0 : 30, content };
    });
    servers.push(server);
    const config = servedSequentialConfig(scratchFolder('arena-sequential-'), server.baseURL, 0.9);
    const judge = (concurrency: string) =>
      runArena([
        'judge',
        example('sums.jsonl'),
        '--config',
        config,
        '--json',
        '--out',
        path.join(scratchFolder('arena-sequential-'), 'results.jsonl'),
        '--seed',
        '3',
        '--concurrency',
        concurrency,
      ]);
    const many = await judge('24');
    const one = await judge('1');
    expect(many.stderr).toBe('');
    const [fast, slow] = [sequentialOf(many.stdout), sequentialOf(one.stdout)];
    expect([fast.decision, fast.decidedAt]).toEqual([slow.decision, slow.decidedAt]);
    expect(fast.judged).toBeLessThanOrEqual(fast.decidedAt + 4 * 24);
  });

  it('refuses --trials, exit 2, before judging anything', async () => {
    const run = await runArena([
      'judge',
      example('sums.jsonl'),
      '--config',
      example('sequential.yaml'),
      '--trials',
      '3',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `arena: ${example('sequential.yaml')}: gates.sequential folds one verdict a case: it does not go with --trials yet\n`,
    );
    expect(run.stdout).toBe('');
  });

  it('refuses a sequential score gate without a declared score range, exit 2, naming the YAML path', async () => {
    const config = editedConfig((yaml) =>
      yaml
        .replace('    score_range: [0, 1]\n', '')
        .replace('min_pass_rate: 0.8', 'min_mean_score: 0.8'),
    );
    const run = await runArena(['judge', example('sums.jsonl'), '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `arena: JudgeConfigurationError: ${config}: gates.min_mean_score: a sequential score gate needs the scores' range: declare judges.strict.score_range: [lo, hi]\n`,
    );
    expect(run.stdout).toBe('');
  });

  it('refuses --seed without gates.sequential and a seed that is not a 32-bit integer, exit 2', async () => {
    const without = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      '--seed',
      '4',
    ]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--seed orders the cases for gates.sequential');
    const bad = await runArena([
      'judge',
      example('sums.jsonl'),
      '--config',
      example('sequential.yaml'),
      '--seed',
      '-1',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("arena: --seed must be an integer from 0 to 4294967295, got '-1'\n");
  });
});
