/**
 * What a fleet costs in CPU, not wall time (on 2 cores the wall time cannot
 * show scaling; the CPU per unit of work can): the CPU seconds (user +
 * system) of every arena process of a batch, summed, per judgement and per
 * episode. Every batch starts fresh processes, as a real fleet does.
 * - Judging: `FLEET_COST_CASES` (default 16,000) cases against a chat server
 *   in its own process (20 ms latency), no cache, 16 judgements in flight:
 *   one process without a store (`arena judge`), one process with a
 *   PostgreSQL store (`arena judge --store`), and 2 fresh workers with the
 *   submitter (`arena judge --nats --store --wait`). Targets: the fleet <=
 *   1.2x the one process without a store, the one process with a store <=
 *   1.1x; a worker's start-up <= 0.3 s of CPU (until it says it is taking
 *   work); PostgreSQL <= 0.55 ms and nats-server <= 0.185 ms of CPU per
 *   judgement of the fleet; NATS messages per case (nats-server's `/varz`
 *   in_msgs and out_msgs) <= 2 each way.
 * - Episodes: `RUN_COST_RUNS` (default 6; 0 skips them) runs of the slow test
 *   experiment (SQLite store), each `arena submit`ted, taken by 1 worker, then by 2.
 * Beside them, what the servers spent (nats-server, and PostgreSQL's
 * postmaster with its backends, from /proc). Each arena process reports its
 * own CPU at exit (`_cpu.mjs`); a worker's start-up and idle polling count,
 * as they do in a real fleet. `FLEET_COST_PROFILE=<dir>` writes each arena
 * process's `--cpu-prof` there. `FLEET_COST_WORKERS` (default 2) sets the
 * fleet's workers, each judging 16 / workers at once: 1 shows what a second
 * fresh worker adds (its start-up and V8 warm-up). `FLEET_COST_PG_PROFILE=1`
 * prints PostgreSQL's sessions, commits and top statements, and the judge store
 * statements each command sent, by kind, per case. Needs nats-server and PostgreSQL (as the
 * tests install them) and a build (npm run build).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openJudgeStore } from '../src/ports/store/judgeStoreUri.js';
import { parseStoreUri } from '../src/ports/store/storeUri.js';
import { startNatsServer } from '../test/support/natsServer.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { cli, queueExperiment, readStore, waitUntil } from '../test/support/queueFleet.js';
import { casesFile, configFile, startJudgeServer } from './_judgeFiles.js';
import { postgresProfile, profiledSettings } from './_postgresProfile.js';

const LATENCY_MS = 20;
const IN_FLIGHT = 16;
const WORKERS = Number(process.env.FLEET_COST_WORKERS ?? 2);
const CASES = Number(process.env.FLEET_COST_CASES ?? 16_000);
const RUNS = Number(process.env.RUN_COST_RUNS ?? 6);
const PROFILE = process.env.FLEET_COST_PROFILE;
const PG_PROFILE = process.env.FLEET_COST_PG_PROFILE === '1';
const targets = {
  fleet: 1.2,
  withStore: 1.1,
  startUpSeconds: 0.3,
  postgresMs: 0.55,
  natsMs: 0.185,
  messagesEachWay: 2,
  statementsPerCase: 0.3,
};
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

/**
 * The judge store statements the arena processes sent since the file was last
 * emptied, by command and kind (the statement's start), most first; empties it.
 */
function statementKinds(): { command: string; count: number; kind: string }[] {
  const file = `${cpuFile}.sql`;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // none sent
  }
  writeFileSync(file, '');
  const counts = new Map<string, { command: string; count: number; kind: string }>();
  for (const line of text.split('\n')) {
    const [command = '', count = '0', kind = ''] = line.split('\t');
    if (kind === '') continue;
    const key = `${command}\t${kind}`;
    const seen = counts.get(key) ?? { command, count: 0, kind };
    counts.set(key, { ...seen, count: seen.count + Number(count) });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count);
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

/** A free loopback port, for nats-server's monitoring endpoint. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nats-server's message counters (`/varz`): every message clients sent it, and it sent them. */
async function natsMessages(monitorPort: number): Promise<{ in: number; out: number }> {
  const response = await fetch(`http://127.0.0.1:${monitorPort}/varz`);
  const varz = (await response.json()) as { in_msgs: number; out_msgs: number };
  return { in: varz.in_msgs, out: varz.out_msgs };
}

function arena(args: readonly string[], cwd: string): ChildProcess {
  const nodeArgs = PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`];
  return spawn(process.execPath, [...nodeArgs, cli, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function finished(child: ChildProcess, what: string): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${what} exited ${code}: ${stderr.slice(-2000)}`);
}

