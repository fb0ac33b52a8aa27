import type { z } from 'zod';
import type { BrainFactory, MuscleFactory, ObjectiveFactory } from '../ports/agent.js';
import type { EnvironmentFactory } from '../ports/environment.js';
import { ConstantBrain } from './brains/constantBrain.js';
import { CrossEntropyBrain } from './brains/crossEntropyBrain.js';
import { DefaultMuscle } from './brains/defaultMuscle.js';
import { MetaBanditBrain } from './brains/metaBanditBrain.js';
import { GridObjective, SumObjective } from './brains/objectives.js';
import { RandomBrain } from './brains/randomBrain.js';
import { type ConditionDescriptor, conditions, controllers } from './conditions.js';
import { GridEnvironment } from './grid/gridEnvironment.js';

export {
  BrainParamsError,
  BrainStateError,
  MuscleProposalError,
  ObjectiveRewardError,
} from './brains/errors.js';
export { EvaluationLedger, isEvaluating } from './brains/evaluationLedger.js';
export { LinearPolicy } from './brains/linearPolicy.js';
export { META_RETURN_REWARD } from './brains/metaBanditBrain.js';
export { GRID_OBJECTIVE_WEIGHTS } from './brains/objectives.js';
export { sampleSpace, spaceFrame } from './brains/spaceMath.js';
export { type DirectLoopParts, runDirectEpisode } from './directLoop.js';
export { GRID_REWARDS } from './grid/channels.js';
export {
  GridActionError,
  GridLifecycleError,
  GridScenarioError,
  GridTopologyError,
} from './grid/errors.js';
export { buildFeeder, type Feeder, generatedFeederLines, type LineSpec } from './grid/feeder.js';
export {
  createPowerFlowResult,
  type PowerFlowResult,
  solveLinDistFlow,
} from './grid/linDistFlow.js';
export { LOAD_PROFILE_NAMES, loadProfile, profileAt, pvProfile } from './grid/profiles.js';
export {
  GRID_DEFAULTS,
  type GridModel,
  gridParamsSchema,
  parseGridParams,
} from './grid/scenario.js';
export type { ConditionDescriptor };
export {
  ConstantBrain,
  CrossEntropyBrain,
  DefaultMuscle,
  GridEnvironment,
  GridObjective,
  MetaBanditBrain,
  RandomBrain,
  SumObjective,
};

/** A factory of `Class` that carries the class's `paramsSchema`, so validation finds it. */
function factoryOf<Init, Component>(Class: {
  new (init: Init): Component;
  readonly paramsSchema: z.ZodType;
}): ((init: Init) => Component) & { readonly paramsSchema: z.ZodType } {
  return Object.assign((init: Init) => new Class(init), { paramsSchema: Class.paramsSchema });
}

const environments: Record<string, EnvironmentFactory> = {
  'arena:GridEnvironment': factoryOf(GridEnvironment),
};
const brains: Record<string, BrainFactory> = {
  'arena:RandomBrain': factoryOf(RandomBrain),
  'arena:ConstantBrain': factoryOf(ConstantBrain),
  'arena:CrossEntropyBrain': factoryOf(CrossEntropyBrain),
  'arena:MetaBanditBrain': factoryOf(MetaBanditBrain),
};
const muscles: Record<string, MuscleFactory> = {
  'arena:DefaultMuscle': factoryOf(DefaultMuscle),
};
const objectives: Record<string, ObjectiveFactory> = {
  'arena:SumObjective': factoryOf(SumObjective),
  'arena:GridObjective': factoryOf(GridObjective),
};

/**
 * The components that ship with arena, keyed by their run-file name
 * (`arena:GridEnvironment`), each a factory of the matching port type
 * (`EnvironmentFactory`, `BrainFactory`, `MuscleFactory`, `ObjectiveFactory`).
 * Run files name them as `arena:Name`; `resolveComponent` looks them up here.
 * Each factory carries its class's `paramsSchema` (a zod schema), the one
 * the component reads its `params` with, so `arena validate` and `arena run`
 * check `params` before anything is built.
 *
 * @example
 * ```ts
 * builtinComponents.has('arena:GridEnvironment'); // true
 * [...builtinComponents.keys()];
 * // ['arena:GridEnvironment', 'arena:RandomBrain', 'arena:ConstantBrain',
 * //  'arena:CrossEntropyBrain', 'arena:MetaBanditBrain', 'arena:DefaultMuscle',
 * //  'arena:SumObjective', 'arena:GridObjective']
 * ```
 */
export const builtinComponents: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ...Object.entries(environments),
  ...Object.entries(brains),
  ...Object.entries(muscles),
  ...Object.entries(objectives),
  ...Object.entries(controllers),
  ...Object.entries(conditions),
]);
