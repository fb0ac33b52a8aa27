import {
  type EvaluationOutcome,
  parseTerminationConfig,
  type TerminationConfig,
} from '../../src/domain/termination/index.js';

/** One agent, SAC, that succeeds after 2 consecutive objectives >= 0.8 (3 evaluations at least). */
export function sacSuccessConfig(): TerminationConfig {
  return parseTerminationConfig({
    agents: {
      SAC: {
        success: {
          metric: 'objective',
          threshold: 0.8,
          direction: 'greater_equal',
          consecutive: 2,
          min_evaluations: 3,
        },
      },
    },
  });
}

/** SAC's outcome of the evaluation at `episode`, its id `SAC-<episode>`. */
export function sacOutcome(episode: number, value: number): EvaluationOutcome {
  return {
    agentName: 'SAC',
    evaluationId: `SAC-${episode}`,
    evaluationEpisode: episode,
    metrics: { objective: value },
  };
}
