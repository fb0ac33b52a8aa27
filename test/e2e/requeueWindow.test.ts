import path from 'node:path';
import {
  type JetStreamManager,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import {
  fleetEnv,
  killAll,
  queueExperiment,
  spawnWorker,
  submit,
  waitUntil,
} from '../support/queueFleet.js';

// JetStream forgets a message id after its stream's duplicate window; a work-queue stream keeps the
// message itself until it is acked. A requeue after the window must not publish a second copy.
const windowMs = 1000;
let nats: NatsServer;
let nc: NatsConnection;
let jsm: JetStreamManager;
beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  jsm = await jetstreamManager(nc);
  // arena keeps a stream it finds as it is: these two have a one-second duplicate window
  for (const [name, subject] of [
    ['ARENA_RUNS', 'arena.runs.queued'],
    ['ARENA_JUDGE', 'arena.judge.cases.>'],
  ] as const) {
    await jsm.streams.add({
      name,
      subjects: [subject],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      duplicate_window: windowMs * 1_000_000,
    });
  }
});
afterAll(async () => {
  await nc?.close();
  await nats?.dispose();
});

const pastTheWindow = () => new Promise((resolve) => setTimeout(resolve, windowMs * 1.5));

/** The message ids a stream holds, read by sequence. */
async function idsIn(stream: string): Promise<string[]> {
  const { state } = await jsm.streams.info(stream);
  const ids: string[] = [];
  for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq });
    if (message !== null) ids.push(message.header.get('Nats-Msg-Id'));
  }
  return ids.sort();
}

/** Remove a stream's first message, as a lost queue would. */
async function loseFirst(stream: string): Promise<string> {
  const { state } = await jsm.streams.info(stream);
  const message = await jsm.streams.getMessage(stream, { seq: state.first_seq });
  await jsm.streams.deleteMessage(stream, state.first_seq);
  return message?.header.get('Nats-Msg-Id') as string;
}

describe('arena requeue after the duplicate window has passed', () => {
  it('publishes nothing the queue still holds and only what it lost, and says so (runs and cases)', async () => {
    const experiment = queueExperiment(0);
    const store = ['--store', `sqlite:${experiment.store}`];
    const runIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const submitted = await submit(experiment.runFile, {
        nats: nats.url,
        store: experiment.store,
        cwd: experiment.folder,
      });
      expect(submitted.code, submitted.stderr).toBe(0);
      runIds.push(submitted.stdout.trim());
    }
    const queued = await runArena(
      [
        'judge',
        path.join(repoRoot, 'examples/judge/cases.jsonl'),
        '--config',
        path.join(repoRoot, 'examples/judge/replay.yaml'),
        '--nats',
        nats.url,
        ...store,
        // two cases a message: the four cases are two messages
        '--max-in-flight',
        '2',
      ],
      { cwd: experiment.folder },
    );
    expect(queued.code, queued.stderr).toBe(0);
    const evaluationRunId = /as evaluation run (\S+)/.exec(queued.stderr)?.[1] as string;
    const caseIds = await idsIn('ARENA_JUDGE');
    expect(caseIds).toHaveLength(2);
    const requeue = () =>
      runArena(['requeue', '--nats', nats.url, ...store], { cwd: experiment.folder });

    await pastTheWindow();
    const untouched = await requeue();
    expect(untouched.code, untouched.stderr).toBe(0);
    expect(untouched.stdout).toBe(
      `put back 0 runs (3 still queued)\nput back 0 cases of evaluation run ${evaluationRunId} (4 still queued)\n`,
    );
    expect(await idsIn('ARENA_RUNS')).toEqual([...runIds].sort());
    expect(await idsIn('ARENA_JUDGE')).toEqual(caseIds);

    const lostRun = await loseFirst('ARENA_RUNS');
    const lostCases = await loseFirst('ARENA_JUDGE');
    await pastTheWindow();
    const mended = await requeue();
    expect(mended.code, mended.stderr).toBe(0);
    expect(mended.stdout).toBe(
      `put back 1 run (2 still queued): ${lostRun}\nput back 2 cases of evaluation run ${evaluationRunId} (2 still queued)\n`,
    );
    expect(await idsIn('ARENA_RUNS')).toEqual([...runIds].sort());
    // the requeue gives no cap, and the fleet's allows one message: the lost cases come back one a message
    const mendedIds = await idsIn('ARENA_JUDGE');
    expect(mendedIds).toHaveLength(3);
    expect(mendedIds).toContain(caseIds.find((id) => id !== lostCases));
    expect(mendedIds.filter((id) => !caseIds.includes(id))).toHaveLength(2);
    for (const id of mendedIds.filter((each) => !caseIds.includes(each)))
      expect(id.startsWith(`${evaluationRunId}:`) && !id.includes(':cases-')).toBe(true);

    // a worker puts back the same way at start, before it takes anything
    await pastTheWindow();
    const worker = spawnWorker(['--nats', nats.url, ...store, '--name', 'w1'], {
      cwd: experiment.folder,
      env: fleetEnv,
    });
    try {
      await waitUntil('w1 put cases back', () => worker.stderr().includes('cases of evaluation'));
      expect(worker.stderr()).toContain('arena worker w1: put back 0 runs (3 still queued)\n');
      expect(worker.stderr()).toContain(
        `arena worker w1: put back 0 cases of evaluation run ${evaluationRunId} (4 still queued)\n`,
      );
    } finally {
      await killAll([worker]);
    }
  }, 60_000);
});
