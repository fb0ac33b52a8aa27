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

/** `--serve`: run only the chat server, print its base URL, and report stats on stdin EOF. */
async function serve(): Promise<void> {
  const server = await startChatServer(() => ({
    content: PASSED,
    delayMs: LATENCY_MS,
    usage: { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220 },
  }));
  process.stdout.write(`${server.baseURL}\n`);
  process.stdin.on('data', () => {
    process.stdout.write(
      `${JSON.stringify({ requests: server.requests.length, maxInFlight: server.maxInFlight() })}\n`,
    );
  });
  process.stdin.on('end', () => void server.close());
}

/** Start the server process and return its URL and a way to ask it for stats. */
async function startServerProcess(): Promise<{
  baseURL: string;
  stats: () => Promise<{ requests: number; maxInFlight: number }>;
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
    stats: async () => {
      child.stdin!.write('?\n');
      return JSON.parse(await nextLine()) as { requests: number; maxInFlight: number };
    },
  };
}

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
  console.log(`local chat server, ${LATENCY_MS} ms latency per call`);
  console.log(
    'concurrency  cases  wall ms  ideal ms  ratio  errors  max in flight  CPU µs/case  | bare SDK ratio  CPU µs/call',
  );
  for (const [concurrency, count] of [
    [1, 100],
    [8, 2000],
    [32, 2000],
    [128, 2000],
  ] as const) {
    const before = (await server.stats()).requests;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const results = await lastValueFrom(
      judgeMany(cases(count), judge, { concurrency }).pipe(toArray()),
    );
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuUs = (cpu.user + cpu.system) / count;
    const ideal = (count * LATENCY_MS) / concurrency;
    const errors = results.filter((result) => result.status === 'error').length;
    const stats = await server.stats();
    const bareCpuBefore = process.cpuUsage();
    const bareStarted = performance.now();
    await lastValueFrom(from(cases(count)).pipe(mergeMap(rawCall, concurrency), toArray()));
    const bare = performance.now() - bareStarted;
    const bareCpu = process.cpuUsage(bareCpuBefore);
    const bareCpuUs = (bareCpu.user + bareCpu.system) / count;
    console.log(
      `${String(concurrency).padStart(11)}  ${String(count).padStart(5)}  ${wall.toFixed(0).padStart(7)}  ${ideal.toFixed(0).padStart(8)}  ${(wall / ideal).toFixed(3)}  ${String(errors).padStart(6)}  ${String(stats.maxInFlight).padStart(13)}  ${cpuUs.toFixed(0).padStart(11)}${stats.requests - before === count ? '' : '  (request count mismatch!)'}  | ${(bare / ideal).toFixed(3).padStart(14)}  ${bareCpuUs.toFixed(0).padStart(11)}`,
    );
  }
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
  const all = cases(5000);
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
  /** Wall µs and CPU µs (user + system) per call, after a warm-up. */
  const time = async (
    run: (context: JudgeContext) => Promise<unknown>,
  ): Promise<{ wallUs: number; cpuUs: number }> => {
    for (const context of all.slice(0, 500)) await run(context);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (const context of all) await run(context);
    const cpu = process.cpuUsage(cpuBefore);
    return {
      wallUs: ((performance.now() - started) * 1000) / all.length,
      cpuUs: (cpu.user + cpu.system) / all.length,
    };
  };
  const bare = await time(baseline);
  const judged = await time((context) => judge.evaluate(context));
  const many = await time((context) =>
    lastValueFrom(judgeMany([context], judge, { concurrency: 1 })),
  );
  const row = (label: string, value: { wallUs: number; cpuUs: number }): string =>
    `${label.padEnd(54)}${value.wallUs.toFixed(1).padStart(8)} µs wall ${value.cpuUs.toFixed(1).padStart(8)} µs CPU`;
  console.log('\nzero-latency in-process provider, 5,000 judgements one after another');
  console.log(row('baseline (prompt hash + call + validate, no machine)', bare));
  console.log(row('judge.evaluate (one judgeMachine actor each)', judged));
  console.log(row('judgeMany of one case (adds the RxJS pipeline)', many));
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
}
