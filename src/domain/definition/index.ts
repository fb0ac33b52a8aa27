export * from './agentInterfaceBridge.js';
export { interfaceFingerprint, interfaceFromSelectors } from './definitionInterface.js';
export * from './definitionProvider.js';
export * from './discoveryOptions.js';
export * from './errors.js';
export { subKeyOrder } from './keyOrder.js';
export { applyPatchOperations, createDeclarativePatch, patchHash } from './patch.js';
export {
  buildPointer,
  escapePointerToken,
  getAtPointer,
  parsePointer,
  setAtPointer,
  unescapePointerToken,
} from './pointer.js';
export * from './proposeDefinition.js';
export * from './revision.js';
export * from './scenarioActions.js';
export * from './scenarioAgentInterface.js';
export * from './scenarioDecision.js';
export type { ScenarioState } from './scenarioState.js';
export { createScenarioState, scenarioStateFromCandidate } from './scenarioState.js';
export type { DeriveSelectorsOptions } from './selectors.js';
export { boundsFromValue, deriveSelectors, normalisationFromValue } from './selectors.js';
export * from './types.js';
