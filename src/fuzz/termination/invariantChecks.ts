/**
 * The invariants of arena's termination property tests, as checks over a
 * user's rule set and generated metric sequences: each throws
 * `InvariantBroken` (or lets a domain error through) when its invariant fails.
 */
import { canonicalJson } from '../../domain/shared/canonicalJson.js';
import { applyCheckpoint } from '../../domain/termination/checkpoint.js';
import type { TerminationConfig } from '../../domain/termination/config.js';
import { applyEpisodeEnd } from '../../domain/termination/episode.js';
import {
  ConflictingDuplicateError,
  OutOfOrderEvaluationError,
} from '../../domain/termination/errors.js';
import type { PhaseConfiguration } from '../../domain/termination/phase.js';
import type { TerminationState } from '../../domain/termination/state.js';
import {
  createTerminationState,
  markCancelled,
  markFailed,
} from '../../domain/termination/state.js';
import { fromStateDict, toStateDict } from '../../domain/termination/stateDict.js';
import { type FastCheck, fastCheck } from './fastCheck.js';
import type { MetricEvaluation, MetricSequence } from './sequences.js';
import { metricsByAgent, outcomesOf, playSequence } from './sequences.js';

/** The longest history of checkpoints an invariant check plays before its step. */
export const INVARIANT_HISTORY_LENGTH = 12;

/** A broken invariant, with what went wrong. */
export class InvariantBroken extends Error {
  override name = 'InvariantBroken';
}

function ensure(condition: boolean, message: string): void {
  if (!condition) throw new InvariantBroken(message);
}

function dictOf(state: TerminationState): string {
  return canonicalJson(toStateDict(state));
}

/** The last active state of a history and how many checkpoints led to it. */
function activePrefix(config: TerminationConfig, sequence: MetricSequence) {
  const played = playSequence(config, sequence);
  const applied = played.reason === null ? played.evaluations : played.evaluations - 1;
  return { state: played.lastActiveState, applied };
}

/** Re-sending any recorded checkpoint leaves the state dict unchanged (and is reported as duplicates while active). */
export function duplicateIsIdempotent(
  config: TerminationConfig,
  sequence: MetricSequence,
  pick: number,
): void {
  const played = playSequence(config, sequence);
  const index = pick % played.evaluations;
  const before = dictOf(played.state);
  const result = applyCheckpoint(played.state, outcomesOf(config, sequence[index]!, index));
  ensure(dictOf(result.state) === before, `re-sending checkpoint ${index} changed the state`);
  if (played.state.terminationReason === null) {
    ensure(
      result.decision.report.agents.every((agent) => agent.status === 'duplicate'),
      `re-sending checkpoint ${index} was not reported as duplicates`,
    );
  }
}

/** A recorded evaluation id re-sent with other metrics is a `ConflictingDuplicateError`; nothing changes. */
export function conflictIsRejected(
  config: TerminationConfig,
  sequence: MetricSequence,
  pick: number,
  next: MetricEvaluation,
): void {
  const { state, applied } = activePrefix(config, sequence);
  const fc: FastCheck = fastCheck();
  fc.pre(applied > 0);
  const index = pick % applied;
  const victim = config.agentNames[pick % config.agentNames.length]!;
  const metric = metricsByAgent(config)[victim]![0]!;
  const recorded = outcomesOf(config, sequence[index]!, index).find(
    (outcome) => outcome.agentName === victim,
  )!;
  const conflicting = {
    ...recorded,
    metrics: { ...recorded.metrics, [metric]: (recorded.metrics[metric] ?? 0) + 1 },
  };
  const others = outcomesOf(config, next, applied).filter(
    (outcome) => outcome.agentName !== victim,
  );
  expectRejection(state, [...others, conflicting], ConflictingDuplicateError);
}

/** An evaluation episode that is not the next one is an `OutOfOrderEvaluationError`; nothing changes. */
export function outOfOrderIsRejected(
  config: TerminationConfig,
  sequence: MetricSequence,
  offset: number,
  next: MetricEvaluation,
): void {
  const { state, applied } = activePrefix(config, sequence);
  const [victim] = config.agentNames;
  const last = applied === 0 ? null : applied - 1;
  const episode = last === null ? -1 - Math.abs(offset) : last + offset;
  const outcomes = outcomesOf(config, next, applied).map((outcome) =>
    outcome.agentName === victim
      ? { ...outcome, evaluationId: `${victim}-out-of-order`, evaluationEpisode: episode }
      : outcome,
  );
  expectRejection(state, outcomes, OutOfOrderEvaluationError);
}

function expectRejection(
  state: TerminationState,
  outcomes: readonly unknown[],
  errorClass: typeof ConflictingDuplicateError | typeof OutOfOrderEvaluationError,
): void {
  const before = dictOf(state);
  let rejected: unknown = null;
  try {
    applyCheckpoint(state, outcomes);
  } catch (error) {
    rejected = error;
  }
  ensure(
    rejected instanceof errorClass,
    `expected ${errorClass.name}, got ${rejected === null ? 'an accepted checkpoint' : describeError(rejected)}`,
  );
  ensure(dictOf(state) === before, 'a rejected checkpoint changed the state');
}

