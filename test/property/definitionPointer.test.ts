import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildPointer,
  escapePointerToken,
  getAtPointer,
  parsePointer,
  setAtPointer,
  unescapePointerToken,
} from '../../src/domain/definition/index.js';
import type { JsonValue } from '../../src/domain/shared/json.js';
import { scenarioArbitrary } from '../unit/definition/scenarioArbitrary.js';

/** Every pointer that leads somewhere in `value`, root included. */
function pointersOf(value: JsonValue, pointer = ''): string[] {
  const children = Array.isArray(value)
    ? value.map((item, index) => pointersOf(item, `${pointer}/${index}`))
    : typeof value === 'object' && value !== null
      ? Object.entries(value).map(([key, item]) =>
          pointersOf(item, `${pointer}/${escapePointerToken(key)}`),
        )
      : [];
  return [pointer, ...children.flat()];
}

describe('pointer properties', () => {
  it('unescape(escape(token)) is the token, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (token) => {
        expect(unescapePointerToken(escapePointerToken(token))).toBe(token);
        expect(escapePointerToken(token)).not.toMatch(/\/|~(?![01])/);
      }),
      { numRuns: 300 },
    );
  });

  it('parsePointer(buildPointer(tokens)) is the tokens, for any token list', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (tokens) => {
        expect(parsePointer(buildPointer(tokens))).toEqual(tokens);
      }),
      { numRuns: 300 },
    );
  });

  it('get(set(x, p, v), p) is v at every pointer of x, and x is untouched', () => {
    const withPointer = scenarioArbitrary.chain((scenario) =>
      fc.tuple(fc.constant(scenario), fc.constantFrom(...pointersOf(scenario))),
    );
    fc.assert(
      fc.property(withPointer, fc.jsonValue({ maxDepth: 2 }), ([scenario, pointer], newValue) => {
        const before = structuredClone(scenario);
        const after = setAtPointer(scenario, pointer, newValue as JsonValue);
        expect(getAtPointer(after, pointer)).toEqual(newValue);
        expect(scenario).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });
});
