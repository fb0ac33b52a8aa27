import { describe, expect, it } from 'vitest';
import { applyCheckpoint } from '../../../src/domain/termination/checkpoint.js';
import { parseTerminationConfig } from '../../../src/domain/termination/config.js';
import { applyEpisodeEnd } from '../../../src/domain/termination/episode.js';
import {
  TerminationConfigError,
  TerminationStateError,
} from '../../../src/domain/termination/errors.js';
import { createTerminationState } from '../../../src/domain/termination/state.js';
import { fuzzTermination } from '../../../src/fuzz/termination/fuzzTermination.js';

/** Rules as a rules YAML writes them, the seed's snake_case keys. */
const rules = {
  agents: {
    SAC: {
      success: {
        metric: 'objective',
        threshold: 0.8,
        direction: 'greater_equal',
        consecutive: 1,
        min_evaluations: 1,
      },
    },
  },
} as const;
const outcome = (episode: number, objective: number) => ({
  agentName: 'SAC',
  evaluationId: `e${episode}`,
  evaluationEpisode: episode,
  metrics: { objective },
});

describe('termination rules from JavaScript', () => {
  it('createTerminationState takes the rules as a file writes them, and applyCheckpoint its state', () => {
    const state = createTerminationState(rules);
    expect(state).toEqual(createTerminationState(parseTerminationConfig(rules)));
    expect(createTerminationState(rules.agents)).toEqual(state);
    const { state: next, decision } = applyCheckpoint(state, [outcome(0, 0.9)]);
    expect([decision.control, decision.reason, next.terminationReason]).toEqual([
      'STOP_PHASE',
      'success',
      'success',
    ]);
  });

  it('says how to make the state when handed the rules or nothing', () => {
    expect(() => applyCheckpoint(rules as never, [outcome(0, 0.9)])).toThrow(
      new TerminationStateError(
        'applyCheckpoint takes the state createTerminationState(rules) returns (or fromStateDict restores), got a mapping with keys agents',
      ),
    );
    expect(() =>
      applyEpisodeEnd(undefined as never, null, {
        mode: 'train',
        completedEpisodes: 1,
        environmentDone: false,
      }),
    ).toThrow(
      'applyEpisodeEnd takes the state createTerminationState(rules) returns (or fromStateDict restores), got nothing',
    );
  });

  it('fuzzTermination takes YAML-shaped rules and reports as for the parsed config', () => {
    const options = { runs: 10, maxEvaluations: 5 };
    const fromYaml = fuzzTermination(rules, options);
    expect(fromYaml).toEqual(fuzzTermination(parseTerminationConfig(rules), options));
    expect(fromYaml.reasons.find((each) => each.reason === 'success')?.reachable).toBe(true);
  });

  it('fuzzTermination names the agent and field of bad rules, as a rules file gets', () => {
    // what a JavaScript caller who camelCased the seed's keys writes (TypeScript would refuse it)
    const { min_evaluations: _, ...success } = rules.agents.SAC.success;
    const camelCased = { agents: { SAC: { success: { ...success, minEvaluations: 1 } } } } as never;
    const thrown = (() => {
      try {
        fuzzTermination(camelCased, { runs: 10 });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(thrown).toBeInstanceOf(TerminationConfigError);
    expect((thrown as Error).message).toContain(
      'agent "SAC": success has unknown key "minEvaluations" (did you mean "min_evaluations"?)',
    );
  });
});
