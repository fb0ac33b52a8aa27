import { deepFreeze } from '../shared/json.js';
import type { Space } from '../shared/spaces.js';
import { DefinitionBridgeError } from './errors.js';
import type { DefinitionInterface, DefinitionVector, SensorDescriptor } from './types.js';

/** A sensor or actuator as the agent port takes it: a UID and its scalar space. */
export interface DefinitionChannel {
  readonly uid: string;
  readonly space: Space;
}

/**
 * What the meta agent is set up with: structurally the agent port's
 * `AgentInterface`, defined here so the domain imports nothing from ports.
 */
export interface DefinitionAgentInterface {
  readonly sensors: readonly DefinitionChannel[];
  readonly actuators: readonly DefinitionChannel[];
  /** The definition vector keyed by sensor UID (raw values, never normalised). */
  readonly readings: Readonly<Record<string, number>>;
}

/**
 * Translate a definition interface and its vector into the sensors,
 * actuators and initial readings of the agent port. Sensor and actuator UIDs
 * must be identical, unique and in the same order, and the vector must hold
 * one finite value for each sensor in that order; otherwise it throws
 * `DefinitionBridgeError` naming the first misaligned position.
 *
 * @example
 * ```ts
 * buildDefinitionAgentInterface(provider.describe(definition), provider.vectorize(definition));
 * // { sensors: [{ uid: 'midas.definition.load', space: { type: 'Box', low: 0, high: 4 } }],
 * //   actuators: [{ uid: 'midas.definition.load', space: { type: 'Box', low: 0, high: 4 } }],
 * //   readings: { 'midas.definition.load': 2 } }
 * ```
 */
export function buildDefinitionAgentInterface(
  definitionInterface: DefinitionInterface,
  vector: DefinitionVector,
): DefinitionAgentInterface {
  const { sensors, actuators } = definitionInterface;
  if (sensors.length !== actuators.length) {
    throw new DefinitionBridgeError(
      `${sensors.length} sensors but ${actuators.length} actuators; every definition selector is both`,
    );
  }
  if (vector.uids.length !== sensors.length || vector.values.length !== sensors.length) {
    throw new DefinitionBridgeError(
      `the vector has ${vector.uids.length} UIDs and ${vector.values.length} values for ${sensors.length} sensors`,
    );
  }
  const readings: Record<string, number> = {};
  const sensorChannels: DefinitionChannel[] = [];
  const actuatorChannels: DefinitionChannel[] = [];
  sensors.forEach((sensor: SensorDescriptor, index) => {
    const actuator = actuators[index] as SensorDescriptor;
    if (actuator.uid !== sensor.uid) {
      throw new DefinitionBridgeError(
        `position ${index}: sensor "${sensor.uid}" and actuator "${actuator.uid}" must have the same UID`,
      );
    }
    if (vector.uids[index] !== sensor.uid) {
      throw new DefinitionBridgeError(
        `position ${index}: the vector holds "${vector.uids[index]}" where sensor "${sensor.uid}" is`,
      );
    }
    if (Object.hasOwn(readings, sensor.uid)) {
      throw new DefinitionBridgeError(`sensor "${sensor.uid}" appears twice`);
    }
    const value = vector.values[index];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new DefinitionBridgeError(
        `position ${index}: the reading of "${sensor.uid}" must be a finite number, got ${String(value)}`,
      );
    }
    readings[sensor.uid] = value;
    sensorChannels.push({ uid: sensor.uid, space: sensor.space });
    actuatorChannels.push({ uid: actuator.uid, space: actuator.space });
  });
  return deepFreeze({ sensors: sensorChannels, actuators: actuatorChannels, readings });
}
