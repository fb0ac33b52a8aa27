/**
 * Judge throughput and overhead, as a user feels it: `arena judge` on a cases
 * file against a chat-completions server with a fixed 50 ms latency.
 *
 * At 1, 8, 32, 128 and 256 in flight, for each row:
 * - `arena judge` as a user runs it (`node cli/bin/arena.js judge ...`, a new
 *   process each time): the server-side span (first request's arrival to the
 *   last answer's end, measured by the server) and the whole process's wall
 *   time (spawn to exit, start-up included), each as a ratio to the ideal
 *   (cases × 50 ms / in flight), and the TCP connections the server accepted
 *   for that run ('connection' events).
 * - CPU per judgement in this process: `judgeMany` through the OpenAI adapter
 *   against the bare `openai` SDK making the same requests (messages, strict
 *   schema, signal, timeout) with `mergeMap`, no judge. The ratio is arena's
 *   cost over the SDK's. The server's span of those windows is printed too:
 *   this process is warmed up, a new `arena judge` process is not, and the
 *   difference is what V8's warm-up costs a 2,000-case run.
 * - The server's span of the bare SDK's requests from a new process of their
 *   own (as cold as a new `arena judge`): what the SDK alone gives on this
 *   machine, before a judge, a CLI or arena's connection pool.
 *
 * The server runs in its own process (test/support/chatServer.ts), as a real
 * model server would, so its CPU is charged to neither side. The machine is
 * shared and loaded, so each figure is the best of `JUDGE_BENCH_ROUNDS`
 * (default 3) windows (`JUDGE_BENCH_IN_FLIGHT=128` runs that row alone), arena and bare SDK windows interleaved so both see the
 * same load, with a GC before each in-process window. CPU is
 * `process.cpuUsage()` (user + system), GC helper threads included.
 *
 * Build first (`npm run build`): the CLI rows run `cli/dist/`, the `arena` command as users get it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { from, lastValueFrom, mergeMap, toArray } from 'rxjs';
import { judgeMany } from '../src/actors/judging/judgeMany.js';
import { createModelJudge } from '../src/actors/judging/judges.js';
import type { JudgeContext } from '../src/domain/judge/context.js';
import { judgePayloadJsonSchema } from '../src/domain/judge/payload.js';
import { judgeMessages } from '../src/domain/judge/prompt.js';
import { createOpenAIProvider } from '../src/ports/model/openaiProvider.js';
import { startChatServer } from '../test/support/chatServer.js';

const LATENCY_MS = 50;
const ROUNDS = Math.max(1, Number(process.env.JUDGE_BENCH_ROUNDS ?? 3));
/** In flight, and how many cases (about 2.5 s of ideal time at low concurrency, 2,000 above). */
const ROWS = [
  [1, 50],
  [8, 400],
  [32, 2000],
  [128, 2000],
  [256, 2000],
] as const;
/** `JUDGE_BENCH_IN_FLIGHT=128,256`: only those rows. */
const ONLY = process.env.JUDGE_BENCH_IN_FLIGHT?.split(',').map(Number);
const TARGETS = { span: 1.5, wall: 2.0, cpu: 1.2 } as const;
/** Connections: one per request in flight, and a couple to spare. */
const connectionTarget = (inFlight: number): number => inFlight + 2;

const PASSED = JSON.stringify({
  status: 'passed',
  score: 1,
  label: 'ok',
  explanation: null,
  evidence: ['e'],
});
const RUBRIC = 'Score it.';
const settings = {
  name: 'bench',
  judgeVersion: '1',
  rubric: RUBRIC,
  rubricVersion: '1',
  timeoutMs: 30_000,
};
const root = path.resolve(import.meta.dirname, '..');
const cliPath = path.join(root, 'dist', 'cli', 'main.js');

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
  // One line per question: `?` reports the stats, `reset` first starts a new window (max in flight, span).
  process.stdin.on('data', (chunk: Buffer) => {
    if (chunk.toString('utf8').startsWith('reset')) {
      server.resetMaxInFlight();
      server.resetSpan();
    }
    const stats: ServerStats = {
      requests: server.requests.length,
      maxInFlight: server.maxInFlight(),
      connections: server.connections(),
      spanMs: server.spanMs(),
    };
    // Only the counts are needed: the received requests need not be kept.
    server.requests.length = 0;
    requestsSoFar += stats.requests;
    process.stdout.write(`${JSON.stringify({ ...stats, requests: requestsSoFar })}\n`);
  });
  process.stdin.on('end', () => void server.close());
}
let requestsSoFar = 0;

/** What the server process reports when asked. */
interface ServerStats {
  readonly requests: number;
  readonly maxInFlight: number;
  readonly connections: number;
  readonly spanMs: number;
}

interface ServerProcess {
  readonly baseURL: string;
  readonly child: ChildProcess;
  stats(options?: { reset?: boolean }): Promise<ServerStats>;
}

