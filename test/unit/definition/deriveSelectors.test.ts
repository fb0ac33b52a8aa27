import { describe, expect, it } from 'vitest';
import { parseYamlWithKeyOrder } from '../../../src/config/orderedYaml.js';
import {
  DefinitionConfigError,
  deriveSelectors,
  proposeDefinition,
  SelectorDiscoveryError,
  subKeyOrder,
} from '../../../src/domain/definition/index.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';

const aliases = (scenario: JsonObject, definition?: unknown) =>
  deriveSelectors('env', scenario, { definition }).map((selector) => selector.alias);

describe('deriveSelectors: what is a selector', () => {
  it('exposes every finite number leaf, in mappings, lists and nested lists', () => {
    const scenario = { a: 1, list: [2, [3, { deep: 4 }]], nested: { b: -0.5 } };
    expect(aliases(scenario)).toEqual(['a', '/list/0', '/list/1/0', 'deep', 'b']);
  });

  it('skips booleans, strings, nulls, NaN and infinities', () => {
    const scenario = {
      flag: true,
      name: 'x',
      none: null,
      nan: Number.NaN,
      up: Number.POSITIVE_INFINITY,
      down: Number.NEGATIVE_INFINITY,
      kept: 0,
    };
    expect(aliases(scenario)).toEqual(['kept']);
  });

  it('gives an empty list for an empty scenario', () => {
    expect(deriveSelectors('env', {})).toEqual([]);
  });

  it('derives bounds and normalisation from the current value, continuous for integers', () => {
    const [positive, negative, zero, integer] = deriveSelectors('env', {
      p: 0.427,
      n: -3,
      z: 0,
      i: 900,
    });
    expect(positive?.space).toEqual({ type: 'Box', low: 0, high: 0.854 });
    expect(positive?.normalisation).toEqual({ center: 0.427, scale: 1 });
    expect(negative?.space).toEqual({ type: 'Box', low: -6, high: 0 });
    expect(negative?.normalisation).toEqual({ center: -3, scale: 3 });
    expect(zero?.space).toEqual({ type: 'Box', low: 0, high: 1 });
    expect(zero?.normalisation).toEqual({ center: 0, scale: 1 });
    expect(integer?.space).toEqual({ type: 'Box', low: 0, high: 1800 });
  });

  it('returns deeply frozen selectors', () => {
    const [selector] = deriveSelectors('env', { a: 1 });
    expect(Object.isFrozen(selector)).toBe(true);
    expect(Object.isFrozen(selector?.space)).toBe(true);
  });
});

describe('deriveSelectors: aliases and UIDs', () => {
  it('keeps short aliases for unique named leaves and UIDs <env>.definition.<alias>', () => {
    const [selector] = deriveSelectors('midas', { grid: { constant_load_p_mw: 1.5 } });
    expect(selector?.alias).toBe('constant_load_p_mw');
    expect(selector?.uid).toBe('midas.definition.constant_load_p_mw');
    expect(selector?.pointer).toBe('/grid/constant_load_p_mw');
  });

  it('uses the full pointer for repeated names, numeric tokens and empty keys', () => {
    const scenario = { a: { end: 1 }, b: { end: 2 }, m: { '3': 4, '-1': 5, '0.5': 6 }, '': 7 };
    expect(aliases(scenario)).toEqual(['/a/end', '/b/end', '/m/3', '/m/-1', '/m/0.5', '/']);
  });

  it('escapes ~ and / in aliases and pointers', () => {
    const selectors = deriveSelectors('env', { 'a/b': { '~x': 1, '~x2': 2 }, c: { '~x': 3 } });
    expect(selectors.map((selector) => [selector.alias, selector.pointer])).toEqual([
      ['/a~1b/~0x', '/a~1b/~0x'],
      ['~0x2', '/a~1b/~0x2'],
      ['/c/~0x', '/c/~0x'],
    ]);
  });

  it('decides short aliases before narrowing, so include never renames a selector', () => {
    const scenario = { a: { end: 1 }, b: { end: 2 } };
    expect(aliases(scenario, { include: ['^/a/'] })).toEqual(['/a/end']);
  });
});

describe('deriveSelectors: declaration order', () => {
  it('keeps the document order of keys that mix names and numbers', () => {
    const { value, keyOrder } = parseYamlWithKeyOrder(
      'scenario:\n  zeta: 1\n  10: 2\n  alpha: 3\n  2: {beta: 4, 1: 5}\n',
    );
    const scenario = (value as JsonObject).scenario as JsonObject;
    const ordered = deriveSelectors('env', scenario, {
      keyOrder: subKeyOrder(keyOrder, '/scenario'),
    });
    expect(ordered.map((selector) => selector.pointer)).toEqual([
      '/zeta',
      '/10',
      '/alpha',
      '/2/beta',
      '/2/1',
    ]);
    // Without the key order JavaScript puts integer-like keys first.
    expect(deriveSelectors('env', scenario).map((selector) => selector.pointer)).toEqual([
      '/2/1',
      '/2/beta',
      '/10',
      '/zeta',
      '/alpha',
    ]);
  });

  it('rejects a mapping whose declared keys resolve to the same pointer', () => {
    expect(() =>
      deriveSelectors('env', { m: { '3': 1 } }, { keyOrder: { '/m': ['3', '3'] } }),
    ).toThrowError(SelectorDiscoveryError);
  });
});

