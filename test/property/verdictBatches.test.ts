import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelJudge } from '../../src/actors/judging/judges.js';
import { runJudgeWorker } from '../../src/actors/judging/judgeWorker.js';
import type { JudgeContext } from '../../src/domain/judge/context.js';
import type { ModelProvider } from '../../src/ports/model/modelProvider.js';
import { casesOfMessage } from '../../src/ports/queue/caseBatches.js';
import type { JudgeQueue, QueuedCaseDelivery } from '../../src/ports/queue/judgeQueue.js';
import type { QueueDelivery } from '../../src/ports/queue/runQueue.js';
import { caseKeyOf, type JudgeStore } from '../../src/ports/store/judgeStore.js';
import { openSqliteJudgeStore } from '../../src/ports/store/sqlite/sqliteJudgeStore.js';
import { baseSettings, newRun, PASSED, subject } from '../unit/judge/fixtures.js';

/**
 * How one worker process ends: it dies (nothing of it is heard again: no
 * ack, no commit) at its `at`-th batch, before the commit or right after it
 * (the reply never came back); or that batch's commit fails once with a lost
 * connection (the worker retries it); or it runs until the queue is empty.
 */
type Crash =
  | { readonly kind: 'diesBeforeCommit' | 'diesAfterCommit' | 'commitFails'; readonly at: number }
  | { readonly kind: 'none' };

interface Scenario {
  readonly cases: number;
  /** Worker processes one after the other, each taking over what the last left unacked. */
  readonly workers: readonly {
    readonly concurrency: number;
    readonly maxVerdicts: number;
    readonly maxWaitMs: number;
    readonly crash: Crash;
  }[];
  /** After the `n`-th take, a message still being judged is also handed out again (an ack wait ran out). */
  readonly redeliverAfterTakes: readonly number[];
  /** The most cases a message carries (the submitter's batches). */
  readonly casesPerMessage: number;
}

const crashes: fc.Arbitrary<Crash> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('diesBeforeCommit', 'diesAfterCommit', 'commitFails'),
    at: fc.integer({ min: 1, max: 4 }),
  }) as fc.Arbitrary<Crash>,
  fc.constant({ kind: 'none' } as const),
);

const scenarios: fc.Arbitrary<Scenario> = fc.record({
  cases: fc.integer({ min: 1, max: 14 }),
  workers: fc.array(
    fc.record({
      concurrency: fc.integer({ min: 1, max: 5 }),
      maxVerdicts: fc.integer({ min: 1, max: 6 }),
      maxWaitMs: fc.integer({ min: 0, max: 4 }),
      crash: crashes,
    }),
    { minLength: 1, maxLength: 4 },
  ),
  redeliverAfterTakes: fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 3 }),
  casesPerMessage: fc.integer({ min: 1, max: 6 }),
});

/** A lost connection, as the pg driver reports one: a server failure the worker waits out. */
function connectionLost(): Error {
  return Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
}

/** A message of the queue: a few consecutive cases of the run, delivered and acked together. */
interface Message {
  readonly id: number;
  readonly caseIds: readonly string[];
  readonly deliveries: number;
}

/**
 * One JetStream-like work queue in memory: messages of several cases, their
 * deliveries (one per case, as `casesOfMessage` makes them), acks and
 * redeliveries, and what was acked when.
 */
class MemoryQueue {
  readonly ready: Message[] = [];
  readonly held = new Map<number, Message>();
  readonly acked = new Set<string>();
  readonly ackedMessages = new Set<number>();
  /** Cases whose message was acked while the store did not hold their verdict: must stay empty. */
  readonly ackedBeforeCommit: string[] = [];
  takes = 0;

  constructor(
    private readonly store: JudgeStore,
    private readonly runId: string,
    private readonly contextOf: (caseId: string) => JudgeContext,
    private readonly redeliverAfterTakes: ReadonlySet<number>,
    private readonly casesPerMessage: number,
  ) {}

