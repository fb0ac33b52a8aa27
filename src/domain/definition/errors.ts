import { arenaErrorClass } from '../shared/errors.js';

/**
 * Errors of the definition layer. Each kind a caller handles differently has
 * its own class and a stable `code`.
 *
 * @example
 * ```ts
 * try { provider.proposePatch({ midas: scenario }, { 'midas.definition.x': 9 }); }
 * catch (error) { if (ArenaError.is(error, 'DEFINITION_PATCH')) console.log(error.message); }
 * // actuator "midas.definition.x" is not in the definition interface of "midas"
 * ```
 */

/**
 * A malformed or unresolvable RFC 6901 JSON pointer.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'JSON_POINTER'); // true when `error` is a JsonPointerError
 * error instanceof JsonPointerError && error.name; // 'JsonPointerError'
 * ```
 */
export class JsonPointerError extends arenaErrorClass('JSON_POINTER') {}

/**
 * A bad `definition` block (`include`, `exclude`, `selector_manifest`).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DEFINITION_CONFIG'); // true when `error` is a DefinitionConfigError
 * error instanceof DefinitionConfigError && error.name; // 'DefinitionConfigError'
 * ```
 */
export class DefinitionConfigError extends arenaErrorClass('DEFINITION_CONFIG') {}

/**
 * A scenario whose numeric leaves cannot be turned into selectors.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'SELECTOR_DISCOVERY'); // true when `error` is a SelectorDiscoveryError
 * error instanceof SelectorDiscoveryError && error.name; // 'SelectorDiscoveryError'
 * ```
 */
export class SelectorDiscoveryError extends arenaErrorClass('SELECTOR_DISCOVERY') {}

/**
 * Actions that cannot become a patch, or a patch that cannot be applied.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DEFINITION_PATCH'); // true when `error` is a DefinitionPatchError
 * error instanceof DefinitionPatchError && error.name; // 'DefinitionPatchError'
 * ```
 */
export class DefinitionPatchError extends arenaErrorClass('DEFINITION_PATCH') {}

/**
 * A definition (or patched candidate) that is not valid for the interface.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DEFINITION_VALIDATION'); // true when `error` is a DefinitionValidationError
 * error instanceof DefinitionValidationError && error.name; // 'DefinitionValidationError'
 * ```
 */
export class DefinitionValidationError extends arenaErrorClass('DEFINITION_VALIDATION') {}

/**
 * A patch that would change the definition interface the agent learns over.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DEFINITION_FINGERPRINT'); // true when `error` is a DefinitionFingerprintError
 * error instanceof DefinitionFingerprintError && error.name; // 'DefinitionFingerprintError'
 * ```
 */
export class DefinitionFingerprintError extends arenaErrorClass('DEFINITION_FINGERPRINT') {}

/**
 * Descriptors and a vector that do not line up as an agent interface.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'DEFINITION_BRIDGE'); // true when `error` is a DefinitionBridgeError
 * error instanceof DefinitionBridgeError && error.name; // 'DefinitionBridgeError'
 * ```
 */
export class DefinitionBridgeError extends arenaErrorClass('DEFINITION_BRIDGE') {}

/**
 * A scenario contract (state, catalogue, decision, transition) that is inconsistent.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'SCENARIO_CONTRACT'); // true when `error` is a ScenarioContractError
 * error instanceof ScenarioContractError && error.name; // 'ScenarioContractError'
 * ```
 */
export class ScenarioContractError extends arenaErrorClass('SCENARIO_CONTRACT') {}
