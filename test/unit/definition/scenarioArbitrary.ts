import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../../src/domain/shared/json.js';

/**
 * Arbitrary scenarios for the definition property tests: nested mappings and
 * lists whose keys include the awkward ones (`~`, `/`, empty, integer-like)
 * and whose leaves mix finite numbers with everything that is not a selector.
 * The root holds one mapping, `s`, so every leaf has a parent a patch can replace.
 */
const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('~', '/', '~1', '', '3', '10', 'end', 'a/b'),
  fc.nat({ max: 20 }).map(String),
);

const leaf: fc.Arbitrary<JsonValue> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  },
  { weight: 3, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
  fc.constantFrom<JsonValue>('text', true, false, null, Number.NaN, Number.POSITIVE_INFINITY),
);

const { tree } = fc.letrec<{ tree: JsonValue; mapping: JsonObject; list: JsonValue[] }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('mapping'), tie('list')),
  mapping: fc.dictionary(key, tie('tree'), { maxKeys: 4, noNullPrototype: true }),
  list: fc.array(tie('tree'), { maxLength: 3 }),
}));

export const scenarioArbitrary: fc.Arbitrary<JsonObject> = fc
  .dictionary(key, tree, { minKeys: 1, maxKeys: 4, noNullPrototype: true })
  .map((inner) => ({ s: inner }));
