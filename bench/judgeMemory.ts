/**
 * The memory of a one-process `arena judge` as the cases file grows: 20,000
 * and 100,000 cases against a chat server in its own process that answers at
 * once (a passing verdict), `--concurrency 64`, results to `--out`. For each,
 * the peak resident memory of the `arena judge` process and the most live
 * heap after a full GC every 250 ms (what it retains, see `_memory.mjs`).
 * Target: peak RSS at 100k at most 1.3x that at 20k (it streams: results are
 * written as they come, summaries folded, cases read as they are judged).
 * Build first (`npm run build`); `JUDGE_MEMORY_CLI` runs another build of the
 * command (a baseline), `JUDGE_MEMORY_CASES=20000,100000` sets the sizes.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cli as builtCli } from '../test/support/queueFleet.js';
import { casesFile, configFile, startJudgeServer } from './_judgeFiles.js';

const here = import.meta.dirname;
const cli = process.env.JUDGE_MEMORY_CLI ?? builtCli;
const SIZES = (process.env.JUDGE_MEMORY_CASES ?? '20000,100000').split(',').map(Number);
const TARGET = 1.3;

/** One `arena judge` to its end: its peak RSS and most live heap, as `_memory.mjs` reports them. */
async function judged(
  cases: string,
  config: string,
  folder: string,
): Promise<{ maxRssKb: number; liveHeap: number; wallMs: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      path.join(here, '_memory.mjs'),
      cli,
      'judge',
      cases,
      '--config',
      config,
      '--concurrency',
      '64',
      '--json',
      '--out',
      path.join(folder, 'out.jsonl'),
    ],
    { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`arena judge exited ${code}: ${stdout}${stderr.slice(-2000)}`);
  const memory = /max-rss-kb (\d+) max-live-heap (\d+)/.exec(stderr);
  if (memory === null) throw new Error(`no memory figures: ${stderr.slice(-2000)}`);
  return {
    maxRssKb: Number(memory[1]),
    liveHeap: Number(memory[2]),
    wallMs: performance.now() - started,
  };
}

const server = await startJudgeServer(0);
const folder = mkdtempSync(path.join(tmpdir(), 'arena-bench-judge-memory-'));
try {
  const config = configFile(folder, server.baseURL, ['gates: { min_pass_rate: 0.5 }']);
  const runs: { count: number; maxRssKb: number; liveHeap: number }[] = [];
  for (const count of SIZES) {
    const run = await judged(casesFile(folder, count), config, folder);
    runs.push({ count, ...run });
    console.log(
      `${String(count).padStart(7)} cases: peak RSS ${(run.maxRssKb / 1024).toFixed(1)} MiB, most live heap ${(run.liveHeap / 1024 / 1024).toFixed(1)} MiB, ${(run.wallMs / 1000).toFixed(1)} s`,
    );
  }
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  if (runs.length > 1) {
    const rss = last.maxRssKb / first.maxRssKb;
    const heap = last.liveHeap / first.liveHeap;
    console.log(
      `peak RSS ${last.count} / ${first.count}: ${rss.toFixed(2)}x (target <= ${TARGET} ${rss <= TARGET ? 'met' : 'MISSED'}); live heap ${heap.toFixed(2)}x`,
    );
  }
} finally {
  server.child.stdin!.end();
  rmSync(folder, { recursive: true, force: true });
}
