import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { trialEvidence } from '../../src/domain/sweep/evidence.js';
import type { SweepPruner } from '../../src/domain/sweep/types.js';
import { initialSweepProgress, type SweepContext, sweepMachine } from '../../src/machines/sweep.js';

/** A simulated trial: its objective at each checkpoint of its run, and whether its run has a barrier after its last one. */
interface SimulatedTrial {
  readonly values: readonly number[];
  readonly barrierAfterLast: boolean;
}

const objectives = [{ metric: 'objective', weights: { op: 1 }, direction: 'maximize' as const }];
const checkpointsOf = (trial: SimulatedTrial, count: number) =>
  trial.values.slice(0, count).map((value) => ({
    outcomes: [
      { agentName: 'op', evaluationId: 'e', evaluationEpisode: 0, metrics: { objective: value } },
    ],
  }));

/** How far a trial's run gets from where it stands with its hold: held at the hold, or to its end. */
function runSegment(
  trial: SimulatedTrial,
  holdAt: number | null,
): { held: boolean; checkpoints: number } {
  const length = trial.values.length;
  if (holdAt !== null && (length > holdAt || (length === holdAt && trial.barrierAfterLast))) {
    return { held: true, checkpoints: holdAt };
  }
  return { held: false, checkpoints: length };
}

/** What a sweep decided: the part of its progress that must not depend on timing. */
const table = (progress: SweepContext) => ({
  trials: progress.trials.map((trial) => [
    trial.index,
    trial.status,
    trial.prunedAtRung,
    trial.evidence,
  ]),
  decisions: progress.decisions,
});

/**
 * Run a sweep of simulated trials: `workers` trials at once, the next to finish picked by `order`,
 * the sweep process killed before the steps in `kills` (restarted from what it persisted, and the
 * trials' records read again as `runSweep` does).
 */
function sweep(
  trials: readonly SimulatedTrial[],
  pruner: SweepPruner,
  workers: number,
  order: readonly number[],
  kills: ReadonlySet<number>,
) {
  const blank = initialSweepProgress(
    { pruner, objectives },
    trials.map(() => []),
  );
  const input: SweepContext = {
    ...blank,
    trials: blank.trials.map((trial) => ({
      ...trial,
      runId: `run-${trial.index}`,
      status: 'running',
    })),
  };
  // the store: each trial's records and hold, and the machine's last persisted snapshot
  const records = trials.map(() => ({ checkpoints: 0, ended: false }));
  const holds = trials.map(() => pruner.rungs[0] ?? null);
  let persisted: unknown = null;
  let runnable: number[] = [];
  const start = (snapshot: unknown) => {
    const actor = createActor(sweepMachine, {
      input,
      ...(snapshot !== null ? { snapshot: snapshot as never } : {}),
    });
    actor.on('trial.released', (event) => {
      holds[event.index] = event.holdAt;
      runnable.push(event.index);
    });
    actor.start();
    return actor;
  };
  const persist = (actor: ReturnType<typeof start>) => {
    persisted = structuredClone(actor.getPersistedSnapshot());
  };
  let actor = start(null);
  const reconcile = () => {
    runnable = [];
    for (const trial of actor.getSnapshot().context.trials) {
      if (trial.status !== 'running') continue;
      const record = records[trial.index]!;
      const evidence = trialEvidence(
        checkpointsOf(trials[trial.index]!, record.checkpoints),
        pruner,
        objectives,
      );
      const hold = holds[trial.index] ?? null;
      if (record.ended) {
        actor.send({
          type: 'trial.ended',
          index: trial.index,
          status: 'completed',
          evidence,
          error: null,
        });
        persist(actor);
      } else if (hold !== null && record.checkpoints >= hold) {
        actor.send({ type: 'trial.held', index: trial.index, evidence });
        persist(actor);
      } else runnable.push(trial.index);
    }
  };
  reconcile();
  const inFlight: number[] = [];
  for (let step = 0; actor.getSnapshot().status === 'active'; step++) {
    if (step > 10_000) throw new Error('the sweep never ended');
    if (kills.has(step)) {
      // killed: what was in flight is lost with the process; the records and the snapshot stay
      actor.stop();
      inFlight.length = 0;
      actor = start(persisted);
      reconcile();
      continue;
    }
    while (inFlight.length < workers && runnable.length > 0) inFlight.push(runnable.shift()!);
    if (inFlight.length === 0) throw new Error('nothing to run, and the sweep has not ended');
    const [index] = inFlight.splice((order[step % order.length] ?? 0) % inFlight.length, 1) as [
      number,
    ];
    const segment = runSegment(trials[index]!, holds[index] ?? null);
    records[index] = { checkpoints: segment.checkpoints, ended: !segment.held };
    const evidence = trialEvidence(
      checkpointsOf(trials[index]!, segment.checkpoints),
      pruner,
      objectives,
    );
    if (segment.held) actor.send({ type: 'trial.held', index, evidence });
    else actor.send({ type: 'trial.ended', index, status: 'completed', evidence, error: null });
    persist(actor);
  }
  return actor.getSnapshot().context;
}

const trialArb = fc.record({
  values: fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 9 }),
  barrierAfterLast: fc.boolean(),
});
const prunerArb: fc.Arbitrary<SweepPruner> = fc.oneof(
  fc.record({
    kind: fc.constant('successive_halving' as const),
    rungs: fc.constant([2, 4, 6]),
    eta: fc.integer({ min: 2, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('median' as const),
    rungs: fc.constant([3, 6]),
    window: fc.integer({ min: 1, max: 3 }),
    minTrials: fc.integer({ min: 1, max: 3 }),
  }),
);

describe('the sweep machine', () => {
  it('takes the same decisions for any completion order, any number of workers and any kill-and-resume schedule', () => {
    fc.assert(
      fc.property(
        fc.array(trialArb, { minLength: 1, maxLength: 8 }),
        prunerArb,
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 4 }),
        (trials, pruner, workers, order, kills) => {
          const reference = sweep(trials, pruner, 1, [0], new Set());
          expect(table(sweep(trials, pruner, workers, order, new Set(kills)))).toEqual(
            table(reference),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('ends every trial, completed or pruned at a rung it reached', () => {
    fc.assert(
      fc.property(
        fc.array(trialArb, { minLength: 1, maxLength: 8 }),
        prunerArb,
        (trials, pruner) => {
          const progress = sweep(trials, pruner, 2, [1, 0], new Set());
          for (const trial of progress.trials) {
            expect(['completed', 'pruned']).toContain(trial.status);
            if (trial.status === 'pruned') {
              const rung = pruner.rungs[trial.prunedAtRung ?? -1] ?? Infinity;
              expect(trial.evidence?.checkpoints).toBe(rung);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('restored from any persisted snapshot mid-sweep, goes on to the uninterrupted decisions (a kill at every store write)', () => {
    fc.assert(
      fc.property(
        fc.array(trialArb, { minLength: 2, maxLength: 6 }),
        prunerArb,
        (trials, pruner) => {
          const reference = table(sweep(trials, pruner, 1, [0], new Set()));
          for (let kill = 0; kill < 16; kill++) {
            expect(table(sweep(trials, pruner, 1, [0], new Set([kill])))).toEqual(reference);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
