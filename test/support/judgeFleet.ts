import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatServer, ReceivedRequest, ScriptedReply } from './chatServer.js';
import { type RunningProcess, repoRoot, startProcess } from './cli.js';
import { cli, fleetEnv, spawnWorker, type WorkerProcess } from './queueFleet.js';
import { scratchFolder } from './scratch.js';

/** Judge jobs come back 2 s after a worker died (tests only; the default is 30 s): the test fleet's settings. */
export const judgeFleetEnv = fleetEnv;

/** A scratch folder with `cases.jsonl` (`count` cases) and `judge.yaml` pointing at `server`. */
export function judgeFixture(
  server: Pick<ChatServer, 'baseURL'>,
  count: number,
  options: { maxAttempts?: number; timeoutSeconds?: number; backoffMs?: number } = {},
): { folder: string; cases: string; config: string } {
  const folder = scratchFolder('arena-judge-fleet-');
  const cases = path.join(folder, 'cases.jsonl');
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    // every third answer is wrong: the server fails what does not say ok-
    const answer = index % 3 === 0 ? `bad-${index}` : `ok-${index}`;
    lines.push(
      JSON.stringify({
        case_id: `case-${index}`,
        input: { question: `question ${index}` },
        candidate_output: answer,
        expected_output: `answer ${index}`,
        observation: { model: 'candidate-model', provider: 'candidate-host' },
      }),
    );
  }
  writeFileSync(cases, `${lines.join('\n')}\n`);
  const config = path.join(folder, 'judge.yaml');
  const backoff = options.backoffMs ?? 50;
  writeFileSync(
    config,
    readFileSync(path.join(repoRoot, 'examples/judge/local.yaml'), 'utf8')
      .replace('base_url: http://localhost:11434/v1', `base_url: ${server.baseURL}`)
      .replace('max_attempts: 2', `max_attempts: ${options.maxAttempts ?? 2}`)
      .replace('timeout_seconds: 30', `timeout_seconds: ${options.timeoutSeconds ?? 30}`)
      .replace(
        'backoff: { initial_ms: 250, max_ms: 4000, multiplier: 2, jitter: 0.2 }',
        `backoff: { initial_ms: ${backoff}, max_ms: ${backoff * 4}, multiplier: 2, jitter: 0.2 }`,
      ),
  );
  return { folder, cases, config };
}

/** The case a judge request is about, from its prompt. */
export function caseOf(request: ReceivedRequest): string {
  const match = /(ok|bad)-(\d+)/.exec(JSON.stringify(request.body.messages ?? ''));
  return match ? `case-${match[2]}` : 'unknown';
}

/** A model's verdict as JSON: passed (score 1) or failed (score 0), with no explanation. */
export function passFailVerdict(passed: boolean): string {
  return JSON.stringify({
    status: passed ? 'passed' : 'failed',
    score: passed ? 1 : 0,
    label: passed ? 'correct' : 'incorrect',
    explanation: null,
    evidence: [],
  });
}

/** The verdict the fixture's server gives: passed for `ok-`, failed for `bad-`. */
export function verdictFor(request: ReceivedRequest, delayMs = 0): ScriptedReply {
  const passed = caseOf(request) !== 'unknown' && JSON.stringify(request.body).includes('ok-');
  return {
    delayMs,
    content: passFailVerdict(passed),
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

/** A running `arena worker` taking judge jobs. */
export type JudgeWorkerProcess = WorkerProcess;

/** Start `arena worker` taking judge jobs (`--judge-concurrency`) from a NATS server into a store. */
export function startJudgeWorker(options: {
  nats: string;
  store: string;
  name: string;
  cwd: string;
  judgeConcurrency?: number;
}): JudgeWorkerProcess {
  return spawnWorker(
    [
      '--nats',
      options.nats,
      '--store',
      options.store,
      '--name',
      options.name,
      '--judge-concurrency',
      String(options.judgeConcurrency ?? 4),
    ],
    { cwd: options.cwd, env: judgeFleetEnv },
  );
}

/** Stop workers by SIGTERM and wait for them. */
export async function stopWorkers(workers: readonly JudgeWorkerProcess[]): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.exited));
}

/** The JSON lines of an `--out` file, or of stdout. */
export function resultLines(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What a verdict says, without when or how fast: comparable across runs. */
export function verdictFacts(result: Record<string, unknown>) {
  return {
    caseId: result.caseId,
    status: result.status,
    score: result.score,
    label: result.label,
    promptSha256: result.promptSha256,
    errorType: result.errorType,
  };
}

/** Start `arena …` in the background (e.g. `judge --wait`, to interrupt it or watch its output). */
export function spawnArena(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): RunningProcess {
  return startProcess(process.execPath, [cli, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
}
