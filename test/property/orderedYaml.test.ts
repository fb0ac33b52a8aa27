import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import {
  parseYamlWithKeyOrder,
  YamlAliasLimitError,
  YamlSyntaxError,
} from '../../src/config/orderedYaml.js';

/** A node of a generated document; `alias` names an earlier entry by index (modulo). */
type Tree =
  | { readonly kind: 'scalar'; readonly value: number }
  | { readonly kind: 'list'; readonly items: readonly Tree[] }
  | { readonly kind: 'alias'; readonly entry: number };

const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('scalar' as const), value: fc.nat(99) }),
    fc.record({ kind: fc.constant('alias' as const), entry: fc.nat() }),
    fc.record({
      kind: fc.constant('list' as const),
      items: fc.array(tie('tree'), { maxLength: 9 }),
    }),
  ),
}));

/** Top-level entries, each a list anchored as `&e<index>`. */
const documentArbitrary = fc.array(fc.array(tree, { maxLength: 9 }), {
  minLength: 1,
  maxLength: 8,
});

/** YAML text whose aliases only name anchors of earlier entries: never unresolved, never cyclic. */
function render(entries: readonly (readonly Tree[])[]): {
  text: string;
  hasEmptyList: boolean;
} {
  let hasEmptyList = false;
  const node = (value: Tree, index: number): string => {
    if (value.kind === 'scalar') return String(value.value);
    if (value.kind === 'alias') {
      return index === 0 ? '0' : `*e${value.entry % index}`;
    }
    if (value.items.length === 0) hasEmptyList = true;
    return `[${value.items.map((item) => node(item, index)).join(', ')}]`;
  };
  const lines = entries.map(
    (items, index) => `k${index}: &e${index} ${node({ kind: 'list', items }, index)}`,
  );
  return { text: `${lines.join('\n')}\n`, hasEmptyList };
}

function outcome(run: () => unknown): { value: unknown } | { limit: true } {
  try {
    return { value: run() };
  } catch (error) {
    if (error instanceof YamlAliasLimitError) return { limit: true };
    if (
      error instanceof ReferenceError &&
      /Excessive alias count|Alias resolution is disabled/.test(error.message)
    ) {
      return { limit: true };
    }
    throw error;
  }
}

describe('ordered YAML properties', () => {
  test.prop([documentArbitrary, fc.integer({ min: 0, max: 300 })], { numRuns: 300 })(
    'accepts only what the yaml package accepts under the same maxAliasCount, with the same value; without empty lists it rejects exactly what yaml rejects',
    (entries, maxAliasCount) => {
      const { text, hasEmptyList } = render(entries);
      const ours = outcome(() => parseYamlWithKeyOrder(text, { maxAliasCount }).value);
      const theirs = outcome(() => parse(text, { maxAliasCount }));
      if ('value' in ours) expect(theirs).toEqual(ours);
      if (!hasEmptyList) expect('limit' in ours).toBe('limit' in theirs);
    },
  );

  test.prop(
    [
      fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/), { minLength: 1, maxLength: 60 }),
      fc.nat(),
    ],
    {
      numRuns: 200,
    },
  )(
    'a mapping of distinct keys keeps them all in order; repeating any one is reported at the repeat',
    (keys, pick) => {
      const text = keys.map((key, index) => `${key}: ${index}\n`).join('');
      expect(parseYamlWithKeyOrder(text).keyOrder['']).toEqual(keys);
      const repeated = keys[pick % keys.length]!;
      try {
        parseYamlWithKeyOrder(`${text}${repeated}: again\n`);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(YamlSyntaxError);
        expect(error).toMatchObject({ line: keys.length + 1, column: 1 });
        expect((error as Error).message).toContain('Map keys must be unique');
      }
    },
  );
});
