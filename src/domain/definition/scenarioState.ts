import { deepFreeze, isPlainObject, type JsonObject } from '../shared/json.js';
import { ScenarioContractError } from './errors.js';
import { scenarioRevision } from './revision.js';
import type { DescriptorFingerprint, ValidatedCandidate } from './types.js';

/**
 * A versioned, immutable materialised environment definition: the scenario
 * itself, identified by its revision (sha256 of the canonical scenario).
 */
export interface ScenarioState {
  /** Version of this contract's shape. */
  readonly version: 1;
  readonly environmentUid: string;
  /** sha256 of the canonical scenario; equal scenarios have equal revisions. */
  readonly revision: string;
  readonly definition: JsonObject;
  /** The definition interface's fingerprint, when the state was validated. */
  readonly fingerprint: DescriptorFingerprint | null;
}

/**
 * A frozen `ScenarioState` of `definition` (copied unless already frozen).
 *
 * @example
 * ```ts
 * createScenarioState({ environmentUid: 'midas', definition: { load: 2 } });
 * // { version: 1, environmentUid: 'midas', revision: '<sha256 of {"load":2}>',
 * //   definition: { load: 2 }, fingerprint: null }
 * ```
 */
export function createScenarioState(input: {
  environmentUid: string;
  definition: JsonObject;
  fingerprint?: DescriptorFingerprint | null;
}): ScenarioState {
  requireName(input.environmentUid, 'ScenarioState.environmentUid');
  if (!isPlainObject(input.definition)) {
    throw new ScenarioContractError('ScenarioState.definition: expected a scenario mapping');
  }
  const definition = Object.isFrozen(input.definition)
    ? input.definition
    : deepFreeze(structuredClone(input.definition));
  return deepFreeze({
    version: 1,
    environmentUid: input.environmentUid,
    revision: scenarioRevision(definition),
    definition,
    fingerprint: input.fingerprint ?? null,
  });
}

/**
 * The scenario state a validated candidate materialises.
 *
 * @example
 * ```ts
 * scenarioStateFromCandidate(provider.validate({ midas: scenario })).revision; // candidate.revision
 * ```
 */
export function scenarioStateFromCandidate(candidate: ValidatedCandidate): ScenarioState {
  const state = createScenarioState({
    environmentUid: candidate.environmentUid,
    definition: candidate.definition,
    fingerprint: candidate.fingerprint,
  });
  if (state.revision !== candidate.revision) {
    throw new ScenarioContractError(
      `the candidate of "${candidate.environmentUid}" claims revision ${candidate.revision}, but its definition is at ${state.revision}`,
    );
  }
  return state;
}

/** Throw unless `value` is a non-empty string; `field` names it in the error. */
export function requireName(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ScenarioContractError(`${field}: expected a non-empty string`);
  }
}
