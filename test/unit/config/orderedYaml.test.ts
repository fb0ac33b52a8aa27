import { describe, expect, it } from 'vitest';
import {
  parseYamlWithKeyOrder,
  YamlKeyCollisionError,
  YamlSyntaxError,
} from '../../../src/config/orderedYaml.js';
import { deriveSelectors, subKeyOrder } from '../../../src/domain/definition/index.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';

describe('parseYamlWithKeyOrder', () => {
  it('keeps the document order of keys that mix names and numbers', () => {
    const { value, keyOrder } = parseYamlWithKeyOrder('b: 1\n10: 2\na: {z: 1, 2: 2, y: 3}\n3: x\n');
    expect(Object.keys(value as object)).toEqual(['3', '10', 'b', 'a']);
    expect(keyOrder).toEqual({ '': ['b', '10', 'a', '3'], '/a': ['z', '2', 'y'] });
  });

  it('records mappings inside lists by their full pointer, escaping ~ and /', () => {
    const { keyOrder } = parseYamlWithKeyOrder('list:\n  - {q: 1, p: 2}\n"a/b~": {k: 1}\n');
    expect(keyOrder['/list/0']).toEqual(['q', 'p']);
    expect(keyOrder['/a~1b~0']).toEqual(['k']);
  });

  it('turns scalar keys into strings: integers, floats, booleans and null', () => {
    const { value } = parseYamlWithKeyOrder('3: a\n1.5: b\ntrue: c\n~: d\n');
    expect(value).toEqual({ '3': 'a', '1.5': 'b', true: 'c', '': 'd' });
  });

  it('parses YAML 1.2 core scalars into JSON values, infinities included', () => {
    const { value } = parseYamlWithKeyOrder(
      'i: 7\nf: 0.427\nb: false\nn: null\ninf: .inf\ns: "3"\n',
    );
    expect(value).toEqual({
      i: 7,
      f: 0.427,
      b: false,
      n: null,
      inf: Number.POSITIVE_INFINITY,
      s: '3',
    });
  });

  it('expands aliases and keeps their key order at the alias location', () => {
    const { value, keyOrder } = parseYamlWithKeyOrder('base: &b {z: 1, a: 2}\ncopy: *b\n');
    expect(value).toEqual({ base: { z: 1, a: 2 }, copy: { z: 1, a: 2 } });
    expect(keyOrder['/copy']).toEqual(['z', 'a']);
  });

  it('keeps a "__proto__" key as an own key', () => {
    const { value } = parseYamlWithKeyOrder('__proto__: 1\n');
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('gives null for an empty document', () => {
    expect(parseYamlWithKeyOrder('')).toEqual({ value: null, keyOrder: {} });
  });

  it('reports keys that collide after stringification (3 and "3") with the mapping path', () => {
    const text = 'scenario:\n  mapping:\n    3: [a]\n    "3": [b]\n';
    expect(() => parseYamlWithKeyOrder(text)).toThrowError(YamlKeyCollisionError);
    try {
      parseYamlWithKeyOrder(text);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'YAML_KEY_COLLISION',
        pointer: '/scenario/mapping',
        key: '3',
      });
      expect((error as Error).message).toMatch(/^line 4, column 5: .*"\/scenario\/mapping"/);
    }
  });

  it('throws syntax errors with line and column', () => {
    try {
      parseYamlWithKeyOrder('a: 1\nb: [1, 2\nc: 3\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(YamlSyntaxError);
      expect((error as YamlSyntaxError).line).toBeGreaterThan(1);
      expect((error as YamlSyntaxError).column).toBeGreaterThan(0);
      expect((error as Error).message).toMatch(/^line \d+, column \d+: /);
    }
  });

  it('reports exact duplicate keys, non-scalar keys and self-referencing aliases', () => {
    expect(() => parseYamlWithKeyOrder('a: 1\na: 2\n')).toThrowError(
      /line 2, column 1: Map keys must be unique/,
    );
    expect(() => parseYamlWithKeyOrder('? [a]\n: 1\n')).toThrowError(
      /mapping keys must be scalars/,
    );
    expect(() => parseYamlWithKeyOrder('a: &x [*x]\n')).toThrowError(
      /refers to a node that contains it/,
    );
  });

  it('gives deriveSelectors the document order of a scenario that mixes names and numbers', () => {
    const text = [
      'scenario:',
      '  pv_scale: 2.2',
      '  6: [[PV, 1.5]]',
      '  load_scale: 0.9',
      '  3: [[Hospital, 0.427]]',
      '  mapping: {b: 1, 10: 2, a: 3, 2: 4}',
    ].join('\n');
    const { value, keyOrder } = parseYamlWithKeyOrder(text);
    const scenario = (value as JsonObject).scenario as JsonObject;
    const selectors = deriveSelectors('midas', scenario, {
      keyOrder: subKeyOrder(keyOrder, '/scenario'),
    });
    expect(selectors.map((selector) => selector.alias)).toEqual([
      'pv_scale',
      '/6/0/1',
      'load_scale',
      '/3/0/1',
      'b',
      '/mapping/10',
      'a',
      '/mapping/2',
    ]);
  });
});
