import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { startNatsServer } from '../support/natsServer.js';
import {
  allSucceeded,
  queueExperiment,
  readStore,
  startWorker,
  submit,
  type WorkerProcess,
  waitUntil,
} from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

/** One fault of a schedule: once the batch has stored `afterEpisodes` episodes, stop a worker. */
interface Fault {
  readonly afterEpisodes: number;
  readonly signal: 'SIGKILL' | 'SIGTERM';
  readonly worker: 0 | 1;
}

const schedule: fc.Arbitrary<Fault[]> = fc
  .array(
    fc.record({
      afterEpisodes: fc.integer({ min: 1, max: 40 }),
      signal: fc.constantFrom('SIGKILL' as const, 'SIGTERM' as const),
      worker: fc.constantFrom(0 as const, 1 as const),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((faults) => [...faults].sort((a, b) => a.afterEpisodes - b.afterEpisodes));

let reference: ReturnType<typeof runRecords>;
beforeAll(async () => {
  const experiment = queueExperiment(1);
  const run = await runArena(['run', experiment.runFile, '--store', `sqlite:${experiment.store}`], {
    cwd: experiment.folder,
  });
  expect(run.code).toBe(0);
  reference = readStore(experiment.store, (store) =>
    runRecords(store, store.listRuns()[0]?.runId as string),
  );
});

const batchEpisodes = (store: string) =>
  readStore(store, (opened) =>
    opened.listRuns().reduce((total, run) => total + opened.episodes(run.runId).length, 0),
  );

describe('runs on a queue under worker faults', () => {
  it('any schedule of worker kills and restarts over a batch loses no record and duplicates none', async () => {
    await fc.assert(
      fc.asyncProperty(schedule, async (faults) => {
        const server = await startNatsServer();
        const experiment = queueExperiment(1);
        const every: WorkerProcess[] = [];
        const start = (name: string) => {
          const started = startWorker({
            nats: server.url,
            store: experiment.store,
            name,
            cwd: experiment.folder,
          });
          every.push(started);
          return started;
        };
        try {
          const runIds: string[] = [];
          for (let index = 0; index < 2; index++) {
            const result = await submit(experiment.runFile, {
              nats: server.url,
              store: experiment.store,
              cwd: experiment.folder,
            });
            expect(result.code, result.stderr).toBe(0);
            runIds.push(result.stdout.trim());
          }
          const fleet = [start('w0'), start('w1')];
          for (const [index, fault] of faults.entries()) {
            await waitUntil(
              'the fault point',
              () =>
                allSucceeded(experiment.store, 2) ||
                batchEpisodes(experiment.store) >= fault.afterEpisodes,
              { everyMs: 10, attempts: 3000 },
            );
            const victim = fleet[fault.worker] as WorkerProcess;
            victim.child.kill(fault.signal);
            await victim.exited;
            fleet[fault.worker] = start(`w${fault.worker}-${index + 1}`);
          }
          await waitUntil('the batch succeeded', () => allSucceeded(experiment.store, 2));
          for (const runId of runIds) {
            expect(readStore(experiment.store, (store) => runRecords(store, runId))).toEqual(
              reference,
            );
          }
        } finally {
          for (const each of every) {
            if (each.child.exitCode === null && each.child.signalCode === null)
              each.child.kill('SIGKILL');
            await each.exited;
          }
          await server.dispose();
        }
      }),
      { numRuns: 3, seed: 20261201 },
    );
  });
});