describe('deriveSelectors: the definition block', () => {
  const scenario = {
    constant_load_p_mw: 1,
    constant_pv: 2,
    step_size: 900,
    timing: { end: 86400 },
  };

  it('includes by leaf key or by full pointer', () => {
    expect(aliases(scenario, { include: ['^constant_.*$'] })).toEqual([
      'constant_load_p_mw',
      'constant_pv',
    ]);
    expect(aliases(scenario, { include: ['^/timing/'] })).toEqual(['end']);
  });

  it('lets exclusion win over inclusion', () => {
    expect(aliases(scenario, { include: ['^constant_'], exclude: ['pv'] })).toEqual([
      'constant_load_p_mw',
    ]);
  });

  it('replaces the discovered selector at the same pointer with a manifest entry', () => {
    const selectors = deriveSelectors('env', scenario, {
      definition: {
        include: ['^constant_'],
        selector_manifest: [
          { pointer: '/constant_pv', alias: 'pv', low: 1, high: 5, center: 2, scale: 4 },
          { pointer: '/step_size', values: [900, 1800, 3600] },
        ],
      },
    });
    expect(selectors.map((selector) => [selector.uid, selector.source])).toEqual([
      ['env.definition.constant_load_p_mw', 'discovered'],
      ['env.definition.pv', 'manifest'],
      ['env.definition.step_size', 'manifest'],
    ]);
    expect(selectors[1]?.space).toEqual({ type: 'Box', low: 1, high: 5 });
    expect(selectors[1]?.normalisation).toEqual({ center: 2, scale: 4 });
    expect(selectors[2]?.space).toEqual({ type: 'Discrete', n: 3, values: [900, 1800, 3600] });
  });

  it('rejects a manifest whose current value lies outside its space', () => {
    expect(() =>
      deriveSelectors('env', scenario, {
        definition: { selector_manifest: [{ pointer: '/step_size', values: [60, 120] }] },
      }),
    ).toThrowError(/selector_manifest\[0\].*900.*Discrete\{60, 120\}/);
  });

  it('rejects a manifest pointer with no number behind it', () => {
    expect(() =>
      deriveSelectors('env', scenario, {
        definition: { selector_manifest: [{ pointer: '/missing' }] },
      }),
    ).toThrowError(DefinitionConfigError);
  });

  it('rejects a manifest alias that collides with another UID', () => {
    expect(() =>
      deriveSelectors('env', scenario, {
        definition: { selector_manifest: [{ pointer: '/step_size', alias: 'constant_pv' }] },
      }),
    ).toThrowError(
      /"\/constant_pv" and "\/step_size" would share the UID "env.definition.constant_pv"/,
    );
  });

  it.each([
    [{ include: 'x' }, /definition.include/],
    [{ include: ['('] }, /definition.include\[0\]: "\(" is not a valid regular expression/],
    [{ exclude: ['ok', '['] }, /definition.exclude\[1\]/],
    [{ surprise: true }, /surprise/],
    [
      { selector_manifest: [{ pointer: '/a', low: 2, high: 1 }] },
      /selector_manifest\[0\].*low <= high/,
    ],
    [{ selector_manifest: [{ pointer: '/a', low: 0 }] }, /low and high must be given together/],
    [{ selector_manifest: [{ pointer: '/a', low: 0, high: 1, values: [0] }] }, /not both/],
    [{ selector_manifest: [{ pointer: '/a', values: [1, 1] }] }, /values\[1\]: 1 is listed twice/],
    [
      { selector_manifest: [{ pointer: '/a', center: 0, scale: 0 }] },
      /scale: expected a finite number > 0/,
    ],
    [{ selector_manifest: [{ pointer: 'a' }] }, /selector_manifest\[0\].pointer/],
    [{ selector_manifest: [{ pointer: '' }] }, /selector_manifest\[0\].pointer/],
    [{ selector_manifest: [{ pointer: '/a' }, { pointer: '/a' }] }, /already declared/],
  ])('rejects the block %j with an error naming the field', (definition, message) => {
    expect(() => deriveSelectors('env', { a: 1 }, { definition })).toThrowError(
      DefinitionConfigError,
    );
    expect(() => deriveSelectors('env', { a: 1 }, { definition })).toThrowError(message);
  });
});

describe('proposeDefinition', () => {
  it('proposes an empty interface for an empty scenario or when everything is narrowed away', () => {
    expect(proposeDefinition('env', {}).interface).toEqual({
      environmentUid: 'env',
      sensors: [],
      actuators: [],
    });
    expect(
      proposeDefinition('env', { a: 1 }, { definition: { include: ['^b$'] } }).selectors,
    ).toEqual([]);
  });

  it('freezes a copy of the scenario and records the scenario pointer and discovery options', () => {
    const scenario = { a: 1 };
    const proposal = proposeDefinition('env', scenario, {
      definition: { exclude: ['^b$'] },
      scenarioPointer: '/params/scenario',
    });
    expect(Object.isFrozen(scenario)).toBe(false);
    expect(Object.isFrozen(proposal.scenario)).toBe(true);
    expect(proposal.scenarioPointer).toBe('/params/scenario');
    expect(proposal.discovery?.exclude).toEqual(['^b$']);
    expect(proposeDefinition('env', scenario).scenarioPointer).toBe('/scenario');
  });
});
