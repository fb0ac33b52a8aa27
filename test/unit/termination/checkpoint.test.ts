import { describe, expect, it } from 'vitest';
import {
  applyCheckpoint,
  ConflictingDuplicateError,
  createTerminationState,
  DuplicateAgentOutcomeError,
  InvalidOutcomeError,
  OutOfOrderEvaluationError,
  parseTerminationConfig,
  type TerminationState,
} from '../../../src/domain/termination/index.js';
import { outcome, plateauRule, successRule } from '../../support/terminationRules.js';

const oneAgent = parseTerminationConfig({
  agents: { SAC: { success: successRule({ consecutive: 2, min_evaluations: 3 }) } },
});
const plateauOnly = parseTerminationConfig({
  agents: { SAC: { plateau: plateauRule({ patience: 2, min_evaluations: 3, window: 1 }) } },
});
const twoAgents = parseTerminationConfig({
  agents: {
    A: { success: successRule({ consecutive: 1, min_evaluations: 1 }) },
    B: { success: successRule({ consecutive: 1, min_evaluations: 1 }) },
  },
});

function feed(state: TerminationState, values: readonly unknown[], agent = 'SAC', start = 0) {
  let current = state;
  let decision = applyCheckpoint(current, []).decision;
  values.forEach((value, index) => {
    const result = applyCheckpoint(current, [outcome(agent, start + index, value)]);
    current = result.state;
    decision = result.decision;
  });
  return { state: current, decision };
}

