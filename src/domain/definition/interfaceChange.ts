import { canonicalJson } from '../shared/canonicalJson.js';
import type { SensorDescriptor } from './types.js';

/**
 * The first difference between two ordered descriptor lists, in words, or
 * `undefined` when they are equal (same UIDs, pointers, spaces and
 * normalisation, in the same order). Used to say *why* a fingerprint changed.
 *
 * @example
 * ```ts
 * describeDescriptorChange([a, b], [a]); // 'selector "midas.definition.b" is gone'
 * describeDescriptorChange([a], [a, c]); // 'selector "midas.definition.c" is new'
 * ```
 */
export function describeDescriptorChange(
  expected: readonly SensorDescriptor[],
  actual: readonly SensorDescriptor[],
): string | undefined {
  const actualUids = new Set(actual.map((descriptor) => descriptor.uid));
  const expectedUids = new Set(expected.map((descriptor) => descriptor.uid));
  const gone = expected.find((descriptor) => !actualUids.has(descriptor.uid));
  if (gone !== undefined) return `selector "${gone.uid}" at "${gone.pointer}" is gone`;
  const added = actual.find((descriptor) => !expectedUids.has(descriptor.uid));
  if (added !== undefined) return `selector "${added.uid}" at "${added.pointer}" is new`;
  if (expected.length !== actual.length) {
    return `${expected.length} descriptors became ${actual.length}`;
  }
  for (let index = 0; index < expected.length; index++) {
    const before = expected[index] as SensorDescriptor;
    const after = actual[index] as SensorDescriptor;
    if (before.uid !== after.uid) {
      return `position ${index} held "${before.uid}" and now holds "${after.uid}"`;
    }
    if (before.pointer !== after.pointer) {
      return `selector "${before.uid}" moved from "${before.pointer}" to "${after.pointer}"`;
    }
    if (
      before.space !== after.space &&
      canonicalJson(before.space) !== canonicalJson(after.space)
    ) {
      return `the space of "${before.uid}" changed from ${canonicalJson(before.space)} to ${canonicalJson(after.space)}`;
    }
    if (
      before.normalisation !== after.normalisation &&
      canonicalJson(before.normalisation) !== canonicalJson(after.normalisation)
    ) {
      return `the normalisation of "${before.uid}" changed`;
    }
  }
  return undefined;
}
