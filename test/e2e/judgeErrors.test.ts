import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJudgeStore } from '../../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../../src/ports/store/storeUri.js';
import { type ChatServer, type ScriptedReply, startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import { resultLines, startJudgeWorker, stopWorkers } from '../support/judgeFleet.js';
import { judgeStdout } from '../support/judgeOutput.js';
import { manualText } from '../support/manual.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { scratchFolder } from '../support/scratch.js';

const cases = path.join(repoRoot, 'examples/judge/cases.jsonl');
/** What a model answers that is almost a verdict: `pass` is not one of the statuses. */
const nearMiss = JSON.stringify({ status: 'pass', score: 1 });
const nearMissDetail = 'status: expected passed, failed or skipped, got "pass"';

const servers: ChatServer[] = [];
let nats: NatsServer;
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await nats?.dispose();
});

async function chatServer(reply: () => ScriptedReply): Promise<ChatServer> {
  const server = await startChatServer(reply);
  servers.push(server);
  return server;
}

/**
 * The shipped local.yaml pointed at `baseURL`, with no `gates` at all (and
 * quick retries): what a user who has not read about gates writes.
 */
function configWithoutGates(baseURL: string, edit: (yaml: string) => string = (yaml) => yaml) {
  const folder = scratchFolder('arena-judge-errors-');
  const yaml = readFileSync(path.join(repoRoot, 'examples/judge/local.yaml'), 'utf8')
    .replace('base_url: http://localhost:11434/v1', `base_url: ${baseURL}`)
    .replace(
      'backoff: { initial_ms: 250, max_ms: 4000, multiplier: 2, jitter: 0.2 }',
      'backoff: { initial_ms: 10, max_ms: 40, multiplier: 2, jitter: 0 }',
    )
    .replace(/^gates:\n(?: {2}.*\n)+/m, '');
  expect(yaml).not.toContain('gates');
  const config = path.join(folder, 'judge.yaml');
  writeFileSync(config, edit(yaml));
  return { folder, config, out: path.join(folder, 'results.jsonl') };
}

const gatesFailed =
  'gates: FAILED: 4 errors exceed max_errors 0 (the default: allow errors with gates.max_errors)';

