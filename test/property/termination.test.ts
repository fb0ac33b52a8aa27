import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  applyCheckpoint,
  applyEpisodeEnd,
  ConflictingDuplicateError,
  configurationFingerprint,
  createTerminationState,
  type EvaluationOutcome,
  fromStateDict,
  markCancelled,
  markFailed,
  OutOfOrderEvaluationError,
  parseTerminationConfig,
  type TerminationState,
  toStateDict,
} from '../../src/domain/termination/index.js';
import {
  acceptableCheckpointSpecArbitrary,
  type CheckpointSpec,
  checkpointSpecArbitrary,
  materialize,
  newMemory,
  type RunMemory,
  rawRulesArbitrary,
  remember,
} from '../unit/termination/arbitraries.js';

const runs = { numRuns: 120 };

/** Play specs from a fresh state; rejected checkpoints change nothing. */
function play(rules: unknown, specs: readonly CheckpointSpec[], firstEpisode = 0) {
  const config = parseTerminationConfig(rules);
  let state = createTerminationState(config);
  const memory = newMemory(firstEpisode);
  for (const spec of specs) state = step(state, memory, spec).state;
  return { config, state, memory };
}

function step(state: TerminationState, memory: RunMemory, spec: CheckpointSpec) {
  const outcomes = materialize(state, memory, spec);
  try {
    const result = applyCheckpoint(state, outcomes);
    remember(memory, outcomes, result.decision);
    return { state: result.state, outcome: { decision: result.decision } as const };
  } catch (error) {
    return {
      state,
      outcome: { error: `${(error as Error).name}: ${(error as Error).message}` } as const,
    };
  }
}

function allRecorded(memory: RunMemory): EvaluationOutcome[][] {
  return [...memory.recorded.values()];
}

