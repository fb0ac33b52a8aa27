import { deepFreeze } from '../shared/json.js';
import type { DiscreteSpace } from '../shared/spaces.js';
import type { DefinitionChannel } from './agentInterfaceBridge.js';
import { interfaceFingerprint } from './definitionInterface.js';
import { ScenarioContractError } from './errors.js';
import { getAtPointer } from './pointer.js';
import {
  catalogueActionAt,
  type ScenarioActionCatalogue,
  type ScenarioPatchAction,
} from './scenarioActions.js';
import type { ScenarioState } from './scenarioState.js';
import type { DefinitionInterface } from './types.js';

/**
 * The agent boundary of catalogue-driven scenario planning: a scenario state
 * projected into the definition sensors, plus one Discrete actuator whose
 * value `i` selects `catalogue.actions[i]`. Structurally an agent interface
 * (`sensors`, `actuators`, `readings`).
 */
export interface ScenarioAgentInterface {
  readonly environmentUid: string;
  /** The revision of the state the readings were taken from. */
  readonly stateRevision: string;
  readonly sensors: readonly DefinitionChannel[];
  /** Exactly one actuator: `<environmentUid>.scenario.action`. */
  readonly actuators: readonly [DefinitionChannel & { readonly space: DiscreteSpace }];
  readonly readings: Readonly<Record<string, number>>;
  readonly catalogue: ScenarioActionCatalogue;
}

/**
 * The UID of the catalogue actuator of an environment.
 *
 * @example
 * ```ts
 * scenarioActionUid('grid'); // 'grid.scenario.action'
 * ```
 */
export function scenarioActionUid(environmentUid: string): string {
  return `${environmentUid}.scenario.action`;
}

/**
 * Project `state` through `definitionInterface` into sensors and readings,
 * with one Discrete catalogue actuator (`values` are the agent indices
 * `0..n-1`). Environments must agree, every sensor must read a finite number
 * in the state, and a state with a fingerprint must match the interface's.
 *
 * @example
 * ```ts
 * const agentInterface = createScenarioAgentInterface({ state, definitionInterface, catalogue });
 * agentInterface.actuators[0]; // { uid: 'midas.scenario.action', space: { type: 'Discrete', n: 2, values: [0, 1] } }
 * agentInterface.readings; // { 'midas.definition.pv': 2.2 }
 * ```
 */
export function createScenarioAgentInterface(input: {
  state: ScenarioState;
  definitionInterface: DefinitionInterface;
  catalogue: ScenarioActionCatalogue;
}): ScenarioAgentInterface {
  const { state, definitionInterface, catalogue } = input;
  const environmentUid = state.environmentUid;
  for (const [what, uid] of [
    ['definitionInterface', definitionInterface.environmentUid],
    ['catalogue', catalogue.environmentUid],
  ] as const) {
    if (uid !== environmentUid) {
      throw new ScenarioContractError(
        `ScenarioAgentInterface: the ${what} is for "${uid}", the state for "${environmentUid}"`,
      );
    }
  }
  if (
    state.fingerprint !== null &&
    state.fingerprint.value !== interfaceFingerprint(definitionInterface).value
  ) {
    throw new ScenarioContractError(
      `ScenarioAgentInterface: the state ${state.revision} was validated for a different definition interface`,
    );
  }
  const readings: Record<string, number> = {};
  const sensors = definitionInterface.sensors.map((sensor): DefinitionChannel => {
    const value = getAtPointer(state.definition, sensor.pointer);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new ScenarioContractError(
        `ScenarioAgentInterface: sensor "${sensor.uid}" expects a finite number at "${sensor.pointer}" of state ${state.revision}`,
      );
    }
    readings[sensor.uid] = value;
    return { uid: sensor.uid, space: sensor.space };
  });
  const n = catalogue.actions.length;
  const actionSpace: DiscreteSpace = { type: 'Discrete', n, values: [...Array(n).keys()] };
  return deepFreeze({
    environmentUid,
    stateRevision: state.revision,
    sensors,
    actuators: [{ uid: scenarioActionUid(environmentUid), space: actionSpace }],
    readings,
    catalogue,
  });
}

/**
 * The catalogue action an agent's actuator values select.
 *
 * @example
 * ```ts
 * selectedScenarioAction(agentInterface, { 'midas.scenario.action': 1 }).patchId; // 'pv-up'
 * ```
 */
export function selectedScenarioAction(
  agentInterface: ScenarioAgentInterface,
  actions: Readonly<Record<string, number>>,
): ScenarioPatchAction {
  const uid = agentInterface.actuators[0].uid;
  const index = Object.hasOwn(actions, uid) ? actions[uid] : undefined;
  if (index === undefined) {
    throw new ScenarioContractError(`the agent gave no value for the actuator "${uid}"`);
  }
  return catalogueActionAt(agentInterface.catalogue, index);
}
