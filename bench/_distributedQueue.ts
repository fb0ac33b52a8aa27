/**
 * The run queue on a real nats-server (loopback): runs per second of a batch
 * of short runs on 1, 2 and 4 workers (ratio to one worker), and the time from
 * a worker's SIGKILL to its run being resumed by another worker, against the
 * lease length. Needs nats-server on PATH and a build (npm run build).
 */
import { cpus } from 'node:os';
import { submitRun } from '../src/actors/experiment/queue/submitRun.js';
import { loadRunFile } from '../src/config/runFile.js';
import { openJetStreamRunQueue } from '../src/ports/nats/jetStreamRunQueue.js';
import { openSqliteStore } from '../src/ports/store/sqlite/sqliteStore.js';
import { startNatsServer } from '../test/support/natsServer.js';
import {
  allSucceeded,
  fleetEnv,
  queueExperiment,
  readStore,
  startWorker,
  storedEpisodes,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../test/support/queueFleet.js';

const batch = 16;
const rounds = 3;

async function stopAll(workers: readonly WorkerProcess[]): Promise<void> {
  for (const worker of workers) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.exited));
}

async function runsPerSecond(workerCount: number): Promise<number> {
  const server = await startNatsServer();
  const experiment = queueExperiment(0);
  const workers = Array.from({ length: workerCount }, (_, index) =>
    startWorker({
      nats: server.url,
      store: experiment.store,
      name: `w${index}`,
      cwd: experiment.folder,
    }),
  );
  try {
    // every worker is up (its greeting printed) before the clock starts
    await waitUntil(
      'the workers are up',
      () => workers.every((worker) => worker.stderr().includes('taking runs')),
      { everyMs: 20, attempts: 1500 },
    ).catch((error: Error) => {
      // a worker that could not start says why
      throw new Error(`${error.message}: ${workers.map((worker) => worker.stderr()).join(' | ')}`);
    });
    // submitted from this process: no `arena submit` start-up competes with the workers for the cores
    const spec = await loadRunFile(experiment.runFile);
    const queue = await openJetStreamRunQueue({ url: server.url });
    const store = openSqliteStore(experiment.store);
    const started = performance.now();
    for (let index = 0; index < batch; index++) await submitRun(spec, { store, queue });
    await queue.close();
    store.close();
    await waitUntil('the batch succeeded', () => allSucceeded(experiment.store, batch), {
      everyMs: 20,
    });
    return batch / ((performance.now() - started) / 1000);
  } finally {
    await stopAll(workers);
    await server.dispose();
  }
}

async function killToResumeMs(): Promise<number> {
  const server = await startNatsServer();
  const experiment = queueExperiment(3);
  const options = { nats: server.url, store: experiment.store, cwd: experiment.folder };
  const doomed = startWorker({ ...options, name: 'doomed' });
  try {
    const result = await submit(experiment.runFile, options);
    const runId = result.stdout.trim();
    await waitUntil('mid-run', () => storedEpisodes(experiment.store, runId) >= 6, { everyMs: 10 });
    // the successor is up and idle before the kill: what is measured is the queue and the lease
    const successor = startWorker({ ...options, name: 'successor' });
    await waitUntil('the successor is up', () => successor.stderr().includes('taking runs'), {
      everyMs: 10,
    });
    const killedAt = performance.now();
    doomed.child.kill('SIGKILL');
    await waitUntil(
      'resumed',
      () => readStore(experiment.store, (store) => store.resumes(runId).length) === 1,
      { everyMs: 5, attempts: 5000 },
    );
    const resumedMs = performance.now() - killedAt;
    await waitUntil('the run succeeded', () => allSucceeded(experiment.store, 1));
    await stopAll([successor]);
    return resumedMs;
  } finally {
    if (doomed.child.exitCode === null && doomed.child.signalCode === null)
      doomed.child.kill('SIGKILL');
    await doomed.exited;
    await server.dispose();
  }
}

const cores = cpus().length;
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
console.log(
  `${batch} short runs (${cores} cores), submitted to workers already waiting; median of ${rounds} rounds, 1/2/4 workers alternated (the machine is shared, so load slows all alike):`,
);
const rates = new Map<number, number[]>([
  [1, []],
  [2, []],
  [4, []],
]);
for (let round = 0; round < rounds; round++) {
  for (const [workers, samples] of rates) samples.push(await runsPerSecond(workers));
}
const baseline = median(rates.get(1) as number[]);
for (const [workers, samples] of rates) {
  const rate = median(samples);
  console.log(
    `  ${workers} worker(s): ${rate.toFixed(2)} runs/s, ${(rate / baseline).toFixed(2)}x one worker (rounds: ${samples.map((each) => each.toFixed(1)).join(', ')})`,
  );
}
const leaseMs = Number(fleetEnv.ARENA_LEASE_TTL_MS);
const samples: number[] = [];
for (let trial = 0; trial < 3; trial++) samples.push(await killToResumeMs());
const worst = Math.max(...samples);
console.log(
  `SIGKILL of a worker mid-run -> resumed by another (lease ${leaseMs} ms, ack wait ${leaseMs * 1.5} ms): ` +
    samples.map((ms) => `${ms.toFixed(0)} ms (${(ms / leaseMs).toFixed(2)}x lease)`).join(', ') +
    ` (target: within 2x the lease: ${worst <= 2 * leaseMs ? 'met' : 'missed'})`,
);
console.log(
  `  why it stops scaling: ${cores} cores run the workers, the runs' CPU-bound episodes and the store's one write lock`,
);
