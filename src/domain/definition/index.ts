export type { DefinitionAgentInterface, DefinitionChannel } from './agentInterfaceBridge.js';
export { buildDefinitionAgentInterface } from './agentInterfaceBridge.js';
export { interfaceFingerprint, interfaceFromSelectors } from './definitionInterface.js';
export type { DefinitionActions, DefinitionMap } from './definitionProvider.js';
export { createDefinitionProvider, DefinitionProvider } from './definitionProvider.js';
export {
  defaultDiscoveryOptions,
  definitionBlockSchema,
  parseDiscoveryOptions,
} from './discoveryOptions.js';
export {
  DefinitionBridgeError,
  DefinitionConfigError,
  DefinitionFingerprintError,
  DefinitionPatchError,
  DefinitionValidationError,
  JsonPointerError,
  ScenarioContractError,
  SelectorDiscoveryError,
} from './errors.js';
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
export type { ProposeDefinitionOptions } from './proposeDefinition.js';
export { proposeDefinition } from './proposeDefinition.js';
export { scenarioRevision } from './revision.js';
export type { ScenarioActionCatalogue, ScenarioPatchAction } from './scenarioActions.js';
export {
  catalogueActionAt,
  catalogueIndexOf,
  createScenarioActionCatalogue,
  createScenarioPatchAction,
  patchForAction,
} from './scenarioActions.js';
export type { ScenarioAgentInterface } from './scenarioAgentInterface.js';
export {
  createScenarioAgentInterface,
  scenarioActionUid,
  selectedScenarioAction,
} from './scenarioAgentInterface.js';
export type {
  CatalogueChoice,
  ScenarioDecisionInput,
  ScenarioDecisionRecord,
  ScenarioTransition,
} from './scenarioDecision.js';
export { createScenarioDecisionRecord, createScenarioTransition } from './scenarioDecision.js';
export type { ScenarioState } from './scenarioState.js';
export { createScenarioState, scenarioStateFromCandidate } from './scenarioState.js';
export type { DeriveSelectorsOptions } from './selectors.js';
export { boundsFromValue, deriveSelectors, normalisationFromValue } from './selectors.js';
export type {
  ActuatorDescriptor,
  DeclarativePatch,
  DefinitionInterface,
  DefinitionVector,
  DescriptorFingerprint,
  DiscoveryOptions,
  KeyOrder,
  Normalisation,
  PatchOperation,
  ProposedDefinition,
  Selector,
  SelectorManifestEntry,
  SensorDescriptor,
  ValidatedCandidate,
} from './types.js';
