/**
 * Type-level checks of the public API, compiled by `npx tsc --noEmit` (never
 * run): each `@ts-expect-error` line fails the build if the types stop
 * catching the mistake, and the lines without one need no cast.
 */
import { createActor } from 'xstate';
// Imported as a host app does, from the package's root entry.
import {
  type CheckpointDecision,
  type CheckpointVerdict,
  type EvaluationOutcome,
  type EvaluationTerminationInput,
  evaluationTerminationMachine,
  type RunEvent,
  type TerminationAgentsInput,
} from '../../src/index.js';

// The rules as the YAML writes them (snake_case) type-check with no cast.
const agents: TerminationAgentsInput = {
  SAC: {
    success: {
      metric: 'objective',
      threshold: 0.8,
      direction: 'greater_equal',
      consecutive: 2,
      min_evaluations: 3,
    },
  },
};
const actor = createActor(evaluationTerminationMachine, { input: { agents } });

const camelCased = {
  metric: 'objective',
  threshold: 0.8,
  direction: 'greater_equal',
  consecutive: 2,
  minEvaluations: 3,
} as const;
const upward = {
  metric: 'objective',
  threshold: 0.8,
  direction: 'up',
  consecutive: 2,
  min_evaluations: 3,
} as const;
const camelCasedRules = { agents: { SAC: { success: camelCased } } };
const upwardRules = { agents: { SAC: { success: upward } } };
// @ts-expect-error: keys are the seed's snake_case (min_evaluations), not camelCase.
export const camelCasedInput: EvaluationTerminationInput = camelCasedRules;
// @ts-expect-error: a direction is greater_equal or less_equal.
export const upwardInput: EvaluationTerminationInput = upwardRules;

// A checkpoint's outcomes are EvaluationOutcome, so a typo is caught before the machine rejects it.
const outcomes: EvaluationOutcome[] = [
  { agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { objective: 0.9 } },
];
actor.send({ type: 'evaluation.checkpoint', outcomes });
const misnamed = [{ agent: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: {} }];
// @ts-expect-error: an outcome names its agent as agentName.
actor.send({ type: 'evaluation.checkpoint', outcomes: misnamed });

/** A checkpoint verdict's decision, read without `as unknown as CheckpointDecision`. */
export function decisionOf(verdict: CheckpointVerdict): CheckpointDecision | null {
  if (verdict.status === 'accepted') return verdict.decision;
  if (verdict.status === 'rejected') {
    const code: string = verdict.error.code;
    // @ts-expect-error: a rejected checkpoint has no decision, only its error.
    verdict.decision.control;
    return code === '' ? null : null;
  }
  if (verdict.status === 'ignored') {
    const why: string = verdict.decision.reason;
    // @ts-expect-error: an ignored checkpoint says why, it has no seed decision.
    verdict.decision.control;
    return why === '' ? null : null;
  }
  return null;
}

/** The reason a run's checkpoint stopped its phase, straight from the run's events. */
export function stopReason(event: RunEvent): string | null {
  if (event.type !== 'checkpoint.completed' || event.verdict.status !== 'accepted') return null;
  return event.verdict.decision.control === 'STOP_PHASE' ? event.verdict.decision.reason : null;
}
