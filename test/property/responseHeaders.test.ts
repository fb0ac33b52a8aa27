import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { responseHeaders } from '../../src/ports/model/responseHeaders.js';

/** Header names as servers send them: a few shared ones in any case, and repeats. */
const nameArbitrary = fc
  .constantFrom('Content-Type', 'x-request-id', 'Set-Cookie', 'X-A', 'x-a', 'Date', 'a', 'Z-last')
  .chain((name) => fc.boolean().map((upper) => (upper ? name.toUpperCase() : name.toLowerCase())));
const valueArbitrary = fc.stringMatching(/^[ -~]{0,12}$/).map((value) => value.trim());
const rawArbitrary = fc
  .array(fc.tuple(nameArbitrary, valueArbitrary), { maxLength: 12 })
  .map((pairs) => pairs.flat());

/** The same pairs in a real, filled `Headers`: what `fetch` would answer with. */
function filled(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}

describe('responseHeaders properties', () => {
  test.prop([rawArbitrary, nameArbitrary], { numRuns: 300 })(
    'reads exactly as a filled Headers does: get, has, getSetCookie, iteration, forEach',
    (raw, asked) => {
      const ours = responseHeaders(raw);
      const real = filled(raw);
      expect(ours.get(asked)).toBe(real.get(asked));
      expect(ours.has(asked)).toBe(real.has(asked));
      expect(ours.getSetCookie()).toEqual(real.getSetCookie());
      expect([...ours]).toEqual([...real]);
      expect([...ours.entries()]).toEqual([...real.entries()]);
      expect([...ours.keys()]).toEqual([...real.keys()]);
      expect([...ours.values()]).toEqual([...real.values()]);
      const seen: string[][] = [];
      ours.forEach((value, name, parent) => {
        expect(parent).toBe(ours);
        seen.push([name, value]);
      });
      const expected: string[][] = [];
      real.forEach((value, name) => {
        expected.push([name, value]);
      });
      expect(seen).toEqual(expected);
      // A copy is a plain Headers, made as a copy of the filled one is.
      expect([...new Headers(ours)]).toEqual([...new Headers(real)]);
    },
  );
});

describe('responseHeaders', () => {
  it('is a Headers that cannot be changed, and refuses a name no header can have', () => {
    const headers = responseHeaders(['X-A', '1']);
    expect(headers).toBeInstanceOf(Headers);
    expect(() => headers.set('x-a', '2')).toThrow(TypeError);
    expect(() => headers.append('x-b', '2')).toThrow(TypeError);
    expect(() => headers.delete('x-a')).toThrow(TypeError);
    expect(headers.get('x-a')).toBe('1');
    expect(() => headers.get('not a name')).toThrow(TypeError);
    expect(() => new Headers().get('not a name')).toThrow(TypeError);
  });

  it('gives out entries a caller may change without changing the headers', () => {
    const headers = responseHeaders(['X-A', '1']);
    const [first] = [...headers];
    first![1] = 'changed';
    expect([...headers]).toEqual([['x-a', '1']]);
  });
});