interface Worker {
  readonly child: ChildProcess;
  /** Whether it says it is taking work; throws when it exited. */
  ready(): boolean;
  /** Its CPU seconds when it first said so. */
  startUp: number | null;
}

function worker(args: readonly string[], cwd: string): Worker {
  const child = arena(['worker', ...args], cwd);
  let stderr = '';
  const started: Worker = {
    child,
    startUp: null,
    ready: () => {
      if (child.exitCode !== null) throw new Error(`arena worker exited: ${stderr.slice(-2000)}`);
      return started.startUp !== null;
    },
  };
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    // read at once: the CPU it took to come up, before any work
    if (started.startUp === null && /: taking /.test(stderr))
      started.startUp = procCpu(child.pid!, false);
  });
  return started;
}

/** Wait until every worker says it is taking work; one that exits fails the benchmark at once. */
async function workersUp(workers: readonly Worker[]): Promise<void> {
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

interface Cost {
  readonly arena: number;
  /** Arena CPU seconds by command (`judge`, `worker`, `submit`). */
  readonly byCommand: Record<string, number>;
  readonly processes: number;
  /** Statements sent to the judge store by every arena process. */
  readonly statements: number;
  readonly nats: number;
  readonly postgres: number;
  readonly messages: { in: number; out: number };
}

interface Servers {
  readonly natsPid: number | null;
  readonly monitorPort: number;
  readonly postgresPort: number;
}

/** Run `work`, then the CPU every arena process of it reported and what the servers spent meanwhile. */
async function costOf(label: string, work: () => Promise<void>, servers: Servers): Promise<Cost> {
  await pgProfile?.start();
  arenaCpuSeconds();
  statementKinds();
  const natsBefore = servers.natsPid === null ? 0 : procCpu(servers.natsPid, false);
  const postgresBefore = postgresCpu(servers.postgresPort);
  const messagesBefore = await natsMessages(servers.monitorPort);
  await work();
  const { seconds, processes, byCommand, statements } = arenaCpuSeconds();
  const messagesAfter = await natsMessages(servers.monitorPort);
  const postgresSeconds = postgresCpu(servers.postgresPort) - postgresBefore;
  await pgProfile?.print(label, CASES);
  if (PG_PROFILE) {
    for (const { command, count, kind } of statementKinds().slice(0, 8)) {
      console.log(
        `  client statements, ${label}: ${(count / CASES).toFixed(3)}/case ${String(count).padStart(6)} by ${command.padEnd(6)} ${kind}`,
      );
    }
  }
  return {
    arena: seconds,
    byCommand,
    processes,
    statements,
    nats: (servers.natsPid === null ? 0 : procCpu(servers.natsPid, false)) - natsBefore,
    postgres: postgresSeconds,
    messages: {
      in: messagesAfter.in - messagesBefore.in,
      out: messagesAfter.out - messagesBefore.out,
    },
  };
}

const ms = (seconds: number, units: number): string =>
  `${((seconds / units) * 1000).toFixed(3)} ms`;
const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

/** One process judging the cases, with `extra` arguments (a store). */
function judgeAlone(cases: string, config: string, extra: readonly string[]): Promise<void> {
  return finished(
    arena(
      [
        'judge',
        cases,
        '--config',
        config,
        '--no-cache',
        '--concurrency',
        String(IN_FLIGHT),
        '--out',
        path.join(folder, 'alone.jsonl'),
        ...extra,
      ],
      folder,
    ),
    `arena judge ${extra.join(' ')}`,
  );
}

/** 2 fresh workers and the submitter judging the cases; the workers' start-up CPU. */
async function judgeOnFleet(
  cases: string,
  config: string,
  store: string,
  natsUrl: string,
  startUps: number[],
): Promise<void> {
  const workers = Array.from({ length: WORKERS }, (_, index) =>
    worker(
      [
        '--nats',
        natsUrl,
        '--store',
        store,
        '--name',
        `c${index}`,
        '--judge-concurrency',
        String(IN_FLIGHT / WORKERS),
        '--judge-only',
      ],
      folder,
    ),
  );
  try {
    await workersUp(workers);
    for (const each of workers) startUps.push(each.startUp ?? 0);
    await finished(
      arena(
        [
          'judge',
          cases,
          '--config',
          config,
          '--nats',
          natsUrl,
          '--store',
          store,
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
}

const monitorPort = await freePort();
const nats = await startNatsServer({ config: `http: "127.0.0.1:${monitorPort}"` });
const postgres = await startTestPostgres(PG_PROFILE ? { settings: profiledSettings } : {});
const pgProfile = PG_PROFILE ? await postgresProfile(postgres) : null;
const model = await startJudgeServer(LATENCY_MS);
try {
  const servers = { natsPid: nats.pid(), monitorPort, postgresPort: postgres.port };
  const config = configFile(folder, model.baseURL);
  const cases = casesFile(folder, CASES);

  const plain = await costOf('no store', () => judgeAlone(cases, config, []), servers);
  const aloneStore = await postgres.createDatabase('cost_alone');
  const withStore = await costOf(
    'one process',
    () => judgeAlone(cases, config, ['--store', aloneStore]),
    servers,
  );
  const fleetStore = await postgres.createDatabase('cost_fleet');
  // a fleet's store is there before its workers: its schema is made now, not by a worker's start-up
  await (await openJudgeStore(parseStoreUri(fleetStore))).close();
  const startUps: number[] = [];
  const fleet = await costOf(
    'fleet',
    () => judgeOnFleet(cases, config, fleetStore, nats.url, startUps),
    servers,
  );

  const per = (cost: Cost): number => cost.arena / CASES;
  const storeRatio = per(withStore) / per(plain);
  const fleetRatio = per(fleet) / per(plain);
  const slowestStartUp = Math.max(...startUps);
  const postgresPer = fleet.postgres / CASES;
  const natsPer = fleet.nats / CASES;
  const messagesIn = fleet.messages.in / CASES;
  const messagesOut = fleet.messages.out / CASES;
  console.log(
    `judging ${CASES} cases, ${IN_FLIGHT} in flight, ${LATENCY_MS} ms model latency, fresh processes: CPU of all arena processes (start-up included) per judgement`,
  );
  console.log(`  one process, no store (arena judge): ${ms(plain.arena, CASES)}`);
  console.log(
    `  one process, PostgreSQL store (arena judge --store): ${ms(withStore.arena, CASES)} = ${storeRatio.toFixed(2)}x (target <= ${targets.withStore}x: ${verdict(storeRatio <= targets.withStore)}); PostgreSQL ${ms(withStore.postgres, CASES)}`,
  );
  const perCase = (cost: Cost): string => {
    const statements = cost.statements / CASES;
    return `${statements.toFixed(3)} (target <= ${targets.statementsPerCase}: ${verdict(statements <= targets.statementsPerCase)})`;
  };
  console.log(
    `  judge store statements per case (client-issued): one process ${perCase(withStore)}, ${WORKERS} workers + submitter ${perCase(fleet)}`,
  );
  console.log(
    `  ${WORKERS} fresh workers + submitter (arena judge --nats --store --wait): ${ms(fleet.arena, CASES)} = ${fleetRatio.toFixed(2)}x (target <= ${targets.fleet}x: ${verdict(fleetRatio <= targets.fleet)}); submitter ${ms(fleet.byCommand.judge ?? 0, CASES)}, workers ${ms(fleet.byCommand.worker ?? 0, CASES)}`,
  );
  console.log(
    `  a worker's start-up CPU: ${startUps.map((each) => `${each.toFixed(2)} s`).join(', ')} (target <= ${targets.startUpSeconds} s: ${verdict(slowestStartUp <= targets.startUpSeconds)})`,
  );
  console.log(
    `  beside the fleet: PostgreSQL ${ms(postgresPer, 1)} a judgement (target <= ${targets.postgresMs} ms: ${verdict(postgresPer * 1000 <= targets.postgresMs)}), nats-server ${ms(natsPer, 1)} (target <= ${targets.natsMs} ms: ${verdict(natsPer * 1000 <= targets.natsMs)})`,
  );
  console.log(
    `  NATS messages per case: ${messagesIn.toFixed(2)} in, ${messagesOut.toFixed(2)} out (target <= ${targets.messagesEachWay} each way: ${verdict(messagesIn <= targets.messagesEachWay && messagesOut <= targets.messagesEachWay)})`,
  );

  const perEpisode: number[] = [];
  for (const count of RUNS > 0 ? [1, 2] : []) {
    const experiment = queueExperiment(1);
    const cost = await costOf(
      `episodes, ${count} workers`,
      async () => {
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
      },
      servers,
    );
    const episodes = readStore(experiment.store, (store) =>
      store.listRuns().reduce((sum, run) => sum + store.episodes(run.runId).length, 0),
    );
    perEpisode.push(cost.arena / episodes);
    console.log(
      `episodes, ${count} worker${count > 1 ? 's' : ''}: ${RUNS} runs, ${episodes} episodes, ${cost.arena.toFixed(2)} s of arena CPU (${cost.processes} processes) = ${ms(cost.arena, episodes)} an episode (nats-server ${ms(cost.nats, episodes)})`,
    );
  }
  if (perEpisode.length === 2)
    console.log(
      `  CPU per episode, 2 workers / 1: ${(perEpisode[1]! / perEpisode[0]!).toFixed(2)}x`,
    );
} finally {
  model.child.stdin!.end();
  await Promise.all([nats.dispose(), postgres.stop()]);
  rmSync(folder, { recursive: true, force: true });
}
