import type { DefinitionMap } from '../domain/definition/definitionProvider.js';
import type { ScenarioDecisionRecord } from '../domain/definition/scenarioDecision.js';
import type {
  DeclarativePatch,
  DefinitionInterface,
  DefinitionVector,
  ProposedDefinition,
  ValidatedCandidate,
} from '../domain/definition/types.js';
import type { JsonObject } from '../domain/shared/json.js';
import type { Space } from '../domain/shared/spaces.js';

/** The types of the meta turn: its input, context, decision record and output. */

/** The agent interface the meta agent is set up with (plain JSON). */
export interface MetaAgentInterface {
  readonly sensors: readonly { readonly uid: string; readonly space: Space }[];
  readonly actuators: readonly { readonly uid: string; readonly space: Space }[];
  readonly readings: Readonly<Record<string, number>>;
}

/**
 * What one meta turn works on: the environment it patches, its configurations and the meta agent.
 */
export interface MetaTurnInput {
  /** The environment whose definition the meta agent patches. */
  readonly environmentUid: string;
  /** A deep copy of the phase's environment configurations (the start request's). */
  readonly environmentConfigurations: Readonly<Record<string, JsonObject>>;
  readonly metaAgent: string;
  readonly phase: string;
  /** Which start request of the phase this turn serves (1-based). */
  readonly startRequest: number;
  /** ISO 8601 instant of the start request (from the runner's clock), for the decision record. */
  readonly decidedAt: string;
}

/** The evidence of one definition decision: what was, what the agent chose, what became. */
export interface MetaDecision {
  readonly environmentUid: string;
  readonly agentName: string;
  readonly phase: string;
  readonly startRequest: number;
  readonly fromRevision: string;
  readonly toRevision: string;
  readonly fingerprint: string;
  /** Selector UIDs in the definition interface's order. */
  readonly selectorOrder: readonly string[];
  /** Selector UID -> value before and after the patch. */
  readonly baseline: Readonly<Record<string, number>>;
  readonly candidate: Readonly<Record<string, number>>;
  readonly actions: Readonly<Record<string, number>>;
  readonly patch: DeclarativePatch;
  /** The immutable evidence of the decision (seed: `ScenarioDecisionRecord`). */
  readonly record: ScenarioDecisionRecord;
}

/** Why a meta turn failed, as data. */
export interface MetaTurnFailure {
  readonly name: string;
  readonly code: string | null;
  readonly message: string;
}

/**
 * A meta turn's result: the configuration override and the decision behind it, or the failed step.
 */
export interface MetaTurnOutput {
  readonly status: 'done' | 'failed';
  readonly environmentUid: string;
  /** Environment uid -> its full configuration with the scenario subtree replaced. */
  readonly override: Readonly<Record<string, JsonObject>> | null;
  readonly candidate: ValidatedCandidate | null;
  readonly decision: MetaDecision | null;
  readonly agentInterface: MetaAgentInterface | null;
  readonly failedStep: string | null;
  readonly error: MetaTurnFailure | null;
}

/** The meta turn's context: plain JSON, filled in step by step. */
export interface MetaTurnContext {
  readonly input: MetaTurnInput;
  readonly overrides: Readonly<Record<string, JsonObject>>;
  readonly configuration: JsonObject | null;
  readonly proposal: ProposedDefinition | null;
  readonly baseline: ValidatedCandidate | null;
  readonly definition: DefinitionMap | null;
  readonly definitionInterface: DefinitionInterface | null;
  readonly vector: DefinitionVector | null;
  readonly agentInterface: MetaAgentInterface | null;
  readonly metaAgentName: string | null;
  readonly actions: Readonly<Record<string, number>> | null;
  readonly definitionActions: Readonly<Record<string, number>> | null;
  readonly patch: DeclarativePatch | null;
  readonly candidate: ValidatedCandidate | null;
  readonly override: Readonly<Record<string, JsonObject>> | null;
  readonly decision: MetaDecision | null;
  readonly failedStep: string | null;
  readonly error: MetaTurnFailure | null;
}
