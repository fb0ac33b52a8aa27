import { createHash } from 'node:crypto';
import { deepFreeze } from '../shared/json.js';
import { canonicalSha256 } from './canonicalHash.js';
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
    // One frozen descriptor serves as both: they are equal by contract.
    const descriptor = Object.freeze({ uid, pointer, space, normalisation });
    sensors.push(descriptor);
    actuators.push(descriptor);
  }
  return deepFreeze({ environmentUid, sensors, actuators });
}

/**
 * A stable sha256 over the canonical JSON of an interface's environment UID,
 * sensors and actuators (order matters; key order inside a descriptor does
 * not): `sha256(canonicalJson({ environmentUid, sensors, actuators }))`.
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
  const sensorsJson = descriptorListCanonicalJson(sensors);
  // Sensors and actuators are usually the very same descriptors: write them once.
  const shared =
    sensors.length === actuators.length &&
    sensors.every((sensor, index) => sensor === actuators[index]);
  const actuatorsJson = shared ? sensorsJson : descriptorListCanonicalJson(actuators);
  let value: string;
  if (sensorsJson !== undefined && actuatorsJson !== undefined) {
    // Canonical keys in order: actuators, environmentUid, sensors.
    const hash = createHash('sha256');
    hash.update('{"actuators":[');
    for (const part of actuatorsJson) hash.update(part);
    hash.update(`],"environmentUid":${JSON.stringify(environmentUid)},"sensors":[`);
    for (const part of sensorsJson) hash.update(part);
    hash.update(']}');
    value = hash.digest('hex');
  } else {
    value = canonicalSha256({ environmentUid, sensors, actuators });
  }
  return deepFreeze({ algorithm: 'sha256', value });
}

/** The comma-joined canonical JSON of descriptors in batches, or `undefined` for an unusual shape. */
function descriptorListCanonicalJson(
  descriptors: readonly SensorDescriptor[],
): string[] | undefined {
  const batch = 512;
  const parts: string[] = [];
  for (let start = 0; start < descriptors.length; start += batch) {
    const texts: string[] = [];
    for (let index = start; index < Math.min(start + batch, descriptors.length); index++) {
      const text = descriptorCanonicalJson(descriptors[index] as SensorDescriptor);
      if (text === undefined) return undefined;
      texts.push(text);
    }
    parts.push((start > 0 ? ',' : '') + texts.join(','));
  }
  return parts;
}

/**
 * The canonical JSON of a descriptor of the usual shape, written directly
 * (a fingerprint hashes hundreds of thousands of them), or `undefined` for
 * any other shape, which then goes through the generic canonical writer.
 */
export function descriptorCanonicalJson(descriptor: SensorDescriptor): string | undefined {
  const { uid, pointer, space, normalisation } = descriptor;
  if (
    Object.keys(descriptor).length !== 4 ||
    typeof uid !== 'string' ||
    typeof pointer !== 'string'
  ) {
    return undefined;
  }
  const norm = normalisation as unknown as Record<string, unknown>;
  if (
    Object.keys(norm).length !== 2 ||
    !isFiniteNumber(norm.center) ||
    !isFiniteNumber(norm.scale)
  ) {
    return undefined;
  }
  const spaceJson = spaceCanonicalJson(space as unknown as Record<string, unknown>);
  if (spaceJson === undefined) return undefined;
  return `{"normalisation":{"center":${JSON.stringify(norm.center)},"scale":${JSON.stringify(norm.scale)}},"pointer":${JSON.stringify(pointer)},"space":${spaceJson},"uid":${JSON.stringify(uid)}}`;
}

function spaceCanonicalJson(space: Record<string, unknown>): string | undefined {
  const keys = Object.keys(space).length;
  if (
    space.type === 'Box' &&
    keys === 3 &&
    isFiniteNumber(space.low) &&
    isFiniteNumber(space.high)
  ) {
    return `{"high":${JSON.stringify(space.high)},"low":${JSON.stringify(space.low)},"type":"Box"}`;
  }
  if (
    space.type === 'Discrete' &&
    keys === 3 &&
    isFiniteNumber(space.n) &&
    Array.isArray(space.values) &&
    space.values.every(isFiniteNumber)
  ) {
    return `{"n":${JSON.stringify(space.n)},"type":"Discrete","values":${JSON.stringify(space.values)}}`;
  }
  return undefined;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
