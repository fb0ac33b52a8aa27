import {
  type EvaluationOutcome,
  parseTerminationConfig,
  type TerminationConfig,
} from '../../src/domain/termination/index.js';

const successDefaults = {
  metric: 'objective',
  threshold: 0.8,
  direction: 'greater_equal',
  consecutive: 2,
  min_evaluations: 3,
} as const;

const plateauDefaults = {
  metric: 'objective',
  direction: 'maximize',
  min_delta: 0.01,
  patience: 2,
  min_evaluations: 3,
  window: 1,
} as const;

/** `defaults` with `overrides` put over them, in the defaults' key order. */
type Overridden<Defaults, Overrides> = Omit<Defaults, keyof Overrides> & Overrides;

/** A seed-shaped success rule (snake_case): `objective >= 0.8` twice running, after 3 evaluations; with overrides. */
export function successRule<const Overrides extends Record<string, unknown> = Record<never, never>>(
  overrides: Overrides = {} as Overrides,
): Overridden<typeof successDefaults, Overrides> {
  return { ...successDefaults, ...overrides };
}

/** A seed-shaped plateau rule (snake_case): `objective` maximised, patience 2 after 3 evaluations; with overrides. */
export function plateauRule<const Overrides extends Record<string, unknown> = Record<never, never>>(
  overrides: Overrides = {} as Overrides,
): Overridden<typeof plateauDefaults, Overrides> {
  return { ...plateauDefaults, ...overrides };
}

/** One outcome for `agentName` at `episode` with `objective: value`, its id `<agentName>-<episode>`. */
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

/** One agent, SAC, that succeeds after 2 consecutive objectives >= 0.8 (3 evaluations at least). */
export function sacSuccessConfig(): TerminationConfig {
  return parseTerminationConfig({ agents: { SAC: { success: successRule() } } });
}

/** SAC's outcome of the evaluation at `episode`, its id `SAC-<episode>`. */
export function sacOutcome(episode: number, value: number): EvaluationOutcome {
  return outcome('SAC', episode, value);
}
