import { isPlainObject, type JsonObject } from '../shared/json.js';
import { type BoxSpace, contains, type Space } from '../shared/spaces.js';
import { discoverLeaves, selectorUid } from './discovery.js';
import { parseDiscoveryOptions } from './discoveryOptions.js';
import { DefinitionConfigError, SelectorDiscoveryError } from './errors.js';
import type { DiscoveryOptions, KeyOrder, Normalisation, Selector } from './types.js';

/** Options of `deriveSelectors` and `proposeDefinition`. */
export interface DeriveSelectorsOptions {
  /** The raw `definition` block `{ include, exclude, selector_manifest }`. */
  readonly definition?: unknown;
  /** Declaration order of the scenario's mappings (see `subKeyOrder`). */
  readonly keyOrder?: KeyOrder;
}

/**
 * The bounds a selector gets from its current value: `v > 0` gives
 * `Box[0, 2v]`, `v < 0` gives `Box[2v, 0]`, `v == 0` gives `Box[0, 1]`.
 * Continuous even for integer values; actions are never rounded. A bound
 * that would overflow is the largest finite number instead.
 *
 * @example
 * ```ts
 * boundsFromValue(0.427); // { type: 'Box', low: 0, high: 0.854 }
 * boundsFromValue(-3); // { type: 'Box', low: -6, high: 0 }
 * ```
 */
export function boundsFromValue(value: number): BoxSpace {
  // Above 8.9e307 doubling overflows; the bound stops at the largest finite number.
  if (value > 0) return { type: 'Box', low: 0, high: Math.min(2 * value, Number.MAX_VALUE) };
  if (value < 0) return { type: 'Box', low: Math.max(2 * value, -Number.MAX_VALUE), high: 0 };
  return { type: 'Box', low: 0, high: 1 };
}

/**
 * The fixed normalisation metadata of a value: `{ center: v, scale: max(|v|, 1) }`.
 * It is never applied to readings.
 *
 * @example
 * ```ts
 * normalisationFromValue(0.427); // { center: 0.427, scale: 1 }
 * normalisationFromValue(-3); // { center: -3, scale: 3 }
 * ```
 */
export function normalisationFromValue(value: number): Normalisation {
  return { center: value, scale: Math.max(Math.abs(value), 1) };
}

/**
 * Every finite number leaf of `scenario` as a `Selector`, in declaration
 * order, narrowed and overridden by the `definition` block.
 *
 * Booleans, strings, nulls, NaN and infinities are not selectors; mapping
 * keys and list indices locate values but are not values. A unique named
 * mapping leaf keeps its (escaped) key as alias; repeated names, numeric
 * tokens and empty keys use the full escaped pointer. The regular
 * expressions match the leaf key or its pointer, exclusion wins, and a
 * manifest entry replaces the discovered selector at its pointer.
 *
 * @example
 * ```ts
 * deriveSelectors('midas', { der_params: { mapping: { '6': [['PV', 2.2]] } }, step_size: 900 });
 * // [{ pointer: '/der_params/mapping/6/0/1', alias: '/der_params/mapping/6/0/1',
 * //    uid: 'midas.definition./der_params/mapping/6/0/1', value: 2.2,
 * //    space: { type: 'Box', low: 0, high: 4.4 }, normalisation: { center: 2.2, scale: 2.2 },
 * //    source: 'discovered' },
 * //  { pointer: '/step_size', alias: 'step_size', uid: 'midas.definition.step_size', value: 900,
 * //    space: { type: 'Box', low: 0, high: 1800 }, normalisation: { center: 900, scale: 900 },
 * //    source: 'discovered' }]
 * ```
 */
export function deriveSelectors(
  environmentUid: string,
  scenario: JsonObject,
  options: DeriveSelectorsOptions = {},
): readonly Selector[] {
  return selectorsFromOptions(
    environmentUid,
    scenario,
    parseDiscoveryOptions(options.definition),
    options.keyOrder ?? {},
  );
}

/** `deriveSelectors` with already validated discovery options. */
export function selectorsFromOptions(
  environmentUid: string,
  scenario: JsonObject,
  discovery: DiscoveryOptions,
  keyOrder: KeyOrder,
): readonly Selector[] {
  if (environmentUid === '') {
    throw new SelectorDiscoveryError('the environment UID must be a non-empty string');
  }
  if (!isPlainObject(scenario)) {
    throw new SelectorDiscoveryError(
      `the scenario of "${environmentUid}" must be a mapping, got ${Array.isArray(scenario) ? 'a list' : typeof scenario}`,
    );
  }
  const leaves = discoverLeaves(environmentUid, scenario, discovery, keyOrder);
  const selectors = leaves.pointers.map((pointer, index): Selector => {
    const value = leaves.values[index] as number;
    const manifestIndex = leaves.manifestIndexes[index] as number;
    const entry = discovery.selectorManifest[manifestIndex];
    const space: Space = entry?.space ?? boundsFromValue(value);
    if (entry?.space !== undefined && !contains(space, value)) {
      throw new DefinitionConfigError(
        `definition.selector_manifest[${manifestIndex}]: the current value ${value} at "${pointer}" is not in ${describeSpace(space)}`,
      );
    }
    const alias = leaves.aliases[index] as string;
    // Frozen one by one: deepFreeze would allocate a values array per object.
    return Object.freeze({
      pointer,
      alias,
      uid: selectorUid(environmentUid, alias),
      value,
      space: Object.freeze(space),
      normalisation: Object.freeze(entry?.normalisation ?? normalisationFromValue(value)),
      source: entry === undefined ? 'discovered' : 'manifest',
    });
  });
  return Object.freeze(selectors);
}

/** A space as a person reads it: `Box[0, 1]` or `Discrete{1, 2, 4}`. */
export function describeSpace(space: Space): string {
  return space.type === 'Box'
    ? `Box[${space.low}, ${space.high}]`
    : `Discrete{${space.values.join(', ')}}`;
}
