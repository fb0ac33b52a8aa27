import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelJudge } from '../../src/actors/judging/judges.js';
import { runJudgeWorker } from '../../src/actors/judging/judgeWorker.js';
import type { JudgeContext } from '../../src/domain/judge/context.js';
import type { ModelProvider } from '../../src/ports/model/modelProvider.js';
import type { JudgeQueue, QueuedCaseDelivery } from '../../src/ports/queue/judgeQueue.js';
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
  /** After the `n`-th take, a case still being judged is also handed out again (an ack wait ran out). */
  readonly redeliverAfterTakes: readonly number[];
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
});

/** A lost connection, as the pg driver reports one: a server failure the worker waits out. */
function connectionLost(): Error {
  return Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
}

/** One JetStream-like work queue in memory: deliveries, acks and redeliveries, and what was acked when. */
class MemoryQueue {
  readonly ready: { caseId: string; deliveries: number }[] = [];
  readonly held = new Map<string, number>();
  readonly acked = new Set<string>();
  /** Cases acked while the store did not hold their verdict: must stay empty. */
  readonly ackedBeforeCommit: string[] = [];
  takes = 0;

  constructor(
    private readonly store: JudgeStore,
    private readonly runId: string,
    private readonly contextOf: (caseId: string) => JudgeContext,
    private readonly redeliverAfterTakes: ReadonlySet<number>,
  ) {}

  /** What a worker process sees: once it died, its acks and naks never reach the server. */
  forProcess(isDead: () => boolean): JudgeQueue {
    const deliver = (caseId: string, deliveries: number): QueuedCaseDelivery => ({
      job: { evaluationRunId: this.runId, caseKey: caseKeyOf(this.contextOf(caseId)) },
      deliveryCount: deliveries,
      working: () => undefined,
      ack: async () => {
        if (isDead()) throw connectionLost();
        const key = caseKeyOf(this.contextOf(caseId));
        // the ack reaches the server now: is the case's verdict committed?
        if (!(await this.store.hasVerdict(this.runId, key, baseSettings.name))) {
          this.ackedBeforeCommit.push(caseId);
        }
        this.acked.add(caseId);
        this.held.delete(caseId);
      },
      nak: () => {
        if (isDead() || this.acked.has(caseId) || !this.held.has(caseId)) return;
        this.held.delete(caseId);
        this.ready.push({ caseId, deliveries: deliveries + 1 });
      },
    });
    const queue = this;
    return {
      submit: async () => ({ duplicate: false }),
      async *take(max: number) {
        queue.takes++;
        if (queue.redeliverAfterTakes.has(queue.takes)) {
          const [caseId, deliveries] = [...queue.held][0] ?? [];
          if (caseId !== undefined && deliveries !== undefined) {
            queue.ready.push({ caseId, deliveries: deliveries + 1 });
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
        for (let count = 0; count < max && !isDead(); count++) {
          const next = queue.ready.shift();
          if (next === undefined) return;
          if (queue.acked.has(next.caseId)) {
            count--;
            continue;
          }
          queue.held.set(next.caseId, next.deliveries);
          yield deliver(next.caseId, next.deliveries);
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
    for (const [caseId, deliveries] of this.held) {
      this.ready.push({ caseId, deliveries: deliveries + 1 });
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
  const queue = new MemoryQueue(real, runId, contextOf, new Set(scenario.redeliverAfterTakes));
  // the worker judges the case the store holds under the message's key, as on the fleet
  const caseIds = Array.from({ length: scenario.cases }, (_, index) => `case-${index}`);
  await real.recordCases(
    runId,
    caseIds.map((caseId) => ({
      caseKey: caseKeyOf(contextOf(caseId)),
      context: contextOf(caseId),
    })),
  );
  for (const caseId of caseIds) queue.ready.push({ caseId, deliveries: 1 });
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
  it('over random batch sizes, crash points and redeliveries: one verdict per case, the count equals the rows, and no case is acked before its verdict committed', async () => {
    await fc.assert(fc.asyncProperty(scenarios, check), { numRuns: 40, seed: 20261203 });
  }, 120_000);
});
