/**
 * `arena-runtime/definition`: the definition layer (a scenario as a JSON
 * document, its selectors, patches and revisions) and the meta-objective.
 *
 * @example
 * ```ts
 * import { getAtPointer, parsePointer } from 'arena-runtime/definition';
 * parsePointer('/feeder/lines/0'); // ['feeder', 'lines', '0']
 * getAtPointer({ feeder: { lines: [7] } }, '/feeder/lines/0'); // 7
 * ```
 */

export type {
  ActuatorDescriptor,
  CatalogueChoice,
  DeclarativePatch,
  DefinitionActions,
  DefinitionAgentInterface,
  DefinitionChannel,
  DefinitionInterface,
  DefinitionMap,
  DefinitionVector,
  DeriveSelectorsOptions,
  DescriptorFingerprint,
  DiscoveryOptions,
  KeyOrder,
  Normalisation,
  PatchOperation,
  ProposeDefinitionOptions,
  ProposedDefinition,
  ScenarioActionCatalogue,
  ScenarioAgentInterface,
  ScenarioDecisionInput,
  ScenarioDecisionRecord,
  ScenarioPatchAction,
  ScenarioState,
  ScenarioTransition,
  Selector,
  SelectorManifestEntry,
  SensorDescriptor,
  ValidatedCandidate,
} from '../domain/definition/index.js';
export {
  applyPatchOperations,
  boundsFromValue,
  buildDefinitionAgentInterface,
  buildPointer,
  catalogueActionAt,
  catalogueIndexOf,
  createDeclarativePatch,
  createDefinitionProvider,
  createScenarioActionCatalogue,
  createScenarioAgentInterface,
  createScenarioDecisionRecord,
  createScenarioPatchAction,
  createScenarioState,
  createScenarioTransition,
  DefinitionBridgeError,
  DefinitionConfigError,
  DefinitionFingerprintError,
  DefinitionPatchError,
  DefinitionProvider,
  DefinitionValidationError,
  defaultDiscoveryOptions,
  deriveSelectors,
  getAtPointer,
  interfaceFingerprint,
  interfaceFromSelectors,
  JsonPointerError,
  normalisationFromValue,
  parseDiscoveryOptions,
  parsePointer,
  patchForAction,
  patchHash,
  proposeDefinition,
  ScenarioContractError,
  SelectorDiscoveryError,
  scenarioActionUid,
  scenarioRevision,
  scenarioStateFromCandidate,
  selectedScenarioAction,
  setAtPointer,
} from '../domain/definition/index.js';
export * from '../domain/objective/index.js';
