/**
 * Judge throughput and overhead.
 *
 * 1. Against a real chat-completions server on 127.0.0.1 with a fixed 50 ms
 *    latency, judge N cases at concurrency 1, 8, 32 and 128 through the
 *    OpenAI adapter and `judgeMany`, and print wall time as a ratio to the
 *    ideal (N × 50 ms / concurrency). Target: ≤ 1.15 at concurrency 32.
 *    Concurrency 1 uses 100 cases (2,000 would take 100 s), the others 2,000.
 *    The server runs in its own process, as a real model server would, so its
 *    CPU time is not charged to the judging event loop.
 *    Beside each row: the same requests (messages, strict schema, signal,
 *    timeout) made with the bare `openai` SDK and `mergeMap`, no judge, so the
 *    environment's HTTP cost and arena's own cost can be told apart.
 * 2. With a zero-latency in-process provider, arena's own cost per judgement
 *    (machine, prompt hash, validation, result) in µs, against a baseline that
 *    calls the same provider and validates the payload with no machine.
 *
 * The machine is shared and loaded, so every figure is the best of several
 * windows (`JUDGE_BENCH_HTTP_ROUNDS`, default 3, and `JUDGE_BENCH_CPU_ROUNDS`,
 * default 10), arena and baseline windows interleaved so both see the same
 * load, with a GC before each window. CPU is `process.cpuUsage()` (user +
 * system) of this process, GC helper threads included (so it can exceed wall
 * time); the server's CPU is not in it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import OpenAI from 'openai';
import { from, lastValueFrom, mergeMap, toArray } from 'rxjs';
import { judgeMany } from '../src/actors/judgeMany.js';
import { createModelJudge } from '../src/actors/judges.js';
import type { JudgeContext } from '../src/domain/judge/context.js';
import { judgePayloadJsonSchema, parseJudgePayload } from '../src/domain/judge/payload.js';
import { judgeMessages, promptSha256 } from '../src/domain/judge/prompt.js';
import type { JudgeResult } from '../src/domain/judge/result.js';
import type { ModelProvider } from '../src/ports/modelProvider.js';
import { createOpenAIProvider } from '../src/ports/openaiProvider.js';
import { startChatServer } from '../test/support/chatServer.js';

const LATENCY_MS = 50;
const PASSED = JSON.stringify({
  status: 'passed',
  score: 1,
  label: 'ok',
  explanation: null,
  evidence: ['e'],
});
const settings = {
  name: 'bench',
  judgeVersion: '1',
  rubric: 'Score it.',
  rubricVersion: '1',
  timeoutMs: 30_000,
};

function cases(count: number): JudgeContext[] {
  return Array.from({ length: count }, (_, index) => ({
    evaluationRunId: 'bench',
    caseId: `case-${index}`,
    subjectId: `subject-${index}`,
    input: { question: `What is ${index} + 1?` },
    candidateOutput: String(index + 1),
    observation: { model: 'target', provider: 'openai' },
  }));
}

/** `--serve`: run only the chat server, print its base URL, answer each stdin line with its stats, and stop on stdin EOF. */
async function serve(): Promise<void> {
  const server = await startChatServer(() => ({
    content: PASSED,
    delayMs: LATENCY_MS,
    usage: { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 },
  }));
  process.stdout.write(`${server.baseURL}\n`);
  // One line per question: `?` reports the stats, `reset` also starts a new max-in-flight window.
  process.stdin.on('data', (chunk: Buffer) => {
    if (chunk.toString('utf8').startsWith('reset')) server.resetMaxInFlight();
    process.stdout.write(
      `${JSON.stringify({ requests: server.requests.length, maxInFlight: server.maxInFlight(), connections: server.connections() })}\n`,
    );
  });
  process.stdin.on('end', () => void server.close());
}

/** What the server process reports when asked. */
interface ServerStats {
  readonly requests: number;
  readonly maxInFlight: number;
  readonly connections: number;
}