describe('termination domain properties', () => {
  test.prop(
    [rawRulesArbitrary, fc.array(acceptableCheckpointSpecArbitrary, { maxLength: 12 }), fc.nat()],
    runs,
  )('re-sending any accepted outcome changes nothing', (rules, specs, pick) => {
    const { state, memory } = play(rules, specs);
    const recorded = allRecorded(memory);
    fc.pre(
      recorded.every((list) => list.length > 0) &&
        recorded.length === state.config.agentNames.length,
    );
    const resend = recorded.map((list) => list[pick % list.length]!);
    const before = toStateDict(state);
    const result = applyCheckpoint(state, resend);
    expect(toStateDict(result.state)).toEqual(before);
    if (state.terminationReason === null) {
      expect(result.decision.report.agents.every((agent) => agent.status === 'duplicate')).toBe(
        true,
      );
    }
  });

  test.prop(
    [
      rawRulesArbitrary,
      fc.array(acceptableCheckpointSpecArbitrary, { minLength: 1, maxLength: 10 }),
      fc.nat(),
    ],
    runs,
  )('a conflicting duplicate is rejected and changes nothing', (rules, specs, pick) => {
    const { state, memory } = play(rules, specs);
    fc.pre(state.terminationReason === null);
    const recorded = allRecorded(memory).flat();
    fc.pre(recorded.length > 0);
    const original = recorded[pick % recorded.length]!;
    const conflicting = { ...original, metrics: { objective: 123 } };
    const others = state.config.agentNames
      .filter((name) => name !== original.agentName)
      .map((name) => ({
        agentName: name,
        evaluationId: `${name}-new`,
        evaluationEpisode: (state.agents[name]?.lastEvaluation ?? -1) + 1,
        metrics: { objective: 0.5 },
      }));
    const snapshot = structuredClone(state);
    expect(() => applyCheckpoint(state, [...others, conflicting])).toThrow(
      ConflictingDuplicateError,
    );
    expect(state).toEqual(snapshot);
  });

  test.prop(
    [
      rawRulesArbitrary,
      fc.array(acceptableCheckpointSpecArbitrary, { maxLength: 10 }),
      fc.integer({ min: -4, max: 4 }).filter((offset) => offset !== 1),
      fc.nat(3),
    ],
    runs,
  )(
    'any gap or regression in evaluation episodes is rejected and changes nothing',
    (rules, specs, offset, firstEpisode) => {
      const { state } = play(rules, specs, firstEpisode);
      fc.pre(state.terminationReason === null);
      const [victim, ...others] = state.config.agentNames;
      const last = state.agents[victim!]?.lastEvaluation ?? null;
      const episode = last === null ? -1 - Math.abs(offset) : last + offset;
      const outcomes = [
        {
          agentName: victim,
          evaluationId: 'brand-new',
          evaluationEpisode: episode,
          metrics: { objective: 0.5 },
        },
        ...others.map((name) => ({
          agentName: name,
          evaluationId: `${name}-next`,
          evaluationEpisode: (state.agents[name]?.lastEvaluation ?? -1) + 1,
          metrics: { objective: 0.5 },
        })),
      ];
      const snapshot = structuredClone(state);
      expect(() => applyCheckpoint(state, outcomes)).toThrow(OutOfOrderEvaluationError);
      expect(state).toEqual(snapshot);
    },
  );

  test.prop(
    [
      rawRulesArbitrary,
      fc.array(acceptableCheckpointSpecArbitrary, { maxLength: 10 }),
      fc.array(fc.constantFrom(Number.NaN, true, undefined, Number.NEGATIVE_INFINITY, '1'), {
        minLength: 1,
        maxLength: 6,
      }),
    ],
    runs,
  )(
    'invalid outcomes never produce success or plateau and never change plateau state',
    (rules, specs, badValues) => {
      let { state } = play(rules, specs);
      fc.pre(state.terminationReason === null);
      const plateauOf = (s: TerminationState) =>
        s.config.agentNames.map((name) => {
          const agent = s.agents[name]!;
          return [
            agent.plateauPatience,
            agent.bestMetric,
            agent.bestEvaluationId,
            agent.plateauWindow,
            agent.validEvaluations,
          ];
        });
      const before = plateauOf(state);
      for (const [index, bad] of badValues.entries()) {
        const outcomes = state.config.agentNames.map((name) => ({
          agentName: name,
          evaluationId: `${name}-bad-${index}`,
          evaluationEpisode: (state.agents[name]?.lastEvaluation ?? -1) + 1,
          metrics: { objective: bad },
        }));
        const result = applyCheckpoint(state, outcomes);
        expect(result.decision.reason).toBeNull();
        expect(
          result.decision.report.agents.every(
            (agent) => agent.status === 'invalid' && agent.successStreak === 0,
          ),
        ).toBe(true);
        state = result.state;
      }
      expect(plateauOf(state)).toEqual(before);
    },
  );

  test.prop(
    [
      rawRulesArbitrary,
      fc.array(acceptableCheckpointSpecArbitrary, { maxLength: 10 }),
      checkpointSpecArbitrary,
      fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
    ],
    runs,
  )('the order of outcomes within a checkpoint does not matter', (rules, specs, last, sortKeys) => {
    const { state, memory } = play(rules, specs);
    const outcomes = materialize(state, memory, last);
    const permuted = outcomes
      .map((outcome, index) => ({ outcome, key: sortKeys[index] ?? 0 }))
      .sort((a, b) => a.key - b.key)
      .map(({ outcome }) => outcome);
    const attempt = (list: EvaluationOutcome[]) => {
      try {
        const { state: next, decision } = applyCheckpoint(state, list);
        return {
          dict: toStateDict(next),
          decision: { ...decision, report: { ...decision.report, unknownAgents: [] } },
        };
      } catch (error) {
        return { error: (error as Error).name };
      }
    };
    expect(attempt(permuted)).toEqual(attempt(outcomes));
  });

  test.prop(
    [
      rawRulesArbitrary,
      fc.array(
        fc.oneof(
          checkpointSpecArbitrary,
          fc.constantFrom('cancel', 'fail', 'episode', 'lastEpisode'),
        ),
        { maxLength: 25 },
      ),
    ],
    runs,
  )('the terminal reason never changes once set', (rules, script) => {
    const config = parseTerminationConfig(rules);
    let state = createTerminationState(config);
    const memory = newMemory();
    let firstReason: string | null = null;
    script.forEach((item, index) => {
      if (item === 'cancel') state = markCancelled(state);
      else if (item === 'fail') state = markFailed(state);
      else if (item === 'episode' || item === 'lastEpisode') {
        const end = {
          mode: 'train',
          completedEpisodes: item === 'lastEpisode' ? 20 : index,
          environmentDone: true,
        };
        const result = applyEpisodeEnd(state, { episodes: 20 }, end);
        if (state.terminationReason !== null)
          expect(result.decision).toEqual({
            control: 'STOP_PHASE',
            reason: state.terminationReason,
          });
        state = result.state;
      } else {
        const result = step(state, memory, item);
        if (state.terminationReason !== null && 'decision' in result.outcome) {
          expect(result.outcome.decision).toMatchObject({
            control: 'STOP_PHASE',
            reason: state.terminationReason,
          });
        }
        state = result.state;
      }
      if (firstReason === null) firstReason = state.terminationReason;
      else expect(state.terminationReason).toBe(firstReason);
    });
  });

  test.prop(
    [rawRulesArbitrary, fc.array(checkpointSpecArbitrary, { maxLength: 20 }), fc.nat()],
    runs,
  )('fromStateDict(toStateDict(s)) at any point continues exactly like s', (rules, specs, cut) => {
    const split = specs.length === 0 ? 0 : cut % (specs.length + 1);
    const { config, state, memory } = play(rules, specs.slice(0, split));
    const restored = fromStateDict(config, JSON.parse(JSON.stringify(toStateDict(state))));
    const originalMemory: RunMemory = {
      ...memory,
      recorded: new Map([...memory.recorded].map(([k, v]) => [k, [...v]])),
    };
    let a = state;
    let b = restored;
    for (const spec of specs.slice(split)) {
      const left = step(a, originalMemory, spec);
      const right = step(b, memory, spec);
      expect(right.outcome).toEqual(left.outcome);
      a = left.state;
      b = right.state;
    }
    expect(toStateDict(b)).toEqual(toStateDict(a));
  });

  test.prop([rawRulesArbitrary, fc.array(checkpointSpecArbitrary, { maxLength: 15 })], runs)(
    'applyCheckpoint never mutates the state it is given, accepted or rejected',
    (rules, specs) => {
      const config = parseTerminationConfig(rules);
      let state = createTerminationState(config);
      const memory = newMemory();
      for (const spec of specs) {
        const before = structuredClone(state);
        const next = step(state, memory, spec).state;
        expect(state).toEqual(before);
        state = next;
      }
    },
  );

  test.prop([rawRulesArbitrary, fc.nat()], runs)(
    'the fingerprint does not depend on key order',
    (rules, seed) => {
      const shuffleKeys = (value: unknown, salt: number): unknown => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
        const entries = Object.entries(value);
        const rotated = entries.map((_, index) => entries[(index + salt) % entries.length]!);
        return Object.fromEntries(
          rotated.reverse().map(([key, inner], index) => [key, shuffleKeys(inner, salt + index)]),
        );
      };
      const a = configurationFingerprint(parseTerminationConfig(rules));
      const b = configurationFingerprint(parseTerminationConfig(shuffleKeys(rules, seed)));
      expect(b).toBe(a);
    },
  );
});
