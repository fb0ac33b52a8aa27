export { componentParamsIssues, paramsSchemaOf } from './componentParams.js';
export type { ComponentResolution } from './components.js';
export {
  ComponentResolutionError,
  componentRefsOf,
  resolveComponent,
  resolveRunComponents,
} from './components.js';
export type { ConfigIssue, PathSegment, SourceLocation } from './configIssue.js';
export { formatIssue, formatYamlPath, parseYamlPath } from './configIssue.js';
export { declaringPhase, inheritPhase } from './phaseInheritance.js';
export type { ParseRunFileOptions } from './runFile.js';
export { loadRunFile, parseRunFile } from './runFile.js';
export { RunFileError } from './runFileError.js';
export { runFileJsonSchema } from './runFileJsonSchema.js';
export type { RunFileDocument } from './runFileSchema.js';
export { completePhaseSchema, partialPhaseSchema, runFileSchema } from './runFileSchema.js';
export type {
  AgentSpec,
  ComponentRef,
  EnvironmentSpec,
  PhaseConfig,
  PhaseSpec,
  RunSpec,
  SimulationSpec,
} from './runSpec.js';
export type { LifecycleScript, ScriptContext, TurnGroup } from './script.js';
export { parseLifecycleScript, ScriptError } from './script.js';
export { lifecycleScriptSchema, partialLifecycleScriptSchema } from './scriptSchema.js';
export { describeRunSpec, locateRunFileIssues } from './validateRunFile.js';