/** Start the server process and return its URL and a way to ask it for stats. */
async function startServerProcess(): Promise<{
  baseURL: string;
  stats: (options?: { reset?: boolean }) => Promise<ServerStats>;
  child: ChildProcess;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    child.stdout!.emit('line');
  });
  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) await once(child.stdout!, 'line');
    return lines.shift()!;
  };
  const baseURL = await nextLine();
  return {
    baseURL,
    child,
    stats: async (options: { reset?: boolean } = {}) => {
      child.stdin!.write(options.reset ? 'reset\n' : '?\n');
      return JSON.parse(await nextLine()) as ServerStats;
    },
  };
}

/** One measured window: wall and CPU (user + system) of `run`, after a GC. */
async function window(run: () => Promise<unknown>): Promise<{ wallMs: number; cpuUs: number }> {
  globalThis.gc?.();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await run();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs, cpuUs: cpu.user + cpu.system };
}

const HTTP_ROUNDS = Math.max(1, Number(process.env.JUDGE_BENCH_HTTP_ROUNDS ?? 3));
const CPU_ROUNDS = Math.max(1, Number(process.env.JUDGE_BENCH_CPU_ROUNDS ?? 10));

async function throughput(): Promise<void> {
  const server = await startServerProcess();
  const provider = createOpenAIProvider({ baseURL: server.baseURL, model: 'bench-model' });
  const judge = createModelJudge({ ...settings, provider });
  const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'bench', maxRetries: 0 });
  // The same request a judge sends (messages, strict schema, signal, timeout), without a judge.
  const rawCall = (context: JudgeContext): Promise<unknown> =>
    client.chat.completions.create(
      {
        model: 'bench-model',
        messages: judgeMessages(settings.rubric, context).map((message) => ({ ...message })),
        temperature: 0,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'arena_judge_result',
            strict: true,
            schema: { ...judgePayloadJsonSchema },
          },
        },
      },
      { signal: new AbortController().signal, timeout: settings.timeoutMs, maxRetries: 0 },
    );
  const arenaRun = (count: number, concurrency: number) =>
    lastValueFrom(judgeMany(cases(count), judge, { concurrency }).pipe(toArray()));
  const bareRun = (count: number, concurrency: number) =>
    lastValueFrom(from(cases(count)).pipe(mergeMap(rawCall, concurrency), toArray()));
  // Warm up both paths (JIT, keep-alive connections) before any window counts.
  await arenaRun(400, 32);
  await bareRun(400, 32);
  console.log(
    `local chat server in its own process, ${LATENCY_MS} ms latency per call; best of ${HTTP_ROUNDS} interleaved windows`,
  );
  console.log(
    'concurrency  cases  ideal ms  arena ratio  CPU µs/judgement  errors  max in flight  | bare SDK ratio  CPU µs/call  | arena ratios per window',
  );
  for (const [concurrency, count] of [
    [1, 100],
    [8, 2000],
    [32, 2000],
    [128, 2000],
  ] as const) {
    const ideal = (count * LATENCY_MS) / concurrency;
    const arena: { wallMs: number; cpuUs: number }[] = [];
    const bare: { wallMs: number; cpuUs: number }[] = [];
    let errors = 0;
    let maxInFlight = 0;
    let requestMismatch = false;
    for (let round = 0; round < HTTP_ROUNDS; round++) {
      const measureArena = async (): Promise<void> => {
        const before = (await server.stats({ reset: true })).requests;
        let results: JudgeResult[] = [];
        arena.push(
          await window(async () => {
            results = await arenaRun(count, concurrency);
          }),
        );
        errors += results.filter((result) => result.status === 'error').length;
        const after = await server.stats();
        requestMismatch ||= after.requests - before !== count;
        maxInFlight = Math.max(maxInFlight, after.maxInFlight);
      };
      const measureBare = async (): Promise<void> => {
        bare.push(await window(() => bareRun(count, concurrency)));
      };
      // Alternate which goes first, so neither always gets the quieter slot.
      if (round % 2 === 0) {
        await measureArena();
        await measureBare();
      } else {
        await measureBare();
        await measureArena();
      }
    }
    const bestRatio = (windows: { wallMs: number }[]): number =>
      Math.min(...windows.map((measured) => measured.wallMs)) / ideal;
    const bestCpu = (windows: { cpuUs: number }[]): number =>
      Math.min(...windows.map((measured) => measured.cpuUs)) / count;
    console.log(
      `${String(concurrency).padStart(11)}  ${String(count).padStart(5)}  ${ideal.toFixed(0).padStart(8)}  ${bestRatio(arena).toFixed(3).padStart(11)}  ${bestCpu(arena).toFixed(0).padStart(16)}  ${String(errors).padStart(6)}  ${String(maxInFlight).padStart(13)}  | ${bestRatio(bare).toFixed(3).padStart(14)}  ${bestCpu(bare).toFixed(0).padStart(11)}  | ${arena.map((measured) => (measured.wallMs / ideal).toFixed(3)).join(' ')}${requestMismatch ? '  (request count mismatch!)' : ''}`,
    );
  }
  const stats = await server.stats();
  console.log(
    `server: ${stats.requests} requests over ${stats.connections} connections (keep-alive reuse)`,
  );
  server.child.stdin!.end();
  await once(server.child, 'exit');
}

