import type { RunSpec } from '../config/runSpec.js';
import { ArenaError } from '../domain/shared/errors.js';
import type { JsonObject } from '../domain/shared/json.js';
import { parseTerminationConfig } from '../domain/termination/config.js';
import { validatePhaseConfiguration } from '../domain/termination/phase.js';

/** The run file's termination condition or phases do not fit together. */
export class RunConfigError extends ArenaError {
  constructor(message: string) {
    super('RUN_CONFIG', message);
  }
}

const EVALUATION_CONDITION = /(^|[:.])AgentEvaluationObjectiveTerminationCondition$/;
const MAX_EPISODES_CONDITION = /(^|[:.])MaxEpisodesTerminationCondition$/;

/**
 * The evaluation-aware rules of a run (`{ agents }`), or `null` when the run
 * uses a plain episode cap. Every phase is checked against them here, before
 * anything is created, and each error names its YAML path.
 */
export function terminationRulesOf(spec: RunSpec): JsonObject | null {
  const condition = spec.runCondition;
  let rules: JsonObject | null = null;
  if (condition !== null) {
    if (EVALUATION_CONDITION.test(condition.name)) {
      try {
        parseTerminationConfig(condition.params);
      } catch (error) {
        throw new RunConfigError(`${condition.yamlPath}.params: ${(error as Error).message}`);
      }
      rules = { agents: (condition.params.agents ?? condition.params) as JsonObject };
    } else if (!MAX_EPISODES_CONDITION.test(condition.name)) {
      throw new RunConfigError(
        `${condition.yamlPath}.name: unknown termination condition "${condition.name}" ` +
          '(expected arena:AgentEvaluationObjectiveTerminationCondition or arena:MaxEpisodesTerminationCondition)',
      );
    }
  }
  for (const phase of spec.phases) {
    const config = phase.phaseConfig;
    if (rules !== null) {
      try {
        validatePhaseConfiguration({
          mode: config.mode,
          worker: config.worker,
          episodes: config.episodes,
          evaluate_every: config.evaluateEvery,
        });
      } catch (error) {
        throw new RunConfigError(`${phase.yamlPath}.phase_config: ${(error as Error).message}`);
      }
    } else if (config.episodes === null) {
      throw new RunConfigError(
        `${phase.yamlPath}.phase_config.episodes: a cap-free phase needs ` +
          'run_config.condition: arena:AgentEvaluationObjectiveTerminationCondition with rules that can stop it',
      );
    }
    if (config.worker !== 1) {
      throw new RunConfigError(
        `${phase.yamlPath}.phase_config.worker: arena runs one worker, got ${config.worker}`,
      );
    }
  }
  return rules;
}
