/**
 * Judging at scale, measured in one run on loopback (issue #13): 20,000 cases
 * against a chat server with 50 ms latency (its own process), through 1, 2
 * and 4 `arena worker`s at a fleet-wide cap of 128 judgements in flight,
 * verdicts in PostgreSQL, cases on NATS JetStream. Each figure is the whole
 * `arena judge --nats --store --wait` (submit, judge, read back, summary) as
 * a ratio to the ideal (cases x latency / cap) and to a one-process `arena
 * judge --concurrency 128` of the same cases. Then the submitting process's
 * memory at 20k and 100k cases (it streams: flat): the most live heap after a GC
 * every 250 ms (what it retains), beside its peak RSS. Targets: <= 1.3x the
 * ideal with 4 workers; submitter memory at 100k within 10% of 20k.
 * Needs nats-server and PostgreSQL (as the tests install them) and a build (npm run build).
 * `JUDGE_FLEET_CASES` sets the batch (default 20000).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type JudgeWorkerProcess,
  startJudgeWorker,
  stopWorkers,
} from '../test/support/judgeFleet.js';
import { startNatsServer } from '../test/support/natsServer.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { cli, waitUntil } from '../test/support/queueFleet.js';
import { casesFile, configFile, startJudgeServer } from './_judgeFiles.js';

const LATENCY_MS = 50;
const CAP = 128;
const CASES = Number(process.env.JUDGE_FLEET_CASES ?? 20_000);
const here = import.meta.dirname;
/** `JUDGE_FLEET_PARTS=wall` or `=memory` runs one half. */
const parts = new Set((process.env.JUDGE_FLEET_PARTS ?? 'wall,memory').split(','));

/** Run `arena …` to its end; wall ms and the peak RSS it reported. */
async function timed(
  args: readonly string[],
  cwd: string,
): Promise<{
  wallMs: number;
  maxRssKb: number;
  liveHeap: number;
  code: number | null;
  stderr: string;
}> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', path.join(here, '_memory.mjs'), cli, ...args],
    {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const wallMs = performance.now() - started;
  const memory = /max-rss-kb (\d+) max-live-heap (\d+)/.exec(stderr);
  return {
    wallMs,
    maxRssKb: memory ? Number(memory[1]) : Number.NaN,
    liveHeap: memory ? Number(memory[2]) : Number.NaN,
    code,
    stderr,
  };
}

const nats = await startNatsServer();
const postgres = await startTestPostgres();
const server = await startJudgeServer(LATENCY_MS);
const folder = mkdtempSync(path.join(tmpdir(), 'arena-bench-judge-fleet-'));
try {
  const cases = casesFile(folder, CASES);
  const config = configFile(folder, server.baseURL);
  const ideal = (CASES * LATENCY_MS) / CAP;
  if (parts.has('wall')) await wallTimes(cases, config, ideal);
  if (parts.has('memory')) await submitterMemory(config);
} finally {
  server.child.stdin!.end();
  await Promise.all([nats.dispose(), postgres.stop()]);
  rmSync(folder, { recursive: true, force: true });
}

async function wallTimes(cases: string, config: string, ideal: number): Promise<void> {
  const alone = await timed(
    [
      'judge',
      cases,
      '--config',
      config,
      '--concurrency',
      String(CAP),
      '--out',
      path.join(folder, 'alone.jsonl'),
    ],
    folder,
  );
  if (alone.code !== 0) throw new Error(`arena judge failed: ${alone.stderr}`);
  console.log(
    `${CASES} cases, ${LATENCY_MS} ms latency, cap ${CAP}: ideal ${(ideal / 1000).toFixed(2)} s`,
  );
  console.log(
    `one process (arena judge --concurrency ${CAP}): ${(alone.wallMs / 1000).toFixed(2)} s = ${(alone.wallMs / ideal).toFixed(2)}x ideal`,
  );
  console.log('workers  wall s  / ideal  / one process  target');
  for (const count of [1, 2, 4]) {
    const store = await postgres.createDatabase(`bench_fleet_${count}`);
    const workers: JudgeWorkerProcess[] = Array.from({ length: count }, (_, index) =>
      startJudgeWorker({
        nats: nats.url,
        store,
        name: `b${index}`,
        cwd: folder,
        judgeConcurrency: CAP,
      }),
    );
    try {
      await waitUntil(
        'the workers are up',
        () => workers.every((worker) => worker.stderr().includes('judge jobs')),
        {
          everyMs: 20,
          attempts: 1500,
        },
      );
      const run = await timed(
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
          '--no-cache',
          '--max-in-flight',
          String(CAP),
          '--out',
          path.join(folder, `fleet-${count}.jsonl`),
        ],
        folder,
      );
      if (run.code !== 0) throw new Error(`arena judge --nats failed: ${run.stderr}`);
      const ratio = run.wallMs / ideal;
      const target = count === 4 ? `<= 1.3 ${ratio <= 1.3 ? 'met' : 'MISSED'}` : '';
      console.log(
        `${String(count).padStart(7)}  ${(run.wallMs / 1000).toFixed(2).padStart(6)}  ${ratio.toFixed(2).padStart(7)}  ${(run.wallMs / alone.wallMs).toFixed(2).padStart(12)}  ${target}`,
      );
    } finally {
      await stopWorkers(workers);
    }
  }
}

/** The submitter alone (no --wait, no workers): its memory at 20k and 100k cases. */
async function submitterMemory(config: string): Promise<void> {
  const memory: number[] = [];
  for (const count of [20_000, 100_000]) {
    const store = await postgres.createDatabase(`bench_submit_${count}`);
    const run = await timed(
      ['judge', casesFile(folder, count), '--config', config, '--nats', nats.url, '--store', store],
      folder,
    );
    if (run.code !== 0) throw new Error(`arena judge --nats (submit) failed: ${run.stderr}`);
    memory.push(run.liveHeap);
    console.log(
      `submitter, ${count} cases: most live heap ${(run.liveHeap / 1024 / 1024).toFixed(1)} MiB (a GC every 250 ms), peak RSS ${(run.maxRssKb / 1024).toFixed(1)} MiB, ${(run.wallMs / 1000).toFixed(2)} s`,
    );
  }
  const growth = memory[1]! / memory[0]!;
  console.log(
    `submitter live heap 100k / 20k: ${growth.toFixed(3)} (target <= 1.10 ${growth <= 1.1 ? 'met' : 'MISSED'})`,
  );
}