/** Checkpoints of missing or non-finite metrics never end the phase and never touch plateau state. */
export function invalidOutcomesAreHarmless(
  config: TerminationConfig,
  sequence: MetricSequence,
  badValues: readonly unknown[],
): void {
  let { state, applied } = activePrefix(config, sequence);
  const metrics = metricsByAgent(config);
  const plateauOf = (current: TerminationState) =>
    JSON.stringify(
      config.agentNames.map((name) => {
        const agent = current.agents[name]!;
        return [
          agent.plateauPatience,
          agent.bestMetric,
          agent.bestEvaluationId,
          agent.plateauWindow,
          agent.validEvaluations,
        ];
      }),
    );
  const before = plateauOf(state);
  for (const bad of badValues) {
    const outcomes = config.agentNames.map((agentName) => ({
      agentName,
      evaluationId: `${agentName}-invalid-${applied}`,
      evaluationEpisode: applied,
      metrics:
        bad === null
          ? {}
          : Object.fromEntries((metrics[agentName] ?? []).map((metric) => [metric, bad])),
    }));
    const result = applyCheckpoint(state, outcomes);
    ensure(
      result.decision.reason === null,
      `an invalid checkpoint ended the phase (${result.decision.reason})`,
    );
    ensure(
      result.decision.report.agents.every(
        (agent) => agent.status === 'invalid' && agent.successStreak === 0,
      ),
      'an invalid outcome was not reported as invalid with the success streak reset',
    );
    state = result.state;
    applied += 1;
  }
  ensure(plateauOf(state) === before, 'invalid outcomes changed the plateau state');
}

/** Any order of the outcomes within one checkpoint gives the same state and decision. */
export function orderDoesNotMatter(
  config: TerminationConfig,
  sequence: MetricSequence,
  next: MetricEvaluation,
  sortKeys: readonly number[],
): void {
  const played = playSequence(config, sequence);
  const outcomes = outcomesOf(config, next, played.evaluations);
  const permuted = outcomes
    .map((outcome, index) => ({ outcome, key: sortKeys[index] ?? 0 }))
    .sort((a, b) => a.key - b.key)
    .map(({ outcome }) => outcome);
  const attempt = (list: readonly unknown[]) => {
    try {
      const result = applyCheckpoint(played.state, list);
      return canonicalJson(
        { dict: toStateDict(result.state), decision: result.decision as unknown },
        { nonFinite: 'tag' },
      );
    } catch (error) {
      return describeError(error);
    }
  };
  ensure(attempt(permuted) === attempt(outcomes), 'permuting the outcomes changed the result');
}

/** Once set, the terminal reason never changes, and every later event stops the phase with it. */
export function terminalReasonSticks(
  config: TerminationConfig,
  phase: PhaseConfiguration | null,
  script: readonly (MetricEvaluation | 'cancel' | 'fail' | 'episode')[],
): void {
  const cap = { episodes: phase?.episodes ?? 2 * INVARIANT_HISTORY_LENGTH };
  let state = createTerminationState(config);
  let firstReason: string | null = null;
  let evaluations = 0;
  script.forEach((item, index) => {
    const reasonBefore = state.terminationReason;
    if (item === 'cancel') state = markCancelled(state);
    else if (item === 'fail') state = markFailed(state);
    else if (item === 'episode') {
      const end = { mode: 'train', completedEpisodes: index + 1, environmentDone: true };
      const result = applyEpisodeEnd(state, cap, end);
      if (reasonBefore !== null) {
        ensure(
          result.decision.control === 'STOP_PHASE' && result.decision.reason === reasonBefore,
          `an episode end after ${reasonBefore} did not stop the phase with it`,
        );
      }
      state = result.state;
    } else {
      const result = applyCheckpoint(state, outcomesOf(config, item, evaluations));
      evaluations += 1;
      if (reasonBefore !== null) {
        ensure(
          result.decision.control === 'STOP_PHASE' && result.decision.reason === reasonBefore,
          `a checkpoint after ${reasonBefore} did not stop the phase with it`,
        );
      }
      state = result.state;
    }
    if (firstReason === null) firstReason = state.terminationReason;
    else
      ensure(
        state.terminationReason === firstReason,
        `the reason changed from ${firstReason} to ${state.terminationReason}`,
      );
  });
}

/** A state restored from its JSON state dict at any point decides exactly like the original. */
export function roundTripContinues(
  config: TerminationConfig,
  sequence: MetricSequence,
  cut: number,
): void {
  const split = cut % (sequence.length + 1);
  let original = createTerminationState(config);
  for (let index = 0; index < split; index++) {
    original = applyCheckpoint(original, outcomesOf(config, sequence[index]!, index)).state;
  }
  let restored = fromStateDict(config, JSON.parse(JSON.stringify(toStateDict(original))));
  for (let index = split; index < sequence.length; index++) {
    const outcomes = outcomesOf(config, sequence[index]!, index);
    const left = applyCheckpoint(original, outcomes);
    const right = applyCheckpoint(restored, outcomes);
    ensure(
      canonicalJson(right.decision as unknown) === canonicalJson(left.decision as unknown),
      `after restoring at checkpoint ${split}, checkpoint ${index} decided differently`,
    );
    original = left.state;
    restored = right.state;
  }
  ensure(
    dictOf(restored) === dictOf(original),
    `after restoring at checkpoint ${split}, the states differ`,
  );
}

/** `Name: message` of an error, or the thrown value as text. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
