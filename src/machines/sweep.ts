import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import {
  holdOf,
  nextDecision,
  type SweepProgress,
  sweepEnded,
  type TrialEvidence,
  type TrialProgress,
} from '../domain/sweep/progress.js';
import type { RungDecision } from '../domain/sweep/types.js';

/**
 * The sweep's lifecycle. Its context is the sweep's progress (trials, rungs,
 * decisions), plain JSON, persisted in the store at every event; it decides a
 * rung the moment every trial that can reach it is held there, so its
 * decisions are a function of the trials' records, whatever order they came
 * in. It runs no trial itself: it emits which trials to release (with the
 * checkpoint count they hold at next) and which it pruned; the sweep runner
 * (`runSweep`) runs them and sends back what their records say.
 */

/** What the runner tells the machine. */
export type SweepEvent =
  /** A trial's run was created (queued) or taken up. */
  | { readonly type: 'trial.started'; readonly index: number; readonly runId: string }
  /** A trial's run held at its rung: its evidence as the records say. */
  | { readonly type: 'trial.held'; readonly index: number; readonly evidence: TrialEvidence }
  /** A trial's run ended by itself: completed (succeeded, or ended by its termination rules) or failed. */
  | {
      readonly type: 'trial.ended';
      readonly index: number;
      readonly status: 'completed' | 'failed';
      readonly evidence: TrialEvidence;
      readonly error: string | null;
    }
  | { readonly type: 'cancel' };

/** What the machine tells the runner (`actor.on(type, …)`). */
export type SweepEmitted =
  /** Run (or go on running) this trial, holding at `holdAt` checkpoints (`null`: to its end). */
  | { readonly type: 'trial.released'; readonly index: number; readonly holdAt: number | null }
  | { readonly type: 'trial.pruned'; readonly index: number; readonly rungIndex: number }
  | { readonly type: 'rung.decided'; readonly decision: RungDecision };

/** The machine's context: the sweep's progress, plain JSON (see `SweepProgress`). */
export type SweepContext = SweepProgress;

const replaceTrial = (
  progress: SweepProgress,
  index: number,
  change: (trial: TrialProgress) => TrialProgress,
): SweepProgress => ({
  ...progress,
  trials: progress.trials.map((trial) => (trial.index === index ? change(trial) : trial)),
});

/**
 * The sweep's lifecycle: trials run or wait at their rung's barrier
 * (`awaitingTrials`); each trial that holds or ends is checked against the
 * next rung (`checkingRung`), decided (`decidingRung`) once every trial that
 * can reach it is held there; `finished` once every trial ended.
 *
 * @example
 * ```ts
 * const actor = createActor(sweepMachine, { input: progress }); // every trial running towards rung 0
 * actor.on('trial.released', ({ index, holdAt }) => console.log(`run trial ${index} to ${holdAt}`));
 * actor.start();
 * actor.send({ type: 'trial.held', index: 0, evidence });
 * ```
 */
export const sweepMachine = setup({
  types: {
    context: {} as SweepContext,
    input: {} as SweepProgress,
    events: {} as SweepEvent,
    emitted: {} as SweepEmitted,
    output: {} as SweepProgress,
  },
  actions: {
    recordStarted: assign(({ context, event }) => {
      assertEvent(event, 'trial.started');
      return replaceTrial(context, event.index, (trial) => ({
        ...trial,
        runId: event.runId,
        status: trial.status === 'pending' ? 'running' : trial.status,
      }));
    }),
    recordHeld: assign(({ context, event }) => {
      assertEvent(event, 'trial.held');
      return replaceTrial(context, event.index, (trial) =>
        trial.status === 'running' ? { ...trial, status: 'held', evidence: event.evidence } : trial,
      );
    }),
    recordEnded: assign(({ context, event }) => {
      assertEvent(event, 'trial.ended');
      return replaceTrial(context, event.index, (trial) =>
        trial.status === 'running' || trial.status === 'held'
          ? { ...trial, status: event.status, evidence: event.evidence, error: event.error }
          : trial,
      );
    }),
    decideRung: enqueueActions(({ context, enqueue }) => {
      const applied = nextDecision(context);
      if (applied === null) return;
      enqueue.assign(() => applied.progress);
      enqueue.emit({ type: 'rung.decided', decision: applied.decision });
      for (const index of applied.decision.pruned) {
        enqueue.emit({ type: 'trial.pruned', index, rungIndex: applied.decision.rungIndex });
      }
      for (const index of applied.released) {
        enqueue.emit({
          type: 'trial.released',
          index,
          holdAt: holdOf(context.pruner, applied.decision.rungIndex + 1),
        });
      }
    }),
  },
  guards: {
    everyTrialEnded: ({ context }) => sweepEnded(context),
    rungComplete: ({ context }) => nextDecision(context) !== null,
  },
}).createMachine({
  id: 'sweep',
  context: ({ input }) => input,
  initial: 'sweeping',
  states: {
    sweeping: {
      initial: 'checkingRung',
      on: { cancel: { target: 'cancelled' } },
      states: {
        // trials run (or wait at their rung's barrier) until the next one holds or ends
        awaitingTrials: {
          on: {
            'trial.started': { actions: 'recordStarted' },
            'trial.held': { target: 'checkingRung', actions: 'recordHeld' },
            'trial.ended': { target: 'checkingRung', actions: 'recordEnded' },
          },
        },
        // a rung is decided once every trial that can reach it is held there
        checkingRung: {
          always: [
            { guard: 'everyTrialEnded', target: '#sweep.finished' },
            { guard: 'rungComplete', target: 'decidingRung' },
            { target: 'awaitingTrials' },
          ],
        },
        decidingRung: {
          entry: 'decideRung',
          always: { target: 'checkingRung' },
        },
      },
    },
    finished: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => context,
});

/**
 * A new sweep's progress: every trial pending at rung 0.
 *
 * @example
 * ```ts
 * const progress = initialSweepProgress(spec, expandTrials(spec));
 * progress.trials.length; // 8
 * ```
 */
export function initialSweepProgress(
  spec: Pick<SweepProgress, 'pruner' | 'objectives'>,
  trials: readonly TrialProgress['parameters'][],
): SweepProgress {
  return {
    pruner: spec.pruner,
    objectives: spec.objectives,
    decisions: [],
    trials: trials.map((parameters, index) => ({
      index,
      parameters,
      runId: null,
      status: 'pending',
      rungIndex: 0,
      prunedAtRung: null,
      evidence: null,
      error: null,
    })),
  };
}
