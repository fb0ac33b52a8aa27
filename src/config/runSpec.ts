import type { KeyOrder } from '../domain/definition/types.js';
import type { JsonObject } from '../domain/shared/json.js';
import type { LifecycleScript } from './script.js';

/**
 * A component named in a run file: `arena:BuiltinName` or
 * `./path.js:ExportName`, its params, and the YAML path where it was declared
 * (`schedule[0].train.agents[1].brain`), so errors can point at it.
 */
export interface ComponentRef {
  readonly name: string;
  readonly params: JsonObject;
  readonly yamlPath: string;
}

/** One environment of a phase. */
export interface EnvironmentSpec {
  /** Logical environment UID; scripts name environments by it. */
  readonly uid: string;
  readonly component: ComponentRef;
  readonly params: JsonObject;
  /** Declaration order of the mappings in `params`, rooted at `params` (`''`). */
  readonly keyOrder: KeyOrder;
}

/** One agent of a phase: brain (learns), muscle (acts), objective (scores). */
export interface AgentSpec {
  readonly name: string;
  readonly brain: ComponentRef;
  readonly muscle: ComponentRef;
  readonly objective: ComponentRef;
  readonly sensors: readonly string[];
  readonly actuators: readonly string[];
}

/** The scripted simulation controller of a phase. */
export interface SimulationSpec {
  readonly name: string;
  readonly script: LifecycleScript;
  readonly conditions: readonly ComponentRef[];
}

/** How a phase runs. `episodes: null` has no cap; `evaluateEvery: null` never evaluates. */
export interface PhaseConfig {
  readonly mode: 'train' | 'test';
  readonly worker: number;
  readonly episodes: number | null;
  readonly evaluateEvery: number | null;
  readonly maxSteps: number;
}

/** One phase of the schedule, after inheritance from the phases before it. */
export interface PhaseSpec {
  readonly name: string;
  readonly index: number;
  /** YAML path of the phase, e.g. `schedule[1].test`. */
  readonly yamlPath: string;
  readonly environments: readonly EnvironmentSpec[];
  readonly agents: readonly AgentSpec[];
  readonly simulation: SimulationSpec;
  readonly phaseConfig: PhaseConfig;
}

/** A validated, normalised (camelCase) run file. Deeply frozen. */
export interface RunSpec {
  readonly uid: string;
  readonly seed: number;
  readonly version: number;
  /** The file the spec was read from, as given. */
  readonly sourcePath: string;
  /** The folder `./path.js:Export` components are resolved against. */
  readonly baseDir: string;
  /** The run file's text, exactly as parsed: what the store keeps, so a resume parses the same file. */
  readonly sourceText: string;
  readonly phases: readonly PhaseSpec[];
  /** `run_config.condition`, or `null` when the file declares none. */
  readonly runCondition: ComponentRef | null;
  /** `run_config.trust_services`: the instance keys trusted per `nats:<service>` (none: any instance). */
  readonly trustedServices: Readonly<Record<string, readonly string[]>>;
}
