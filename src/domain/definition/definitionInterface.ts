import { canonicalJson, sha256Hex } from '../shared/canonicalJson.js';
import { deepFreeze } from '../shared/json.js';
import type {
  ActuatorDescriptor,
  DefinitionInterface,
  DescriptorFingerprint,
  Selector,
  SensorDescriptor,
} from './types.js';

/**
 * The ordered interface of a list of selectors: each selector is exposed as a
 * sensor and as an actuator with the same UID, pointer, space and
 * normalisation, so sensors and actuators align position by position.
 *
 * @example
 * ```ts
 * interfaceFromSelectors('midas', deriveSelectors('midas', { load: 2 }));
 * // { environmentUid: 'midas',
 * //   sensors: [{ uid: 'midas.definition.load', pointer: '/load',
 * //               space: { type: 'Box', low: 0, high: 4 }, normalisation: { center: 2, scale: 2 } }],
 * //   actuators: [ the same descriptor ] }
 * ```
 */
export function interfaceFromSelectors(
  environmentUid: string,
  selectors: readonly Pick<Selector, 'uid' | 'pointer' | 'space' | 'normalisation'>[],
): DefinitionInterface {
  const sensors: SensorDescriptor[] = [];
  const actuators: ActuatorDescriptor[] = [];
  for (const { uid, pointer, space, normalisation } of selectors) {
    sensors.push({ uid, pointer, space, normalisation });
    actuators.push({ uid, pointer, space, normalisation });
  }
  return deepFreeze({ environmentUid, sensors, actuators });
}

/**
 * A stable sha256 over the canonical JSON of an interface's environment UID,
 * sensors and actuators (order matters; key order inside a descriptor does not).
 *
 * @example
 * ```ts
 * interfaceFingerprint({ environmentUid: 'midas', sensors: [], actuators: [] });
 * // { algorithm: 'sha256', value: '<64 hex digits>' }, the same on every machine
 * ```
 */
export function interfaceFingerprint(
  definitionInterface: DefinitionInterface,
): DescriptorFingerprint {
  const { environmentUid, sensors, actuators } = definitionInterface;
  const value = sha256Hex(canonicalJson({ environmentUid, sensors, actuators }));
  return deepFreeze({ algorithm: 'sha256', value });
}
