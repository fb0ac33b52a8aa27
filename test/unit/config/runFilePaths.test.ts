import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { formatYamlPath, parseYamlPath } from '../../../src/config/configIssue.js';
import { declaringPhase, inheritPhase } from '../../../src/config/phaseInheritance.js';

const segment = fc.oneof(fc.string(), fc.nat({ max: 1000 }));
const jsonData = fc.jsonValue({ maxDepth: 3 });

describe('YAML paths', () => {
  it('formats keys with dots, indices in brackets and unusual keys quoted', () => {
    expect(formatYamlPath(['schedule', 0, 'train', 'simulation', 'params', 'script', 'loop'])).toBe(
      'schedule[0].train.simulation.params.script.loop',
    );
    expect(formatYamlPath(['params', 'a.b', 'my key', 3])).toBe('params["a.b"]["my key"][3]');
    expect(formatYamlPath([])).toBe('');
  });

  it('does not parse text that is not a formatted path', () => {
    expect(parseYamlPath('schedule[x]')).toBeNull();
  });

  test.prop([fc.array(segment, { maxLength: 6 })], { numRuns: 300 })(
    'parseYamlPath inverts formatYamlPath',
    (segments) => {
      expect(parseYamlPath(formatYamlPath(segments))).toEqual(segments);
    },
  );
});

describe('phase inheritance', () => {
  test.prop([fc.dictionary(fc.string(), jsonData)], { numRuns: 200 })(
    'a phase that declares nothing inherits everything',
    (inherited) => {
      expect(inheritPhase(inherited, {})).toEqual(inherited);
    },
  );

  test.prop([fc.dictionary(fc.string(), jsonData), fc.dictionary(fc.string(), jsonData)], {
    numRuns: 200,
  })(
    'every key a phase declares or inherits is present after inheritance',
    (inherited, declared) => {
      const merged = inheritPhase(inherited, declared) as Record<string, unknown>;
      expect(Object.keys(merged).sort()).toEqual(
        [...new Set([...Object.keys(inherited), ...Object.keys(declared)])].sort(),
      );
    },
  );

  it('keeps a key named __proto__ as a plain key', () => {
    const declared = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = inheritPhase({ a: 1 }, declared) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
  });

  test.prop(
    [jsonData, fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 })), fc.integer(), fc.constant(null))],
    {
      numRuns: 200,
    },
  )('a list or scalar override replaces the inherited value whole', (inherited, declared) => {
    expect(inheritPhase({ key: inherited }, { key: declared })).toEqual({ key: declared });
  });

  it('deep-merges mappings key by key', () => {
    expect(
      inheritPhase(
        { simulation: { params: { script: { episode_start: [1], loop: [2] } } }, agents: [1, 2] },
        { simulation: { params: { script: { loop: [3] } } }, agents: [4] },
      ),
    ).toEqual({
      simulation: { params: { script: { episode_start: [1], loop: [3] } } },
      agents: [4],
    });
  });

  it('finds the phase that declared an inherited value', () => {
    const bodies = [{ agents: [] }, { phase_config: {} }, { agents: [1] }, {}];
    expect(declaringPhase(bodies, 1, ['agents'])).toBe(0);
    expect(declaringPhase(bodies, 3, ['agents'])).toBe(2);
  });
});
