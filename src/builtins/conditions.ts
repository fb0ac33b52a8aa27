import { z } from 'zod';
import { evaluationTerminationMachine } from '../machines/evaluationTermination.js';
import { simulationControllerMachine } from '../machines/simulationController.js';

/**
 * The controller and the termination conditions a run file can name. They are
 * not constructed like environments or brains: the runner reads them (see
 * `terminationRulesOf`), and they are registered so that `arena validate`
 * resolves every name a run file uses.
 *
 * - `arena:ScriptedSimulationController` (`simulation.name`): the
 *   `simulationControllerMachine`.
 * - `arena:AgentEvaluationObjectiveTerminationCondition` (`run_config.condition`):
 *   evaluation-aware termination, the `evaluationTerminationMachine`; its
 *   `params.agents` are the seed's rules.
 * - `arena:MaxEpisodesTerminationCondition` (`run_config.condition`): a plain
 *   `phase_config.episodes` cap (also what a run without a condition uses).
 * - `arena:VanillaSimControllerTerminationCondition` (`simulation.conditions`):
 *   an episode ends when an environment is done or `max_steps` is reached; the
 *   controller always does this, as palaestrAI's vanilla condition does.
 */
export interface ConditionDescriptor {
  readonly kind: 'termination-condition';
  readonly description: string;
  /** These conditions take no params: a key given to one is a mistake worth naming. */
  readonly paramsSchema: z.ZodType;
}

const noParams = z.strictObject({});

export const controllers = {
  'arena:ScriptedSimulationController': simulationControllerMachine,
} as const;

export const conditions = {
  'arena:AgentEvaluationObjectiveTerminationCondition': evaluationTerminationMachine,
  'arena:MaxEpisodesTerminationCondition': {
    kind: 'termination-condition',
    description: 'the phase stops after phase_config.episodes episodes',
    paramsSchema: noParams,
  } satisfies ConditionDescriptor,
  'arena:VanillaSimControllerTerminationCondition': {
    kind: 'termination-condition',
    description: 'an episode ends when an environment is done or max_steps is reached',
    paramsSchema: noParams,
  } satisfies ConditionDescriptor,
} as const;