async function overhead(): Promise<void> {
  const provider: ModelProvider = {
    name: 'memory',
    model: 'instant',
    invoke: async () => ({ content: PASSED, usage: { inputTokens: 200, outputTokens: 20 } }),
  };
  const judge = createModelJudge({ ...settings, provider });
  const windowSize = 2000;
  const all = cases(windowSize);
  const signal = new AbortController().signal;
  const baseline = async (context: JudgeContext): Promise<void> => {
    promptSha256(settings.rubric, context);
    const response = await provider.invoke({
      messages: judgeMessages(settings.rubric, context),
      responseSchema: { name: 'x', strict: true, schema: {} },
      temperature: 0,
      timeoutMs: 1000,
      metadata: {},
      signal,
    });
    parseJudgePayload(response.content);
  };
  const paths = [
    ['baseline (prompt hash + call + validate, no machine)', baseline],
    ['judge.evaluate (one judgeMachine actor each)', (context) => judge.evaluate(context)],
    [
      'judgeMany of one case (adds the RxJS pipeline)',
      (context) => lastValueFrom(judgeMany([context], judge, { concurrency: 1 })),
    ],
  ] as const satisfies readonly (readonly [string, (context: JudgeContext) => Promise<unknown>])[];
  const sequential = (run: (context: JudgeContext) => Promise<unknown>) => async () => {
    for (const context of all) await run(context);
  };
  for (const [, run] of paths) await sequential(run)();
  const best = paths.map(() => ({
    wallUs: Number.POSITIVE_INFINITY,
    cpuUs: Number.POSITIVE_INFINITY,
  }));
  for (let round = 0; round < CPU_ROUNDS; round++) {
    for (const [index, [, run]] of paths.entries()) {
      const measured = await window(sequential(run));
      const current = best[index]!;
      best[index] = {
        wallUs: Math.min(current.wallUs, (measured.wallMs * 1000) / windowSize),
        cpuUs: Math.min(current.cpuUs, measured.cpuUs / windowSize),
      };
    }
  }
  const row = (label: string, value: { wallUs: number; cpuUs: number }): string =>
    `${label.padEnd(54)}${value.wallUs.toFixed(1).padStart(8)} µs wall ${value.cpuUs.toFixed(1).padStart(8)} µs CPU`;
  console.log(
    `\nzero-latency in-process provider, ${windowSize} judgements one after another, best of ${CPU_ROUNDS} interleaved windows`,
  );
  for (const [index, [label]] of paths.entries()) console.log(row(label, best[index]!));
  const [bare, judged] = best as [(typeof best)[0], (typeof best)[0]];
  console.log(
    `arena overhead per judgement: ${(judged.wallUs - bare.wallUs).toFixed(1)} µs wall, ${(judged.cpuUs - bare.cpuUs).toFixed(1)} µs CPU (${(judged.cpuUs / bare.cpuUs).toFixed(1)}x baseline CPU)`,
  );
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  console.log(
    `load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} cores`,
  );
  await throughput();
  await overhead();
  console.log(
    `load average at the end ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}
