/**
 * What a fleet costs in CPU, not wall time (on 2 cores the wall time cannot
 * show scaling; the CPU per unit of work can): the CPU seconds (user +
 * system) of every arena process of a batch, summed, per judgement and per
 * episode.
 * - Judging: `JUDGE_COST_CASES` (default 2,000) cases against a chat server in
 *   its own process (5 ms latency), verdicts in PostgreSQL, no cache. One
 *   process (`arena judge --store`) against 2 workers and the submitter
 *   (`arena judge --nats --store --wait`), 32 judgements in flight in both.
 *   At `JUDGE_COST_CASES` and 3x as many: the whole CPU per judgement
 *   (start-up included) and the CPU of the extra cases alone (what a
 *   judgement costs once the processes are up). Target: the fleet's CPU per
 *   judgement <= 1.2x the one process's.
 * - Episodes: `RUN_COST_RUNS` (default 6) runs of the slow test experiment
 *   (SQLite store), each `arena submit`ted, taken by 1 worker, then by 2.
 * Beside them, what the servers spent (nats-server, and PostgreSQL's
 * postmaster with its backends, from /proc): the per-operation costs
 * docs/thousand-workers.md scales up. Each arena process reports its own CPU
 * at exit (`_cpu.mjs`); a worker's start-up and idle polling count, as they do
 * in a real fleet. Needs nats-server and PostgreSQL (as the tests install
 * them) and a build (npm run build).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNatsServer } from '../test/support/natsServer.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { cli, queueExperiment, readStore, waitUntil } from '../test/support/queueFleet.js';
import { startJudgeServer } from './_judgeFiles.js';

const LATENCY_MS = 5;
const IN_FLIGHT = 32;
const CASES = Number(process.env.JUDGE_COST_CASES ?? 2000);
const RUNS = Number(process.env.RUN_COST_RUNS ?? 6);
const TARGET = 1.2;
const STATEMENTS_TARGET = 0.3;
const here = import.meta.dirname;
const folder = mkdtempSync(path.join(tmpdir(), 'arena-bench-fleet-cost-'));
const cpuFile = path.join(folder, 'cpu.txt');
const env = {
  ...process.env,
  NO_COLOR: '1',
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${path.join(here, '_cpu.mjs')}`.trim(),
  ARENA_BENCH_CPU_FILE: cpuFile,
};

/** CPU seconds the arena processes reported since the file was last emptied; empties it. */
function arenaCpuSeconds(): {
  seconds: number;
  processes: number;
  byCommand: Record<string, number>;
  /** Statements the processes sent to a PostgreSQL judge store. */
  statements: number;
} {
  let text = '';
  try {
    text = readFileSync(cpuFile, 'utf8');
  } catch {
    // none reported yet
  }
  writeFileSync(cpuFile, '');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const byCommand: Record<string, number> = {};
  let micros = 0;
  let statements = 0;
  for (const line of lines) {
    const [, used, command = '', sent = '0'] = line.split(' ');
    micros += Number(used);
    statements += Number(sent);
    byCommand[command] = (byCommand[command] ?? 0) + Number(used) / 1e6;
  }
  return { seconds: micros / 1e6, processes: lines.length, byCommand, statements };
}

