import { CanonicalJsonError, canonicalJson } from '../shared/canonicalJson.js';
import { deepFreeze, isPlainObject } from '../shared/json.js';
import { JsonPointerError, ScenarioContractError } from './errors.js';
import { createDeclarativePatch } from './patch.js';
import { parsePointer } from './pointer.js';
import type { ScenarioState } from './scenarioState.js';
import { requireName } from './scenarioState.js';
import type { DeclarativePatch, PatchOperation } from './types.js';

/** One named, declarative patch an agent can choose from a catalogue. */
export interface ScenarioPatchAction {
  /** Stable identity of the action; persisted decisions refer to it. */
  readonly patchId: string;
  readonly description: string;
  /** Replace operations at scenario pointers; empty for a "keep" action. */
  readonly operations: readonly PatchOperation[];
}

/** A finite, ordered set of patch actions: agent index `i` means `actions[i]`. */
export interface ScenarioActionCatalogue {
  readonly version: 1;
  readonly environmentUid: string;
  readonly actions: readonly ScenarioPatchAction[];
}

/**
 * A frozen `ScenarioPatchAction`. Paths must be pointers inside the scenario
 * and values must be JSON with finite numbers.
 *
 * @example
 * ```ts
 * createScenarioPatchAction({ patchId: 'pv-up', operations: [{ op: 'replace', path: '/pv', value: 3 }] });
 * // { patchId: 'pv-up', description: '', operations: [{ op: 'replace', path: '/pv', value: 3 }] }
 * ```
 */
export function createScenarioPatchAction(input: {
  patchId: string;
  description?: string;
  operations: readonly PatchOperation[];
}): ScenarioPatchAction {
  requireName(input.patchId, 'ScenarioPatchAction.patchId');
  if (!Array.isArray(input.operations)) {
    throw new ScenarioContractError(`action "${input.patchId}": operations must be a list`);
  }
  const operations = input.operations.map((operation: unknown, index): PatchOperation => {
    const field = `action "${input.patchId}" operations[${index}]`;
    if (!isPlainObject(operation) || operation.op !== 'replace') {
      throw new ScenarioContractError(`${field}: expected { op: 'replace', path, value }`);
    }
    try {
      if (typeof operation.path !== 'string' || parsePointer(operation.path).length === 0) {
        throw new JsonPointerError('expected a pointer inside the scenario');
      }
      canonicalJson(operation.value);
    } catch (error) {
      if (!(error instanceof JsonPointerError || error instanceof CanonicalJsonError)) throw error;
      throw new ScenarioContractError(`${field}: ${error.message}`, { cause: error });
    }
    return structuredClone(operation as unknown as PatchOperation);
  });
  return deepFreeze({
    patchId: input.patchId,
    description: input.description ?? '',
    operations,
  });
}

/**
 * A frozen catalogue of at least one action with unique patch IDs.
 *
 * @example
 * ```ts
 * const catalogue = createScenarioActionCatalogue({ environmentUid: 'midas', actions: [
 *   { patchId: 'keep', operations: [] },
 *   { patchId: 'pv-up', operations: [{ op: 'replace', path: '/pv', value: 3 }] },
 * ] });
 * catalogueActionAt(catalogue, 1).patchId; // 'pv-up'
 * ```
 */
export function createScenarioActionCatalogue(input: {
  environmentUid: string;
  actions: readonly (ScenarioPatchAction | Parameters<typeof createScenarioPatchAction>[0])[];
}): ScenarioActionCatalogue {
  requireName(input.environmentUid, 'ScenarioActionCatalogue.environmentUid');
  if (!Array.isArray(input.actions) || input.actions.length === 0) {
    throw new ScenarioContractError(
      'ScenarioActionCatalogue.actions: expected at least one action',
    );
  }
  const actions = input.actions.map(createScenarioPatchAction);
  const seen = new Map<string, number>();
  actions.forEach((action, index) => {
    const earlier = seen.get(action.patchId);
    if (earlier !== undefined) {
      throw new ScenarioContractError(
        `ScenarioActionCatalogue.actions[${index}]: patch ID "${action.patchId}" is already used by actions[${earlier}]`,
      );
    }
    seen.set(action.patchId, index);
  });
  return deepFreeze({ version: 1, environmentUid: input.environmentUid, actions });
}

/**
 * The action an agent index selects; the index must be an integer in range.
 *
 * @example
 * ```ts
 * catalogueActionAt(catalogue, 0).patchId; // 'keep'
 * catalogueActionAt(catalogue, 2); // throws ScenarioContractError: action index 2 is not in 0..1
 * ```
 */
export function catalogueActionAt(
  catalogue: ScenarioActionCatalogue,
  index: number,
): ScenarioPatchAction {
  const action = Number.isInteger(index) ? catalogue.actions[index] : undefined;
  if (action === undefined) {
    throw new ScenarioContractError(
      `action index ${index} is not in 0..${catalogue.actions.length - 1} of the "${catalogue.environmentUid}" catalogue`,
    );
  }
  return action;
}

/**
 * The agent index of a patch ID.
 *
 * @example
 * ```ts
 * catalogueIndexOf(catalogue, 'pv-up'); // 1
 * ```
 */
export function catalogueIndexOf(catalogue: ScenarioActionCatalogue, patchId: string): number {
  const index = catalogue.actions.findIndex((action) => action.patchId === patchId);
  if (index < 0) {
    throw new ScenarioContractError(
      `patch ID "${patchId}" is not in the "${catalogue.environmentUid}" catalogue`,
    );
  }
  return index;
}

/**
 * The `DeclarativePatch` of a catalogue action against a scenario state, ready
 * for `DefinitionProvider.validate`.
 *
 * @example
 * ```ts
 * patchForAction(state, catalogueActionAt(catalogue, 1));
 * // { version: 1, environmentUid: 'midas', baseRevision: state.revision, operations: [...], hash: '…' }
 * ```
 */
export function patchForAction(
  state: ScenarioState,
  action: ScenarioPatchAction,
): DeclarativePatch {
  return createDeclarativePatch({
    environmentUid: state.environmentUid,
    baseRevision: state.revision,
    operations: action.operations,
  });
}