describe('arena judge: errors fail the run by default, and each says what went wrong', () => {
  it('fails a run whose every verdict is rejected, with no gates in the config, and names the field and the rule', async () => {
    const server = await chatServer(() => ({ content: nearMiss }));
    const { config, out } = configWithoutGates(server.baseURL);
    const run = await runArena(['judge', cases, '--config', config, '--out', out]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe(
      [
        'judged 4 cases with strict: passed 0, failed 0, skipped 0, error 4',
        'mean score n/a, pass rate 0, tokens 0 (in 0, out 0), cost unknown (no prices configured)',
        `errors: 4 JudgeResponseError, first: ${nearMissDetail} (the last of 2 attempts)`,
        gatesFailed,
        '',
      ].join('\n'),
    );
    const results = resultLines(readFileSync(out, 'utf8'));
    expect(results.map((result) => [result.errorType, result.detail])).toEqual(
      Array.from({ length: 4 }, () => [
        'JudgeResponseError',
        `${nearMissDetail} (the last of 2 attempts)`,
      ]),
    );
  });

  it('fails a run on a model server out of reach, each result naming the server and the cause', async () => {
    const stopped = await startChatServer(() => ({ status: 500 }));
    await stopped.close();
    const { config } = configWithoutGates(stopped.baseURL);
    const run = await runArena(['judge', cases, '--config', config, '--json']);
    expect(run.code).toBe(1);
    // --json without --out: the result lines, then the summary as the last line
    const { results, summary } = judgeStdout(run.stdout);
    expect(results).toHaveLength(4);
    for (const result of results) {
      expect(result.errorType).toBe('ProviderConnectionError');
      expect(result.detail).toMatch(
        new RegExp(
          `^cannot reach the model server at ${stopped.baseURL.replaceAll('.', '\\.')}: connection refused \\(ECONNREFUSED.*\\) \\(the last of 2 attempts\\)$`,
        ),
      );
    }
    expect(summary.failedGates).toEqual([gatesFailed.replace('gates: FAILED: ', '')]);
    expect(summary.summary.errorTypes).toEqual([
      { errorType: 'ProviderConnectionError', count: 4, firstDetail: results[0]!.detail },
    ]);
  });

  it('passes the same run when gates.max_errors allows the errors', async () => {
    const server = await chatServer(() => ({ content: nearMiss }));
    const { config, out } = configWithoutGates(
      server.baseURL,
      (yaml) => `${yaml}gates:\n  max_errors: 4\n`,
    );
    const run = await runArena(['judge', cases, '--config', config, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('gates: pass');
  });

  it('says which attempt timed out and after how long, and what an HTTP error said', async () => {
    const slow = await chatServer(() => ({ content: nearMiss, delayMs: 5_000 }));
    const timing = configWithoutGates(slow.baseURL, (yaml) =>
      yaml
        .replace('timeout_seconds: 30', 'timeout_seconds: 0.2')
        .replace('max_attempts: 2', 'max_attempts: 1'),
    );
    const timedOut = await runArena(['judge', cases, '--config', timing.config, '--json']);
    expect(timedOut.code).toBe(1);
    expect(judgeStdout(timedOut.stdout).results.map((result) => result.detail)).toEqual(
      Array.from({ length: 4 }, () => 'judge attempt timed out after 200 ms'),
    );
    const refusing = await chatServer(() => ({ status: 400 }));
    const http = configWithoutGates(refusing.baseURL);
    const refused = await runArena(['judge', cases, '--config', http.config, '--json']);
    expect(refused.code).toBe(1);
    expect(judgeStdout(refused.stdout).results.map((result) => result.detail)).toEqual(
      Array.from(
        { length: 4 },
        () => 'model server answered HTTP 400: scripted 400 (the last of 2 attempts)',
      ),
    );
  });

  it('fails a --store run on errors too, and the store keeps each detail', async () => {
    const server = await chatServer(() => ({ content: nearMiss }));
    const { folder, config, out } = configWithoutGates(server.baseURL);
    const store = `sqlite:${path.join(folder, 'verdicts.db')}`;
    const run = await runArena([
      'judge',
      cases,
      '--config',
      config,
      '--store',
      store,
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(gatesFailed);
    const id = /evaluation run (\S+):/.exec(run.stderr)?.[1];
    const judgeStore = await openJudgeStore(parseStoreUri(store));
    try {
      const verdicts = await judgeStore.verdicts(id!, { limit: 10 });
      expect(verdicts.map((verdict) => verdict.result.detail)).toEqual(
        Array.from({ length: 4 }, () => `${nearMissDetail} (the last of 2 attempts)`),
      );
    } finally {
      await judgeStore.close();
    }
  });

  it('fails a --nats --wait run on errors too, with the same summary', async () => {
    const server = await chatServer(() => ({ content: nearMiss }));
    const { folder, config, out } = configWithoutGates(server.baseURL);
    const store = `sqlite:${path.join(folder, 'verdicts.db')}`;
    const worker = startJudgeWorker({ nats: nats.url, store, name: 'e1', cwd: folder });
    try {
      const run = await runArena(
        [
          'judge',
          cases,
          '--config',
          config,
          '--nats',
          nats.url,
          '--store',
          store,
          '--wait',
          '--out',
          out,
        ],
        { cwd: folder },
      );
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain(
        `errors: 4 JudgeResponseError, first: ${nearMissDetail} (the last of 2 attempts)`,
      );
      expect(run.stdout).toContain(gatesFailed);
      expect(resultLines(readFileSync(out, 'utf8')).map((result) => result.detail)).toEqual(
        Array.from({ length: 4 }, () => `${nearMissDetail} (the last of 2 attempts)`),
      );
    } finally {
      await stopWorkers([worker]);
    }
  });
});

describe('README: errors fail a judge run', () => {
  it('shows the real output of the near-miss example, which fails with no gates in its config', async () => {
    const readme = manualText();
    const config = path.join(repoRoot, 'examples/judge/near-miss.yaml');
    expect(readFileSync(config, 'utf8')).not.toMatch(/^gates:/m);
    const out = path.join(scratchFolder('arena-judge-near-miss-'), 'results.jsonl');
    const args = ['--log-level', 'error', 'judge', 'examples/judge/cases.jsonl', '--config'];
    const run = await runArena([...args, config, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    const shown = `$ npx arena ${args.join(' ')} examples/judge/near-miss.yaml --out results.jsonl\n`;
    expect(readme).toContain(`${shown}${run.stdout}\`\`\``);
  });
});

describe('arena judge: the request a judge sends', () => {
  it('sends the schema of arena schema judge-verdict as response_format, and max_tokens when token_parameter says so', async () => {
    const server = await chatServer(() => ({
      content: JSON.stringify({ status: 'skipped' }),
    }));
    const { config } = configWithoutGates(server.baseURL, (yaml) =>
      yaml.replace(
        'max_output_tokens: 400',
        'max_output_tokens: 400\n    token_parameter: max_tokens',
      ),
    );
    const run = await runArena(['judge', cases, '--config', config, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const sent = server.requests[0]!.body;
    expect(sent.max_tokens).toBe(400);
    expect(sent).not.toHaveProperty('max_completion_tokens');
    expect(sent.temperature).toBe(0);
    const schema = await runArena(['schema', 'judge-verdict']);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(sent.response_format);
  });

  it('refuses a token_parameter it does not know, naming the field (exit 2)', async () => {
    const { config } = configWithoutGates('http://127.0.0.1:9/v1', (yaml) =>
      yaml.replace(
        'max_output_tokens: 400',
        'max_output_tokens: 400\n    token_parameter: max_output',
      ),
    );
    const run = await runArena(['judge', cases, '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('models.local.token_parameter');
    expect(run.stderr).toContain('max_completion_tokens');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a schema it does not know (exit 2)', async () => {
    const run = await runArena(['schema', 'judge-verdicts']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "arena: unknown schema 'judge-verdicts': expected run-file or judge-verdict\n",
    );
  });
});
