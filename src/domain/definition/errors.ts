import { ArenaError } from '../shared/errors.js';

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

/** A malformed or unresolvable RFC 6901 JSON pointer. */
export class JsonPointerError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('JSON_POINTER', message, options);
  }
}

/** A bad `definition` block (`include`, `exclude`, `selector_manifest`). */
export class DefinitionConfigError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DEFINITION_CONFIG', message, options);
  }
}

/** A scenario whose numeric leaves cannot be turned into selectors. */
export class SelectorDiscoveryError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SELECTOR_DISCOVERY', message, options);
  }
}

/** Actions that cannot become a patch, or a patch that cannot be applied. */
export class DefinitionPatchError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DEFINITION_PATCH', message, options);
  }
}

/** A definition (or patched candidate) that is not valid for the interface. */
export class DefinitionValidationError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DEFINITION_VALIDATION', message, options);
  }
}

/** A patch that would change the definition interface the agent learns over. */
export class DefinitionFingerprintError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DEFINITION_FINGERPRINT', message, options);
  }
}

/** Descriptors and a vector that do not line up as an agent interface. */
export class DefinitionBridgeError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DEFINITION_BRIDGE', message, options);
  }
}

/** A scenario contract (state, catalogue, decision, transition) that is inconsistent. */
export class ScenarioContractError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SCENARIO_CONTRACT', message, options);
  }
}
