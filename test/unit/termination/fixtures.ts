import type { EvaluationOutcome } from '../../../src/domain/termination/index.js';

/** A seed-shaped success rule (snake_case), with overrides. */
export function successRule(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metric: 'objective',
    threshold: 0.8,
    direction: 'greater_equal',
    consecutive: 2,
    min_evaluations: 3,
    ...overrides,
  };
}

/** A seed-shaped plateau rule (snake_case), with overrides. */
export function plateauRule(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metric: 'objective',
    direction: 'maximize',
    min_delta: 0.01,
    patience: 2,
    min_evaluations: 3,
    window: 1,
    ...overrides,
  };
}

/** One outcome for `agentName` at `episode` with `objective: value`. */
export function outcome(
  agentName: string,
  episode: number,
  value: unknown,
  overrides: Partial<Record<keyof EvaluationOutcome, unknown>> = {},
): EvaluationOutcome {
  return {
    agentName,
    evaluationId: `${agentName}-${episode}`,
    evaluationEpisode: episode,
    metrics: { objective: value as number },
    ...overrides,
  } as EvaluationOutcome;
}