/** Start the server process and return its URL and a way to ask it for stats. */
async function startServerProcess(): Promise<ServerProcess> {
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

/** What one measured run gave. */
interface Measured {
  readonly wallMs: number;
  readonly spanMs: number;
  readonly cpuUs: number;
  readonly connections: number;
  readonly requests: number;
  readonly maxInFlight: number;
}

/** Run `work` between two server windows: its wall, the server's span, connections and requests. */
async function measured(
  server: ServerProcess,
  work: () => Promise<{ wallMs: number; cpuUs: number }>,
): Promise<Measured> {
  const before = await server.stats({ reset: true });
  const { wallMs, cpuUs } = await work();
  const after = await server.stats();
  return {
    wallMs,
    cpuUs,
    spanMs: after.spanMs,
    connections: after.connections - before.connections,
    requests: after.requests - before.requests,
    maxInFlight: after.maxInFlight,
  };
}

/** One in-process window: wall and CPU (user + system) of `run`, after a GC. */
async function inProcess(run: () => Promise<unknown>): Promise<{ wallMs: number; cpuUs: number }> {
  globalThis.gc?.();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await run();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs, cpuUs: cpu.user + cpu.system };
}

/** The cases file and judge config `arena judge` reads, in a temporary folder. */
function writeInputs(folder: string, baseURL: string, count: number): string {
  const casesPath = path.join(folder, `cases-${count}.jsonl`);
  if (!existsSync(casesPath)) {
    const lines = cases(count).map((context) =>
      JSON.stringify({
        case_id: context.caseId,
        subject_id: context.subjectId,
        input: context.input,
        candidate_output: context.candidateOutput,
        observation: context.observation,
      }),
    );
    writeFileSync(casesPath, `${lines.join('\n')}\n`);
  }
  writeFileSync(
    path.join(folder, 'judge.yaml'),
    [
      'judge: bench',
      'rubric: { version: "1", text: "Score it." }',
      'models:',
      `  mock: { provider: openai, model: bench-model, base_url: "${baseURL}" }`,
      'judges:',
      '  bench: { model: mock, judge_version: "1", timeout_seconds: 30, max_attempts: 2 }',
      '',
    ].join('\n'),
  );
  return casesPath;
}

/** `arena judge` as a user runs it: wall from spawn to exit, and the process's own CPU (start-up included). */
async function runCli(
  folder: string,
  casesPath: string,
  inFlight: number,
  count: number,
): Promise<{ wallMs: number; cpuUs: number }> {
  const cpuFile = path.join(folder, 'cpu.json');
  const outFile = path.join(folder, 'out.jsonl');
  // Written at exit by the CLI process itself: its user + system CPU.
  const cpuProbe = `data:text/javascript,${encodeURIComponent(
    `import{writeFileSync}from"node:fs";process.on("exit",()=>{const c=process.cpuUsage();writeFileSync(${JSON.stringify(cpuFile)},String(c.user+c.system))})`,
  )}`;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      cpuProbe,
      cliPath,
      'judge',
      casesPath,
      '--config',
      path.join(folder, 'judge.yaml'),
      '--out',
      outFile,
      '--json',
      '--concurrency',
      String(inFlight),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const wallMs = performance.now() - started;
  const summary = JSON.parse(stdout || '{}') as {
    summary?: { total: number; byStatus: { passed: number } };
  };
  if (code !== 0 || summary.summary?.total !== count || summary.summary.byStatus.passed !== count) {
    throw new Error(`arena judge failed (exit ${code}): ${stdout}${stderr}`);
  }
  return { wallMs, cpuUs: Number(readFileSync(cpuFile, 'utf8')) };
}

const verdict = (value: number, target: number): string =>
  `${value <= target ? 'met' : 'MISSED'} (≤ ${target})`;