function rejection(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('applyCheckpoint: success', () => {
  it('needs consecutive qualifying outcomes and min_evaluations valid outcomes', () => {
    const start = createTerminationState(oneAgent);
    expect(feed(start, [0.9, 0.9]).decision).toMatchObject({ control: 'CONTINUE', reason: null });
    const { state, decision } = feed(start, [0.1, 0.9, 0.9]);
    expect(decision).toMatchObject({ control: 'STOP_PHASE', reason: 'success' });
    expect(state.terminationReason).toBe('success');
    expect(decision.report.agents[0]).toMatchObject({
      status: 'accepted',
      successStreak: 2,
      validEvaluations: 3,
    });
  });

  it('treats the threshold as inclusive and honours less_equal', () => {
    const lessEqual = parseTerminationConfig({
      agents: {
        SAC: {
          success: successRule({
            direction: 'less_equal',
            threshold: 0.2,
            consecutive: 1,
            min_evaluations: 1,
          }),
        },
      },
    });
    expect(feed(createTerminationState(lessEqual), [0.2]).decision.reason).toBe('success');
    expect(feed(createTerminationState(lessEqual), [0.21]).decision.reason).toBeNull();
    expect(feed(createTerminationState(oneAgent), [0.8, 0.8, 0.8]).decision.reason).toBe('success');
  });

  it('resets the streak on a non-qualifying outcome', () => {
    const { decision } = feed(createTerminationState(oneAgent), [0.9, 0.1, 0.9]);
    expect(decision.report.agents[0]?.successStreak).toBe(1);
  });

  it('needs every agent to succeed', () => {
    let state = createTerminationState(twoAgents);
    const first = applyCheckpoint(state, [outcome('A', 0, 0.9), outcome('B', 0, 0.1)]);
    expect(first.decision.reason).toBeNull();
    state = first.state;
    const second = applyCheckpoint(state, [outcome('A', 1, 0.9), outcome('B', 1, 0.9)]);
    expect(second.decision).toMatchObject({ control: 'STOP_PHASE', reason: 'success' });
  });

  it('checks success before plateau', () => {
    const both = parseTerminationConfig({
      agents: {
        SAC: {
          success: successRule({ consecutive: 1, min_evaluations: 2 }),
          plateau: plateauRule({ patience: 1, min_evaluations: 1, min_delta: 0.5 }),
        },
      },
    });
    const { decision } = feed(createTerminationState(both), [0.9, 0.9]);
    expect(decision.reason).toBe('success');
  });
});

describe('applyCheckpoint: plateau', () => {
  it('counts patience only after min_evaluations and ends on patience', () => {
    const start = createTerminationState(plateauOnly);
    // best 0.5 at e0; e1 (count 2 < 3) no patience; e2, e3 patience 1, 2.
    const early = feed(start, [0.5, 0.5]);
    expect(early.decision.report.agents[0]).toMatchObject({ plateauPatience: 0, bestMetric: 0.5 });
    const { state, decision } = feed(start, [0.5, 0.5, 0.505, 0.5]);
    expect(decision).toMatchObject({ control: 'STOP_PHASE', reason: 'plateau' });
    expect(state.agents.SAC).toMatchObject({
      plateauPatience: 2,
      bestMetric: 0.5,
      bestEvaluationId: 'SAC-0',
    });
  });

  it('counts an improvement of at least min_delta and resets patience', () => {
    const { state } = feed(createTerminationState(plateauOnly), [0.5, 0.5, 0.5, 0.51]);
    expect(state.agents.SAC).toMatchObject({
      plateauPatience: 0,
      bestMetric: 0.51,
      bestEvaluationId: 'SAC-3',
    });
  });

  it('improves downwards when minimizing', () => {
    const minimize = parseTerminationConfig({
      agents: {
        SAC: {
          plateau: plateauRule({
            direction: 'minimize',
            min_delta: 0.1,
            min_evaluations: 1,
            patience: 5,
          }),
        },
      },
    });
    const { state } = feed(createTerminationState(minimize), [1, 0.95, 0.9, 0.85]);
    expect(state.agents.SAC).toMatchObject({ bestMetric: 0.9, plateauPatience: 1 });
  });

  it('uses the mean of the last window valid values', () => {
    const windowed = parseTerminationConfig({
      agents: { SAC: { plateau: plateauRule({ window: 3, min_evaluations: 1, patience: 9 }) } },
    });
    const start = createTerminationState(windowed);
    expect(feed(start, [1, 2]).state.agents.SAC?.bestMetric).toBeNull();
    const { state, decision } = feed(start, [1, 2, 3, 7]);
    expect(state.agents.SAC?.plateauWindow).toEqual([2, 3, 7]);
    expect(decision.report.agents[0]?.smoothedValue).toBe(4);
    expect(state.agents.SAC?.bestMetric).toBe(4);
  });

  it('needs every agent to plateau', () => {
    const config = parseTerminationConfig({
      agents: {
        A: { plateau: plateauRule({ patience: 1, min_evaluations: 1 }) },
        B: { plateau: plateauRule({ patience: 1, min_evaluations: 1 }) },
      },
    });
    let state = createTerminationState(config);
    state = applyCheckpoint(state, [outcome('A', 0, 1), outcome('B', 0, 1)]).state;
    const mixed = applyCheckpoint(state, [outcome('A', 1, 1), outcome('B', 1, 2)]);
    expect(mixed.decision.reason).toBeNull();
    const both = applyCheckpoint(mixed.state, [outcome('A', 2, 1), outcome('B', 2, 2)]);
    expect(both.decision.reason).toBe('plateau');
  });
});

describe('applyCheckpoint: invalid and incomplete outcomes', () => {
  it.each([
    ['a missing metric', { metrics: {} }],
    ['a NaN metric', { metrics: { objective: Number.NaN } }],
    ['an infinite metric', { metrics: { objective: Number.POSITIVE_INFINITY } }],
    ['a boolean metric', { metrics: { objective: true } }],
    ['a string metric', { metrics: { objective: '0.9' } }],
  ])(
    'treats %s as invalid: resets the streak, keeps plateau state, records the id',
    (_label, overrides) => {
      const config = parseTerminationConfig({
        agents: {
          SAC: {
            success: successRule({ consecutive: 3 }),
            plateau: plateauRule({ min_evaluations: 1 }),
          },
        },
      });
      const before = feed(createTerminationState(config), [0.9, 0.9]).state;
      const { state, decision } = applyCheckpoint(before, [outcome('SAC', 2, 0, overrides)]);
      expect(decision.report.agents[0]).toMatchObject({
        status: 'invalid',
        detail: 'missing or non-finite configured metric',
      });
      expect(state.agents.SAC).toMatchObject({
        successStreak: 0,
        lastEvaluation: 2,
        validEvaluations: 2,
        plateauPatience: before.agents.SAC?.plateauPatience,
        bestMetric: before.agents.SAC?.bestMetric,
        plateauWindow: before.agents.SAC?.plateauWindow,
      });
    },
  );

  it('treats a missing evaluation identity as invalid without recording anything else', () => {
    const before = feed(createTerminationState(oneAgent), [0.9]).state;
    const { state, decision } = applyCheckpoint(before, [
      outcome('SAC', 1, 0.9, { evaluationId: '' }),
    ]);
    expect(decision.report.agents[0]).toMatchObject({
      status: 'invalid',
      detail: 'missing evaluation identity',
    });
    expect(state.agents.SAC).toMatchObject({ successStreak: 0, lastEvaluation: 0, seenCount: 1 });
  });

  it('ignores an incomplete checkpoint except for resetting the missing agents streaks', () => {
    let state = createTerminationState(twoAgents);
    const config = parseTerminationConfig({
      agents: {
        A: { success: successRule({ consecutive: 5 }) },
        B: { success: successRule({ consecutive: 5 }) },
      },
    });
    state = createTerminationState(config);
    state = applyCheckpoint(state, [outcome('A', 0, 0.9), outcome('B', 0, 0.9)]).state;
    const { state: next, decision } = applyCheckpoint(state, [outcome('A', 1, 0.9)]);
    expect(decision.control).toBe('CONTINUE');
    expect(decision.report.checkpoint).toBe('incomplete');
    expect(decision.report.agents.map((agent) => agent.status)).toEqual(['ignored', 'missing']);
    expect(next.agents.A).toBe(state.agents.A);
    expect(next.agents.B).toMatchObject({ successStreak: 0, lastEvaluation: 0 });
  });

  it('ignores outcomes of unknown agents and lists them', () => {
    const { decision } = applyCheckpoint(createTerminationState(oneAgent), [
      outcome('SAC', 0, 0.9),
      outcome('PPO', 0, 0.9),
    ]);
    expect(decision.report.unknownAgents).toEqual(['PPO']);
    expect(decision.report.checkpoint).toBe('applied');
  });
});

describe('applyCheckpoint: duplicates and order', () => {
  it('ignores an exact duplicate outcome', () => {
    const before = feed(createTerminationState(oneAgent), [0.9, 0.9]).state;
    const { state, decision } = applyCheckpoint(before, [outcome('SAC', 0, 0.9)]);
    expect(decision.report.agents[0]?.status).toBe('duplicate');
    expect(state.agents.SAC).toBe(before.agents.SAC);
  });

  it('treats an identical re-send holding NaN as a duplicate', () => {
    const before = feed(createTerminationState(oneAgent), [Number.NaN]).state;
    const { decision } = applyCheckpoint(before, [outcome('SAC', 0, Number.NaN)]);
    expect(decision.report.agents[0]?.status).toBe('duplicate');
  });

  it('rejects a conflicting duplicate and leaves the state untouched', () => {
    const before = feed(createTerminationState(oneAgent), [0.9]).state;
    const snapshot = structuredClone(before);
    const error = rejection(() => applyCheckpoint(before, [outcome('SAC', 0, 0.5)]));
    expect(error).toBeInstanceOf(ConflictingDuplicateError);
    expect(error).toMatchObject({
      code: 'CONFLICTING_DUPLICATE',
      message: 'agent "SAC": evaluation "SAC-0" was already recorded with different data',
    });
    expect(before).toEqual(snapshot);
  });

  it('rejects a gap or a regression in evaluation episodes', () => {
    const before = feed(createTerminationState(oneAgent), [0.9], 'SAC', 4).state;
    const gap = rejection(() => applyCheckpoint(before, [outcome('SAC', 6, 0.9)]));
    expect(gap).toBeInstanceOf(OutOfOrderEvaluationError);
    expect(gap.message).toBe(
      'agent "SAC": out-of-order evaluation episode 6 for evaluation "SAC-6"; expected 5',
    );
    expect(rejection(() => applyCheckpoint(before, [outcome('SAC', 3, 0.9)]))).toBeInstanceOf(
      OutOfOrderEvaluationError,
    );
  });

  it('lets the first episode start anywhere at or above zero, but not below or fractional', () => {
    expect(
      feed(createTerminationState(oneAgent), [0.9], 'SAC', 7).state.agents.SAC?.lastEvaluation,
    ).toBe(7);
    const start = createTerminationState(oneAgent);
    for (const episode of [-1, 1.5, true, '0']) {
      const error = rejection(() =>
        applyCheckpoint(start, [outcome('SAC', 0, 0.9, { evaluationEpisode: episode })]),
      );
      expect(error).toBeInstanceOf(OutOfOrderEvaluationError);
      expect(error.message).toContain('expected a non-negative integer');
    }
  });

  it('rejects two outcomes for one agent in a checkpoint', () => {
    const error = rejection(() =>
      applyCheckpoint(createTerminationState(oneAgent), [
        outcome('SAC', 0, 0.9),
        outcome('SAC', 1, 0.9),
      ]),
    );
    expect(error).toBeInstanceOf(DuplicateAgentOutcomeError);
    expect(error).toMatchObject({ code: 'DUPLICATE_AGENT_OUTCOME' });
  });

  it('applies a checkpoint atomically: a later agent rejection leaves earlier agents unchanged', () => {
    let state = createTerminationState(twoAgents);
    state = applyCheckpoint(state, [outcome('A', 0, 0.1), outcome('B', 0, 0.1)]).state;
    const snapshot = structuredClone(state);
    expect(() => applyCheckpoint(state, [outcome('A', 1, 0.1), outcome('B', 5, 0.1)])).toThrow(
      OutOfOrderEvaluationError,
    );
    expect(state).toEqual(snapshot);
    const next = applyCheckpoint(state, [outcome('A', 1, 0.1), outcome('B', 1, 0.1)]);
    expect(next.state.agents.A?.lastEvaluation).toBe(1);
  });
});

describe('applyCheckpoint: malformed checkpoints', () => {
  const start = createTerminationState(oneAgent);
  it.each([
    [
      'outcomes that are not a list',
      () => applyCheckpoint(start, 'x' as unknown as []),
      'checkpoint outcomes must be a list of outcomes',
    ],
    [
      'an outcome that is not a mapping',
      () => applyCheckpoint(start, [3]),
      'outcomes[0] must be a mapping',
    ],
    [
      'metrics that are not a mapping',
      () => applyCheckpoint(start, [outcome('SAC', 0, 1, { metrics: [1] })]),
      'agent "SAC": metrics must be a mapping of metric name to number',
    ],
    [
      'a non-string checkpointId',
      () => applyCheckpoint(start, [outcome('SAC', 0, 1, { checkpointId: 5 })]),
      'agent "SAC": checkpointId must be a string or null, got number',
    ],
    [
      'a non-string checkpointHash',
      () => applyCheckpoint(start, [outcome('SAC', 0, 1, { checkpointHash: {} })]),
      'agent "SAC": checkpointHash must be a string or null, got object',
    ],
  ])('rejects %s with InvalidOutcomeError', (_label, run, message) => {
    const error = rejection(run);
    expect(error).toBeInstanceOf(InvalidOutcomeError);
    expect(error).toMatchObject({ code: 'INVALID_OUTCOME', message });
  });
});

describe('applyCheckpoint: after termination', () => {
  it('returns STOP_PHASE with the reason and looks at nothing', () => {
    const { state } = feed(createTerminationState(oneAgent), [0.9, 0.9, 0.9]);
    const after = applyCheckpoint(state, [outcome('SAC', 99, 'garbage')]);
    expect(after.state).toBe(state);
    expect(after.decision).toEqual({
      control: 'STOP_PHASE',
      reason: 'success',
      report: { checkpoint: 'afterTermination', agents: [], unknownAgents: [] },
    });
  });

  it('never mutates its input state', () => {
    const before = feed(createTerminationState(plateauOnly), [0.5, 0.6]).state;
    const snapshot = structuredClone(before);
    applyCheckpoint(before, [outcome('SAC', 2, 0.7)]);
    expect(before).toEqual(snapshot);
  });
});
