import { describe, expect, it } from 'vitest';
import { parseYamlWithKeyOrder } from '../../../src/config/orderedYaml.js';
import { MAX_YAML_DEPTH, tooDeepYaml } from '../../../src/config/yamlDepth.js';
import { readYamlSource } from '../../../src/config/yamlSource.js';

const nested = (depth: number, open: string, close: string) =>
  `${open.repeat(depth)}1${close.repeat(depth)}`;

describe('tooDeepYaml', () => {
  it('finds nothing in a file within the limit', () => {
    expect(tooDeepYaml(`a: ${nested(MAX_YAML_DEPTH - 1, '[', ']')}\n`)).toBeNull();
  });

  it('names the path up to the last mapping key of a flow list nested past the limit', () => {
    const found = tooDeepYaml(`a:\n  b:\n    - x: ${nested(MAX_YAML_DEPTH + 5, '[', ']')}\n`);
    expect(found?.segments).toEqual(['a', 'b', 0, 'x']);
    expect(found?.location.line).toBe(3);
  });

  it('counts block nesting and flow mappings as levels', () => {
    const block = Array.from({ length: 5 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n');
    expect(tooDeepYaml(`${block} 1\n`, 4)?.segments).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(tooDeepYaml('m: {a: {b: {c: 1}}}\n', 3)?.segments).toEqual(['m', 'a', 'b']);
  });

  it('turns a 5,000-deep list into one issue at its YAML path, not a stack overflow', () => {
    const text = `sweep: s\nparameters:\n  - values: ${nested(5000, '[', ']')}\n`;
    const source = readYamlSource(text);
    expect(source.value).toBeUndefined();
    expect(source.syntaxIssues).toEqual([
      {
        path: 'parameters[0].values',
        message: `nested deeper than ${MAX_YAML_DEPTH} levels of lists and mappings; flatten it`,
        location: { line: 3, column: expect.any(Number) },
      },
    ]);
    expect(() => parseYamlWithKeyOrder(text)).toThrow(
      /parameters\[0\]\.values: nested deeper than 64 levels/,
    );
  });
});