  /** What a worker process sees: once it died, its acks and naks never reach the server. */
  forProcess(isDead: () => boolean): JudgeQueue {
    const deliver = (message: Message): QueuedCaseDelivery[] => {
      const whole: QueueDelivery = {
        deliveryCount: message.deliveries,
        working: () => undefined,
        ack: async () => {
          if (isDead()) throw connectionLost();
          // the ack reaches the server now: is every one of its cases' verdicts committed?
          for (const caseId of message.caseIds) {
            const key = caseKeyOf(this.contextOf(caseId));
            if (!(await this.store.hasVerdict(this.runId, key, baseSettings.name))) {
              this.ackedBeforeCommit.push(caseId);
            }
          }
          for (const caseId of message.caseIds) this.acked.add(caseId);
          this.ackedMessages.add(message.id);
          this.held.delete(message.id);
        },
        nak: () => {
          if (isDead() || this.ackedMessages.has(message.id) || !this.held.has(message.id)) return;
          this.held.delete(message.id);
          this.ready.push({ ...message, deliveries: message.deliveries + 1 });
        },
      };
      const cases = casesOfMessage(whole, message.caseIds.length);
      return message.caseIds.map((caseId, index) => ({
        ...cases[index]!,
        job: { evaluationRunId: this.runId, caseKey: caseKeyOf(this.contextOf(caseId)) },
      }));
    };
    const queue = this;
    return {
      submit: async () => ({ duplicate: false }),
      async *take(max: number) {
        queue.takes++;
        if (queue.redeliverAfterTakes.has(queue.takes)) {
          const [message] = [...queue.held.values()];
          if (message !== undefined) {
            queue.ready.push({ ...message, deliveries: message.deliveries + 1 });
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
        // as the JetStream queue pulls: as many messages as the free slots hold cases, one at least
        const messages = Math.max(1, Math.floor(max / queue.casesPerMessage));
        for (let count = 0; count < messages && !isDead(); count++) {
          const next = queue.ready.shift();
          if (next === undefined) return;
          if (queue.ackedMessages.has(next.id)) {
            count--;
            continue;
          }
          queue.held.set(next.id, next);
          yield* deliver(next);
        }
      },
      purge: async () => undefined,
      announceCancel: () => undefined,
      onCancel: () => () => undefined,
      announcePause: () => undefined,
      onPause: () => () => undefined,
      close: async () => undefined,
    };
  }

  /** A process died: what it held comes back after its ack wait. */
  reclaim(): void {
    for (const message of this.held.values()) {
      this.ready.push({ ...message, deliveries: message.deliveries + 1 });
    }
    this.held.clear();
  }
}

/** The store as one worker process sees it, with its crash planned at a batch's commit. */
function faultyStore(
  store: JudgeStore,
  crash: Crash,
  worker: { dead: boolean; die: () => void },
): JudgeStore {
  let batches = 0;
  const alive = <Args extends unknown[], Result>(
    call: (...args: Args) => Promise<Result>,
  ): ((...args: Args) => Promise<Result>) => {
    return async (...args) => {
      if (worker.dead) throw new Error('this process is dead');
      return call(...args);
    };
  };
  const wrapped = Object.fromEntries(
    Object.entries(store).map(([name, method]) => [
      name,
      alive((...args: unknown[]) => (method as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as unknown as JudgeStore;
  return {
    ...wrapped,
    recordVerdicts: alive(async (verdicts) => {
      batches++;
      if (crash.kind === 'none' || crash.at !== batches) return store.recordVerdicts(verdicts);
      if (crash.kind === 'commitFails') throw connectionLost();
      if (crash.kind === 'diesBeforeCommit') {
        worker.die();
        throw new Error('this process is dead');
      }
      await store.recordVerdicts(verdicts);
      worker.die();
      throw new Error('this process died before the reply came');
    }),
  };
}

/** A model answering after 0-2 ms, so judgements finish in mixed order. */
const provider: ModelProvider = {
  name: 'openai',
  model: 'judge-model',
  invoke: () =>
    new Promise((resolve) =>
      setTimeout(() => resolve({ content: PASSED }), Math.floor(Math.random() * 3)),
    ),
};

let store: JudgeStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function check(scenario: Scenario): Promise<void> {
  await store?.close();
  store = openSqliteJudgeStore(':memory:');
  const real = store;
  const run = await real.createEvaluationRun(newRun);
  const runId = run.evaluationRunId;
  const contextOf = (caseId: string) =>
    subject({ evaluationRunId: runId, caseId, subjectId: caseId });
  const queue = new MemoryQueue(
    real,
    runId,
    contextOf,
    new Set(scenario.redeliverAfterTakes),
    scenario.casesPerMessage,
  );
  // the worker judges the case the store holds under the message's key, as on the fleet
  const caseIds = Array.from({ length: scenario.cases }, (_, index) => `case-${index}`);
  await real.recordCases(
    runId,
    caseIds.map((caseId) => ({
      caseKey: caseKeyOf(contextOf(caseId)),
      context: contextOf(caseId),
    })),
  );
  // consecutive cases, a message of up to casesPerMessage each
  for (let first = 0; first < caseIds.length; first += scenario.casesPerMessage) {
    const ids = caseIds.slice(first, first + scenario.casesPerMessage);
    queue.ready.push({ id: first, caseIds: ids, deliveries: 1 });
  }
  await real.setCasesTotal(runId, scenario.cases, 0);
  const judge = createModelJudge({ ...baseSettings, provider });

  // the planned processes, then a last one that runs until every case is acked
  const plans = [
    ...scenario.workers,
    { ...scenario.workers[0]!, crash: { kind: 'none' } as Crash },
  ];
  for (const plan of plans) {
    if (queue.acked.size === scenario.cases) break;
    const stop = new AbortController();
    const worker = {
      dead: false,
      die: () => {
        worker.dead = true;
        stop.abort();
      },
    };
    const working = runJudgeWorker({
      store: faultyStore(real, plan.crash, worker),
      queue: queue.forProcess(() => worker.dead),
      concurrency: plan.concurrency,
      ackWaitMs: 30_000,
      name: 'w',
      signal: stop.signal,
      judgeFor: async () => judge,
      verdictBatch: { maxVerdicts: plan.maxVerdicts, maxWaitMs: plan.maxWaitMs },
    }).catch(() => undefined);
    // a process without a crash is stopped once the queue is done; a crashing one may finish first
    while (!worker.dead && queue.acked.size < scenario.cases) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    stop.abort();
    await working;
    queue.reclaim();
  }

  expect(queue.ackedBeforeCommit).toEqual([]);
  expect(queue.acked.size).toBe(scenario.cases);
  const stored = await real.verdicts(runId, { limit: 1000 });
  expect(stored).toHaveLength(scenario.cases);
  expect(new Set(stored.map((verdict) => verdict.caseKey)).size).toBe(scenario.cases);
  expect(await real.verdictCount(runId)).toBe(scenario.cases);
  expect((await real.getEvaluationRun(runId)).status).toBe('succeeded');
}

describe('verdicts committed in batches, through worker crashes (property)', () => {
  it("over random batch sizes, cases per message, crash points and redeliveries: one verdict per case, the count equals the rows, and no message is acked before all its cases' verdicts committed", async () => {
    await fc.assert(fc.asyncProperty(scenarios, check), { numRuns: 40, seed: 20261203 });
  }, 120_000);
});
