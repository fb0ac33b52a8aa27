import type { Command } from 'commander';
import { requeueRuns } from '../../actors/experiment/queue/requeueRuns.js';
import { requeueCases } from '../../actors/judging/requeueCases.js';
import { openJudgeStore } from '../../ports/store/judgeStoreUri.js';
import { openStoreAsync, parseStoreUri } from '../../ports/store/storeUri.js';
import { ExitCode } from '../errors.js';
import {
  type NatsCredentialFlags,
  type NatsTarget,
  natsTargetOf,
  withNatsOptions,
} from './natsTarget.js';
import { casesLines, runsLine } from './requeueLines.js';
import { openJudgeQueue, openRunQueue } from './runQueueOpen.js';

/**
 * Register `arena requeue`: the store is the truth, the queue a cache of it.
 * After a NATS server came back without its JetStream folder (or a stream
 * was purged), put back every run and unjudged case the store still expects.
 *
 * @example
 * ```ts
 * registerRequeueCommand(program);
 * // $ arena requeue --nats nats://127.0.0.1:4222 --store sqlite:runs.db
 * // put back 3 runs (2 still queued)
 * // put back 1520 cases of evaluation run quality-20260301T101500-3fa2 (0 still queued)
 * ```
 */
export function registerRequeueCommand(program: Command): void {
  const command = program
    .command('requeue')
    .description(
      'put back on the NATS queues every queued run, running run under a lapsed lease and unjudged case of a running evaluation run the store holds',
    );
  withNatsOptions(command, 'the NATS server with JetStream (default: ARENA_NATS)')
    .option(
      '--store <uri>',
      'the store shared with the workers (default: ARENA_STORE, else sqlite:.arena/arena.db)',
    )
    .action(async (options: NatsCredentialFlags & { store?: string }) => {
      const nats = natsTargetOf(options);
      const location = parseStoreUri(options.store ?? process.env.ARENA_STORE);
      for (const line of await requeueFromStore(nats, location)) process.stdout.write(`${line}\n`);
      process.exitCode = ExitCode.ok;
    });
}

/**
 * Put back every run and unjudged case the store at `location` expects on
 * the queues of `nats`; one line of what was put back per queue and run.
 *
 * @example
 * ```ts
 * await requeueFromStore({ url: 'nats://127.0.0.1:4222', credentials: {} }, parseStoreUri('sqlite:runs.db'));
 * // ['put back 0 runs (4 still queued)']
 * ```
 */
export async function requeueFromStore(
  nats: NatsTarget,
  location: ReturnType<typeof parseStoreUri>,
): Promise<string[]> {
  const lines: string[] = [];
  const runQueue = await openRunQueue(nats);
  try {
    const store = await openStoreAsync(location);
    try {
      lines.push(runsLine(await requeueRuns(store, runQueue)));
    } finally {
      store.close();
    }
  } finally {
    await runQueue.close();
  }
  const judgeQueue = await openJudgeQueue(nats);
  try {
    const judgeStore = await openJudgeStore(location);
    try {
      lines.push(...casesLines(await requeueCases(judgeStore, judgeQueue)));
    } finally {
      await judgeStore.close();
    }
  } finally {
    await judgeQueue.close();
  }
  return lines;
}
