import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgePayloadSchema, readJudgePayload } from '../../src/domain/judge/payload.js';

const FIELDS = ['status', 'score', 'label', 'explanation', 'evidence'] as const;

/** Objects near a verdict: the verdict's keys and stray ones, each with any JSON value. */
const nearVerdicts = fc.dictionary(
  fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })),
  fc.oneof(
    fc.constantFrom('passed', 'failed', 'skipped', 'pass', null),
    fc.double(),
    fc.string({ maxLength: 300 }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  { maxKeys: 7 },
);

/** Every string inside a JSON value, keys included. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsOf(inner)]);
  }
  return [];
}

describe('the detail of a rejected verdict', () => {
  it('is one line of bounded length, given exactly when the schema refuses, and repeats no model text longer than 16 characters', () => {
    fc.assert(
      fc.property(fc.oneof(nearVerdicts, fc.jsonValue({ maxDepth: 2 })), (value) => {
        const raw = JSON.stringify(value) ?? 'null';
        const read = readJudgePayload(raw);
        expect(read.problem === null).toBe(judgePayloadSchema.safeParse(JSON.parse(raw)).success);
        if (read.problem === null) return;
        expect(read.problem).not.toMatch(/[\n\r]/);
        expect(read.problem.length).toBeLessThanOrEqual(600);
        for (const text of stringsOf(JSON.parse(raw))) {
          if (text.trim().length > 16) expect(read.problem).not.toContain(text);
        }
      }),
      { numRuns: 300 },
    );
  });
});
