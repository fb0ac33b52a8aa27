import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { decodeStoredJson } from '../../src/ports/store/storedJson.js';

const nonFiniteByTag: Readonly<Record<string, number>> = {
  __nan__: Number.NaN,
  __inf__: Number.POSITIVE_INFINITY,
  '__-inf__': Number.NEGATIVE_INFINITY,
};

/** The decoder as first written: a reviver over every value, kept as the reference. */
const reference = (text: string): unknown =>
  JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'string' && Object.hasOwn(nonFiniteByTag, value)
      ? nonFiniteByTag[value]
      : value,
  );

// tags and their near misses, raw and escaped, among ordinary JSON values
const tagLike = fc.constantFrom('__nan__', '__inf__', '__-inf__', '__nan_', '_nan__', '__', 'nan');
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.string(), tagLike, fc.double({ noNaN: true }), fc.boolean(), fc.constant(null)),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), tagLike), tie('node'), { maxKeys: 4 }),
  ),
})).node;
/** JSON text of `value`, with some underscores written as `\u005f` escapes (valid JSON a store could hold). */
const text = fc.tuple(value, fc.boolean()).map(([each, escaped]) => {
  const plain = JSON.stringify(each) ?? 'null';
  return escaped ? plain.replaceAll('"__', '"\\u005f_') : plain;
});

describe('stored JSON, read', () => {
  test.prop([text], { numRuns: 300 })(
    'decodes every text as the reviver over every value does',
    (each) => {
      expect(decodeStoredJson(each)).toEqual(reference(each));
    },
  );
});