const ticks = 100; // USER_HZ on Linux
/** CPU seconds of a process from /proc (with its reaped children when `withChildren`). */
function procCpu(pid: number, withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    return (utime + stime + (withChildren ? cutime + cstime : 0)) / ticks;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server on `port` (its postmaster) and its live backends: their CPU seconds. */
function postgresCpu(port: number): number {
  let postmaster: number | null = null;
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (
        command[0]?.endsWith('postgres') &&
        command.includes('-p') &&
        command.includes(String(port))
      )
        postmaster = pid;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  if (postmaster === null) return 0;
  let seconds = procCpu(postmaster, true);
  for (const [pid, parent] of parents) if (parent === postmaster) seconds += procCpu(pid, false);
  return seconds;
}

function arena(args: readonly string[], cwd: string): ChildProcess {
  return spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
}

async function finished(child: ChildProcess, what: string): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${what} exited ${code}: ${stderr.slice(-2000)}`);
}

function worker(
  args: readonly string[],
  cwd: string,
): { child: ChildProcess; ready: () => boolean } {
  const child = arena(['worker', ...args], cwd);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return {
    child,
    ready: () => {
      if (child.exitCode !== null) throw new Error(`arena worker exited: ${stderr.slice(-2000)}`);
      return stderr.includes('taking runs');
    },
  };
}

/** Wait until every worker says it is taking work; one that exits fails the benchmark at once. */
async function workersUp(workers: readonly { ready: () => boolean }[]): Promise<void> {
  for (let attempt = 0; attempt < 3000; attempt++) {
    if (workers.every((each) => each.ready())) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the workers did not come up');
}

async function stop(workers: readonly { child: ChildProcess }[]): Promise<void> {
  await Promise.all(
    workers.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      await closed;
    }),
  );
}

function casesFile(count: number): string {
  const file = path.join(folder, 'cases.jsonl');
  const lines = Array.from({ length: count }, (_, index) =>
    JSON.stringify({
      case_id: `case-${index}`,
      input: { question: `What is ${index} + 1?` },
      candidate_output: String(index + 1),
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

interface Cost {
  readonly arena: number;
  /** Arena CPU seconds by command (`judge`, `worker`, `submit`). */
  readonly byCommand: Record<string, number>;
  readonly processes: number;
  /** Statements sent to the judge store by every arena process. */
  readonly statements: number;
  readonly nats: number;
  readonly postgres: number;
}

/** Run `work`, then the CPU every arena process of it reported and what the servers spent meanwhile. */
async function costOf(
  work: () => Promise<void>,
  servers: { natsPid: number | null; postgresPort: number },
): Promise<Cost> {
  arenaCpuSeconds();
  const natsBefore = servers.natsPid === null ? 0 : procCpu(servers.natsPid, false);
  const postgresBefore = postgresCpu(servers.postgresPort);
  await work();
  const { seconds, processes, byCommand, statements } = arenaCpuSeconds();
  return {
    arena: seconds,
    byCommand,
    processes,
    statements,
    nats: (servers.natsPid === null ? 0 : procCpu(servers.natsPid, false)) - natsBefore,
    postgres: postgresCpu(servers.postgresPort) - postgresBefore,
  };
}

const ms = (seconds: number, units: number): string =>
  `${((seconds / units) * 1000).toFixed(3)} ms`;

/** The arena CPU of judging `count` cases in one process, then with 2 workers and the submitter. */
async function judgingCost(
  count: number,
  config: string,
  servers: { natsPid: number | null; postgresPort: number },
): Promise<{ alone: Cost; fleet: Cost }> {
  const cases = casesFile(count);
  const aloneStore = await postgres.createDatabase(`cost_alone_${count}`);
  const alone = await costOf(
    () =>
      finished(
        arena(
          [
            'judge',
            cases,
            '--config',
            config,
            '--store',
            aloneStore,
            '--no-cache',
            '--concurrency',
            String(IN_FLIGHT),
            '--out',
            path.join(folder, 'alone.jsonl'),
          ],
          folder,
        ),
        'arena judge --store',
      ),
    servers,
  );
  const fleetStore = await postgres.createDatabase(`cost_fleet_${count}`);
  const fleet = await costOf(async () => {
    const workers = [1, 2].map((index) =>
      worker(
        [
          '--nats',
          nats.url,
          '--store',
          fleetStore,
          '--name',
          `c${index}`,
          '--judge-concurrency',
          String(IN_FLIGHT / 2),
        ],
        folder,
      ),
    );
    try {
      await workersUp(workers);
      await finished(
        arena(
          [
            'judge',
            cases,
            '--config',
            config,
            '--nats',
            nats.url,
            '--store',
            fleetStore,
            '--wait',
            '--no-cache',
            '--max-in-flight',
            String(IN_FLIGHT),
            '--out',
            path.join(folder, 'fleet.jsonl'),
          ],
          folder,
        ),
        'arena judge --nats --wait',
      );
    } finally {
      await stop(workers);
    }
  }, servers);
  return { alone, fleet };
}

const nats = await startNatsServer();
const postgres = await startTestPostgres();
const model = await startJudgeServer(LATENCY_MS);
try {
  const servers = { natsPid: nats.pid(), postgresPort: postgres.port };
  const config = path.join(folder, 'judge.yaml');
  writeFileSync(
    config,
    [
      'rubric: { version: "1", text: "Score it." }',
      `models: { bench: { provider: openai, model: bench-model, base_url: "${model.baseURL}" } }`,
      'judges: { bench: { model: bench, timeout_seconds: 30, max_attempts: 2 } }',
      '',
    ].join('\n'),
  );

  const small = await judgingCost(CASES, config, servers);
  const large = await judgingCost(CASES * 3, config, servers);
  console.log(
    `judging, ${IN_FLIGHT} in flight, ${LATENCY_MS} ms model latency: CPU of all arena processes (start-up included)`,
  );
  for (const [count, { alone, fleet }] of [
    [CASES, small],
    [CASES * 3, large],
  ] as const) {
    console.log(
      `  ${count} cases: one process (arena judge --store) ${alone.arena.toFixed(2)} s = ${ms(alone.arena, count)} a judgement (PostgreSQL ${ms(alone.postgres, count)}); 2 workers + submitter ${fleet.arena.toFixed(2)} s = ${ms(fleet.arena, count)} (submitter ${ms(fleet.byCommand.judge ?? 0, count)}, workers ${ms(fleet.byCommand.worker ?? 0, count)}; nats-server ${ms(fleet.nats, count)}, PostgreSQL ${ms(fleet.postgres, count)}): ${(fleet.arena / alone.arena).toFixed(2)}x`,
    );
  }
  // the extra cases' CPU: what a judgement costs once the processes are up
  const extra = CASES * 2;
  const aloneMarginal = (large.alone.arena - small.alone.arena) / extra;
  const fleetMarginal = (large.fleet.arena - small.fleet.arena) / extra;
  const total = large.fleet.arena / large.alone.arena;
  const marginal = fleetMarginal / aloneMarginal;
  console.log(
    `  CPU per judgement, fleet / one process: ${total.toFixed(2)}x at ${CASES * 3} cases with start-up (target <= ${TARGET} ${total <= TARGET ? 'met' : 'MISSED'}); ${marginal.toFixed(2)}x per extra judgement (${ms(fleetMarginal, 1)} against ${ms(aloneMarginal, 1)}; target <= ${TARGET} ${marginal <= TARGET ? 'met' : 'MISSED'})`,
  );
  const perCase = (cost: Cost, count: number): string => {
    const statements = cost.statements / count;
    return `${statements.toFixed(3)} (target <= ${STATEMENTS_TARGET} ${statements <= STATEMENTS_TARGET ? 'met' : 'MISSED'})`;
  };
  console.log(
    `  judge store statements per case at ${CASES * 3} cases: one process ${perCase(large.alone, CASES * 3)}, 2 workers + submitter ${perCase(large.fleet, CASES * 3)}`,
  );
  console.log(
    `  servers per extra judgement: nats-server ${ms((large.fleet.nats - small.fleet.nats) / extra, 1)}, PostgreSQL ${ms((large.fleet.postgres - small.fleet.postgres) / extra, 1)} (fleet), ${ms((large.alone.postgres - small.alone.postgres) / extra, 1)} (one process)`,
  );

  const perEpisode: number[] = [];
  for (const count of [1, 2]) {
    const experiment = queueExperiment(1);
    const cost = await costOf(async () => {
      const workers = Array.from({ length: count }, (_, index) =>
        worker(
          [
            '--nats',
            nats.url,
            '--store',
            `sqlite:${experiment.store}`,
            '--name',
            `r${count}-${index}`,
          ],
          experiment.folder,
        ),
      );
      try {
        await workersUp(workers);
        for (let run = 0; run < RUNS; run++) {
          await finished(
            arena(
              [
                'submit',
                experiment.runFile,
                '--nats',
                nats.url,
                '--store',
                `sqlite:${experiment.store}`,
              ],
              experiment.folder,
            ),
            'arena submit',
          );
        }
        await waitUntil(
          'every run succeeded',
          () =>
            readStore(experiment.store, (store) => {
              const runs = store.listRuns();
              return runs.length === RUNS && runs.every((run) => run.status === 'succeeded');
            }),
          { everyMs: 100, attempts: 6000 },
        );
      } finally {
        await stop(workers);
      }
    }, servers);
    const episodes = readStore(experiment.store, (store) =>
      store.listRuns().reduce((sum, run) => sum + store.episodes(run.runId).length, 0),
    );
    perEpisode.push(cost.arena / episodes);
    console.log(
      `episodes, ${count} worker${count > 1 ? 's' : ''}: ${RUNS} runs, ${episodes} episodes, ${cost.arena.toFixed(2)} s of arena CPU (${cost.processes} processes) = ${ms(cost.arena, episodes)} an episode (nats-server ${ms(cost.nats, episodes)})`,
    );
  }
  console.log(`  CPU per episode, 2 workers / 1: ${(perEpisode[1]! / perEpisode[0]!).toFixed(2)}x`);
} finally {
  model.child.stdin!.end();
  await Promise.all([nats.dispose(), postgres.stop()]);
  rmSync(folder, { recursive: true, force: true });
}
