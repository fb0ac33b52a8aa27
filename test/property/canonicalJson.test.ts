import { createHash } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { JudgeContext } from '../../src/domain/judge/context.js';
import { judgeMessages, messagesSha256 } from '../../src/domain/judge/prompt.js';
import {
  CanonicalJsonError,
  canonicalJson,
  type NonFinitePolicy,
} from '../../src/domain/shared/canonicalJson.js';

/**
 * The writer as it was first written (parts pushed, a path string per value),
 * kept as the reference: every hash arena has stored was made by it, so the
 * faster writer must give the same text and the same errors, byte for byte.
 */
function reference(value: unknown, policy: NonFinitePolicy): string {
  const parts: string[] = [];
  const write = (item: unknown, path: string): void => {
    if (item === null) {
      parts.push('null');
      return;
    }
    switch (typeof item) {
      case 'boolean':
        parts.push(item ? 'true' : 'false');
        return;
      case 'string':
        parts.push(JSON.stringify(item));
        return;
      case 'number':
        if (Number.isFinite(item)) {
          parts.push(JSON.stringify(item));
          return;
        }
        if (policy === 'reject') {
          throw new CanonicalJsonError(`${path} must be a finite number, got ${String(item)}`);
        }
        parts.push(Number.isNaN(item) ? '"__nan__"' : item > 0 ? '"__inf__"' : '"__-inf__"');
        return;
      case 'object': {
        if (Array.isArray(item)) {
          parts.push('[');
          item.forEach((element, index) => {
            if (index > 0) parts.push(',');
            write(element === undefined ? null : element, `${path}[${index}]`);
          });
          parts.push(']');
          return;
        }
        if (item instanceof Map) {
          write(Object.fromEntries(item), path);
          return;
        }
        const record = item as Record<string, unknown>;
        const keys = Object.keys(record)
          .filter((key) => record[key] !== undefined)
          .sort();
        parts.push('{');
        keys.forEach((key, index) => {
          if (index > 0) parts.push(',');
          parts.push(JSON.stringify(key), ':');
          write(record[key], `${path}.${key}`);
        });
        parts.push('}');
        return;
      }
      default:
        throw new CanonicalJsonError(`${path} is a ${typeof item}, which JSON cannot hold`);
    }
  };
  write(value, '$');
  return parts.join('');
}

/** What a writer gives: its text, or the error it throws. */
function outcome(run: () => string): { text: string } | { error: string; name: string } {
  try {
    return { text: run() };
  } catch (error) {
    return { error: (error as Error).message, name: (error as Error).name };
  }
}

const leaf = fc.oneof(
  fc.constantFrom(null, true, false, undefined, Number.NaN, Infinity, -Infinity, 0, -0),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom(() => 1, Symbol('s'), 10n),
);
const { tree } = fc.letrec((self) => ({
  tree: fc.oneof({ depthSize: 'small' }, leaf, self('array'), self('object'), self('map')),
  array: fc.array(self('tree'), { maxLength: 4 }).chain((items) =>
    // Some arrays have holes, as a JS caller may make them.
    fc.subarray(items.map((_, index) => index)).map((holes) => {
      const sparse = [...items];
      for (const index of holes) delete sparse[index];
      return sparse;
    }),
  ),
  object: fc.dictionary(fc.string({ unit: 'binary', maxLength: 4 }), self('tree'), {
    maxKeys: 4,
  }),
  map: fc
    .array(fc.tuple(fc.string({ maxLength: 3 }), self('tree')), { maxLength: 3 })
    .map((entries) => new Map(entries)),
}));

describe('canonicalJson properties', () => {
  test.prop([tree, fc.constantFrom<NonFinitePolicy>('reject', 'tag')], { numRuns: 1000 })(
    'gives the text, or the error and its path, the reference writer gives',
    (value, policy) => {
      expect(outcome(() => canonicalJson(value, { nonFinite: policy }))).toEqual(
        outcome(() => reference(value, policy)),
      );
    },
  );

  test.prop([fc.jsonValue()], { numRuns: 300 })(
    'parses back to the value it wrote (plain JSON values)',
    (value) => {
      expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    },
  );

  test.prop(
    [
      fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 20 }), fc.jsonValue()), {
        minLength: 1,
        maxLength: 4,
      }),
    ],
    { numRuns: 200 },
  )(
    'hashes a prompt as sha256 of the canonical JSON of { system, candidate }, whichever rubric came before',
    (judgements) => {
      for (const [rubric, input] of judgements) {
        const messages = judgeMessages(rubric, {
          evaluationRunId: 'r',
          caseId: 'c',
          subjectId: 's',
          input: input as JudgeContext['input'],
          candidateOutput: rubric,
          observation: {},
        });
        const [system, candidate] = messages;
        const expected = createHash('sha256')
          .update(canonicalJson({ system: system!.content, candidate: candidate!.content }), 'utf8')
          .digest('hex');
        expect(messagesSha256(messages)).toBe(expected);
      }
    },
  );
});
