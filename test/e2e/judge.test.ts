import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import { judgeStdout } from '../support/judgeOutput.js';
import { scratchFolder } from '../support/scratch.js';

const example = (file: string) => path.join(repoRoot, 'examples/judge', file);
const scratch = () => scratchFolder('arena-judge-');

/** Judge the shipped cases with a shipped config, results to a scratch file. */
async function judgeExample(config: string) {
  const out = path.join(scratch(), 'results.jsonl');
  const run = await runArena([
    'judge',
    example('cases.jsonl'),
    '--config',
    example(config),
    '--out',
    out,
  ]);
  return { run, out };
}

describe('arena judge', () => {
  it('judges the shipped example offline with the replay provider and passes its gates', async () => {
    const { run, out } = await judgeExample('replay.yaml');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'judged 4 cases with strict: passed 2, failed 1, skipped 1, error 0',
    );
    expect(run.stdout).toContain('gates: pass');
    const results = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(results.map((result) => result.caseId).sort()).toEqual([
      'arith-1',
      'arith-2',
      'capital-1',
      'injection-1',
    ]);
    expect(JSON.stringify(results)).not.toContain('7 * 6 is 42');
  });

  it('prints results as JSON lines and then the JSON summary on stdout, leaving stderr to logs', async () => {
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const { results, summary: report } = judgeStdout(run.stdout);
    expect(results.map((result) => result.caseId).sort()).toEqual([
      'arith-1',
      'arith-2',
      'capital-1',
      'injection-1',
    ]);
    expect(report.summary.byStatus).toEqual({ passed: 2, failed: 1, skipped: 1, error: 0 });
    expect(report.failedGates).toEqual([]);
  });

  it('reports a malformed case line with its number, judges the others, and exits 2', async () => {
    const dir = scratch();
    const lines = readFileSync(example('cases.jsonl'), 'utf8').trim().split('\n');
    const cases = path.join(dir, 'cases.jsonl');
    writeFileSync(
      cases,
      [lines[0], '{"case_id": "broken"', lines[1], '{"case_id":"x"}'].join('\n'),
    );
    const out = path.join(dir, 'results.jsonl');
    const run = await runArena(['judge', cases, '--config', example('replay.yaml'), '--out', out]);
    expect(run.code).toBe(2);
    // file:line, as every line arena names in a file
    expect(run.stderr).toContain(`arena: ${cases}:2: not valid JSON\n`);
    expect(run.stderr).toContain(`arena: ${cases}:4: input: `);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('exits 1 when a gate fails', async () => {
    const dir = scratch();
    const config = readFileSync(example('replay.yaml'), 'utf8')
      .replace('min_pass_rate: 0.5', 'min_pass_rate: 0.9')
      .replace('replay_file: replay.jsonl', `replay_file: ${example('replay.jsonl')}`);
    writeFileSync(path.join(dir, 'strict.yaml'), config);
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      path.join(dir, 'strict.yaml'),
      '--out',
      path.join(dir, 'results.jsonl'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('gates: FAILED: pass rate 0.6667 is below min_pass_rate 0.9');
  });

  it('exits 2 with the YAML path of a bad config', async () => {
    const dir = scratch();
    const config = readFileSync(example('replay.yaml'), 'utf8').replace(
      'max_attempts: 2',
      'max_attempts: 0',
    );
    writeFileSync(path.join(dir, 'bad.yaml'), config);
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      path.join(dir, 'bad.yaml'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('judges.strict.max_attempts');
  });

  it('exits 2 naming timeout_seconds when a timer cannot hold it', async () => {
    const dir = scratch();
    const config = readFileSync(example('replay.yaml'), 'utf8').replace(
      'timeout_seconds: 30',
      'timeout_seconds: 3000000',
    );
    writeFileSync(path.join(dir, 'bad.yaml'), config);
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      path.join(dir, 'bad.yaml'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'judges.strict.timeout_seconds: expected at most 2147483.647 seconds (the longest a timer can wait, about 24.8 days), got number 3000000',
    );
    expect(run.stderr).not.toContain('TimeoutOverflowWarning');
  });

  it('judges through a local OpenAI-compatible server with the key, price table and retries of the config', async () => {
    const verdict = JSON.stringify({
      status: 'passed',
      score: 1,
      label: 'correct',
      explanation: null,
      evidence: [],
    });
    const server = await startChatServer((_, index) =>
      index === 0
        ? { status: 500 }
        : {
            content: verdict,
            usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 },
          },
    );
    try {
      const dir = scratch();
      const config = readFileSync(example('local.yaml'), 'utf8')
        .replace('base_url: http://localhost:11434/v1', `base_url: ${server.baseURL}`)
        .replace('# api_key_env: OPENAI_API_KEY', 'api_key_env: ARENA_E2E_KEY')
        .replace(
          'llama3.1:8b: { input_per_million: 0, output_per_million: 0 }',
          'llama3.1:8b: { input_per_million: 1, output_per_million: 10 }',
        );
      writeFileSync(path.join(dir, 'local.yaml'), config);
      const args = [
        'judge',
        example('cases.jsonl'),
        '--config',
        path.join(dir, 'local.yaml'),
        '--concurrency',
        '1',
      ];
      const missingKey = await runArena(args, { env: { ARENA_E2E_KEY: '' } });
      expect(missingKey.code).toBe(2);
      expect(missingKey.stderr).toContain('api_key_env names ARENA_E2E_KEY, which is not set');
      const run = await runArena([...args, '--json'], { env: { ARENA_E2E_KEY: 'e2e-key' } });
      expect(run.code).toBe(0);
      const { results, summary } = judgeStdout(run.stdout);
      expect(results.map((result) => result.status)).toEqual([
        'passed',
        'passed',
        'passed',
        'passed',
      ]);
      expect(results[0].attemptCount).toBe(2);
      expect(summary.summary.costUsd).toBeCloseTo(4 * 0.002);
      expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer e2e-key');
    } finally {
      await server.close();
    }
  });

  it('names the server and the cause when the model server is down', async () => {
    const stopped = await startChatServer(() => ({ status: 500 }));
    await stopped.close();
    const dir = scratch();
    const config = readFileSync(example('local.yaml'), 'utf8').replace(
      'base_url: http://localhost:11434/v1',
      `base_url: ${stopped.baseURL}`,
    );
    writeFileSync(path.join(dir, 'down.yaml'), config);
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      path.join(dir, 'down.yaml'),
      '--json',
    ]);
    expect(run.code).toBe(1);
    const { results } = judgeStdout(run.stdout);
    expect(results.map((result) => [result.errorType, result.attemptCount])).toEqual(
      Array.from({ length: 4 }, () => ['ProviderConnectionError', 2]),
    );
    expect(run.stderr).toContain(
      `cannot reach the model server at ${stopped.baseURL}: connection refused (ECONNREFUSED`,
    );
  });

  it('does not hang on a 429 with retry-after: 999999: every attempt is made, then each case ends', async () => {
    const server = await startChatServer(() => ({
      status: 429,
      headers: { 'retry-after': '999999' },
    }));
    try {
      const dir = scratch();
      const config = readFileSync(example('local.yaml'), 'utf8').replace(
        'base_url: http://localhost:11434/v1',
        `base_url: ${server.baseURL}`,
      );
      writeFileSync(path.join(dir, 'limited.yaml'), config);
      const run = await runArena(
        ['judge', example('cases.jsonl'), '--config', path.join(dir, 'limited.yaml'), '--json'],
        { timeoutMs: 30_000 },
      );
      expect(run.signal).toBeNull();
      expect(run.code).toBe(1);
      const { results } = judgeStdout(run.stdout);
      expect(results.map((result) => [result.errorType, result.attemptCount])).toEqual(
        Array.from({ length: 4 }, () => ['ProviderRateLimitError', 2]),
      );
      expect(server.requests).toHaveLength(8);
      expect(server.requests[0]?.body.max_completion_tokens).toBe(400);
      // The log says why no wait came: the retry-after, far beyond the backoff's max_ms.
      expect(run.stderr).toContain(
        '"errorDetail":"model server answered HTTP 429 (retry-after 999999 s): scripted 429"',
      );
    } finally {
      await server.close();
    }
  });

  it('judges the shipped example with an agent judge from a user module, offline', async () => {
    const { run, out } = await judgeExample('agent.yaml');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'judged 4 cases with review: passed 2, failed 1, skipped 1, error 0',
    );
    expect(run.stdout).toContain('gates: pass');
    const statuses = Object.fromEntries(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map((result) => [result.caseId, result.status]),
    );
    expect(statuses).toEqual({
      'arith-1': 'passed',
      'arith-2': 'failed',
      'capital-1': 'passed',
      'injection-1': 'skipped',
    });
  });

  it('rejects an agent judge judging its own agent, and a bad agent config with its YAML path', async () => {
    const dir = scratch();
    copyFileSync(example('reviewer-agent.js'), path.join(dir, 'reviewer-agent.js'));
    const config = readFileSync(example('agent.yaml'), 'utf8');
    const cases = path.join(dir, 'cases.jsonl');
    writeFileSync(
      cases,
      '{"case_id":"own","input":"q","candidate_output":"4","expected_output":"4","observation":{"agent_name":"reviewer"}}\n',
    );
    const judgeWith = (yaml: string) => {
      const file = path.join(dir, 'judge.yaml');
      writeFileSync(file, yaml);
      return runArena(['judge', cases, '--config', file, '--json']);
    };
    const own = await judgeWith(config);
    expect(own.code).toBe(1);
    expect(judgeStdout(own.stdout).results).toHaveLength(1);
    expect(judgeStdout(own.stdout).results[0]).toMatchObject({
      status: 'error',
      errorType: 'SelfEvaluationRejected',
    });
    const missing = await judgeWith(config.replace('./reviewer-agent.js', './gone.js'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^arena: JudgeConfigurationError: agents\.reviewer\.module: module file not found: /,
    );
    const unknownTool = await judgeWith(config.replace('[normalise]', '[normalise, shell]'));
    expect(unknownTool.code).toBe(2);
    expect(unknownTool.stderr).toBe(
      'arena: JudgeConfigurationError: judges.review (agent reviewer): unknown tools: shell\n',
    );
  });
});