async function main(): Promise<void> {
  if (!existsSync(cliPath)) {
    throw new Error(`${cliPath} is missing: build first (npm run build)`);
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} cores`,
  );
  const server = await startServerProcess();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'arena-judge-bench-'));
  const bareRun = bareSdkRun(server.baseURL);
  const arenaRun = (count: number, inFlight: number) => {
    // A judge per window, as `arena judge` makes one per run (and its provider, pool included).
    const provider = createOpenAIProvider({ baseURL: server.baseURL, model: 'bench-model' });
    const judge = createModelJudge({ ...settings, provider });
    return lastValueFrom(judgeMany(cases(count), judge, { concurrency: inFlight }).pipe(toArray()));
  };
  // Warm up both in-process paths (JIT) before any window counts.
  await arenaRun(400, 32);
  await bareRun(400, 32);
  console.log(
    `chat server in its own process, ${LATENCY_MS} ms per call; each figure the best of ${ROUNDS} interleaved windows`,
  );
  console.log(
    'in flight  cases  ideal ms |  span/ideal       wall/ideal       connections | CPU µs/judgement: arena  bare SDK  ratio',
  );
  try {
    for (const [inFlight, count] of ROWS.filter(([inFlight]) => ONLY?.includes(inFlight) ?? true)) {
      const ideal = (count * LATENCY_MS) / inFlight;
      const casesPath = writeInputs(folder, server.baseURL, count);
      const cli: Measured[] = [];
      const arena: Measured[] = [];
      const bare: Measured[] = [];
      const bareCold: Measured[] = [];
      const steps = [
        async () =>
          bareCold.push(
            await measured(server, () => runBareSdkProcess(server.baseURL, inFlight, count)),
          ),
        async () =>
          cli.push(await measured(server, () => runCli(folder, casesPath, inFlight, count))),
        async () =>
          arena.push(await measured(server, () => inProcess(() => arenaRun(count, inFlight)))),
        async () =>
          bare.push(await measured(server, () => inProcess(() => bareRun(count, inFlight)))),
      ];
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate the order, so no path always gets the quieter slot.
        for (let step = 0; step < steps.length; step++)
          await steps[(round + step) % steps.length]!();
      }
      for (const run of [...cli, ...arena, ...bare, ...bareCold]) {
        if (run.requests !== count) throw new Error(`${run.requests} requests for ${count} cases`);
      }
      const best = (runs: Measured[], key: keyof Measured): number =>
        Math.min(...runs.map((run) => run[key]));
      const span = best(cli, 'spanMs') / ideal;
      const wall = best(cli, 'wallMs') / ideal;
      const connections = best(cli, 'connections');
      const arenaCpu = best(arena, 'cpuUs') / count;
      const bareCpu = best(bare, 'cpuUs') / count;
      console.log(
        `${String(inFlight).padStart(9)}  ${String(count).padStart(5)}  ${ideal.toFixed(0).padStart(8)} | ${span.toFixed(2).padStart(5)} ${verdict(span, TARGETS.span).padEnd(11)} ${wall.toFixed(2).padStart(5)} ${verdict(wall, TARGETS.wall).padEnd(11)} ${String(connections).padStart(4)} ${verdict(connections, connectionTarget(inFlight)).padEnd(13)} | ${arenaCpu.toFixed(0).padStart(22)} ${bareCpu.toFixed(0).padStart(9)} ${(arenaCpu / bareCpu).toFixed(2).padStart(6)} ${verdict(arenaCpu / bareCpu, TARGETS.cpu)}`,
      );
      console.log(
        `${''.padStart(9)}  per window: span ${cli.map((run) => (run.spanMs / ideal).toFixed(2)).join(' ')}; wall ${cli.map((run) => (run.wallMs / ideal).toFixed(2)).join(' ')}; connections ${cli.map((run) => run.connections).join(' ')} (in process: arena ${best(arena, 'connections')}, bare SDK ${best(bare, 'connections')}); max in flight ${best(cli, 'maxInFlight')}; CLI process CPU ${(best(cli, 'cpuUs') / count).toFixed(0)} µs/judgement, start-up included; in this warmed-up process, span / ideal ${(best(arena, 'spanMs') / ideal).toFixed(2)} for arena and ${(best(bare, 'spanMs') / ideal).toFixed(2)} for the bare SDK; a new process of the bare SDK alone (no judge, no CLI), span / ideal ${(best(bareCold, 'spanMs') / ideal).toFixed(2)}`,
      );
    }
  } finally {
    server.child.stdin!.end();
    await once(server.child, 'exit');
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(
    `load average at the end ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

/**
 * The bare `openai` SDK making the requests a judge makes (messages, strict
 * schema, signal, timeout), without a judge: `(count, inFlight)` runs them.
 */
function bareSdkRun(baseURL: string): (count: number, inFlight: number) => Promise<unknown[]> {
  const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
  const call = (context: JudgeContext): Promise<unknown> =>
    client.chat.completions.create(
      {
        model: 'bench-model',
        messages: judgeMessages(RUBRIC, context).map((message) => ({ ...message })),
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
  return (count, inFlight) =>
    lastValueFrom(from(cases(count)).pipe(mergeMap(call, inFlight), toArray()));
}

/**
 * `--bare <baseURL> <inFlight> <count>`: the bare SDK's requests once, in a
 * new process, as cold as a new `arena judge` (the server's span starts at
 * the first request, so this file's own start-up is not in it).
 */
async function runBareSdkProcess(
  baseURL: string,
  inFlight: number,
  count: number,
): Promise<{ wallMs: number; cpuUs: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, '--bare', baseURL, String(inFlight), String(count)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the bare SDK process failed (exit ${code})`);
  return { wallMs: performance.now() - started, cpuUs: 0 };
}

const bareAt = process.argv.indexOf('--bare');
if (process.argv.includes('--serve')) await serve();
else if (bareAt >= 0) {
  const [baseURL, inFlight, count] = process.argv.slice(bareAt + 1);
  await bareSdkRun(baseURL!)(Number(count), Number(inFlight));
} else await main();
