import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import {
  analyseForever,
  plateauLowerBound,
  successLowerBound,
  successOutOfRange,
} from '../../../src/fuzz/termination/bounds.js';
import type { MetricRange } from '../../../src/fuzz/termination/metricRange.js';
import { playSequence } from '../../../src/fuzz/termination/sequences.js';
import { plateauRule, successRule } from '../../support/terminationRules.js';

const unit: MetricRange[] = [{ metric: 'objective', low: 0, high: 1, assumed: false }];

function rules(agents: Record<string, { success?: object; plateau?: object }>) {
  return parseTerminationConfig({ agents });
}
const success = successRule;
/** A plateau rule that moves by 0.1 at least. */
const plateau = (overrides: Record<string, unknown> = {}) =>
  plateauRule({ min_delta: 0.1, ...overrides });

describe('lower bounds from the rules', () => {
  it('success needs max(min_evaluations, consecutive) evaluations, the most over the agents', () => {
    expect(successLowerBound(rules({ A: { success: success() } }))).toBe(3);
    expect(
      successLowerBound(
        rules({ A: { success: success() }, B: { success: success({ consecutive: 5 }) } }),
      ),
    ).toBe(5);
    expect(successLowerBound(rules({ A: { plateau: plateau() } }))).toBeNull();
  });

  it('a plateau needs max(window + 1, min_evaluations) + patience − 1 evaluations', () => {
    expect(plateauLowerBound(rules({ A: { plateau: plateau() } }))).toBe(4);
    expect(plateauLowerBound(rules({ A: { plateau: plateau({ window: 4, patience: 3 }) } }))).toBe(
      7,
    );
    expect(plateauLowerBound(rules({ A: { success: success() } }))).toBeNull();
  });
});

describe('successOutOfRange', () => {
  it('names the agent whose threshold no value in the range meets', () => {
    const config = rules({ A: { success: success() }, B: { success: success({ threshold: 2 }) } });
    expect(successOutOfRange(config, unit)).toBe(
      'agent "B" needs objective ≥ 2, outside the range 0:1',
    );
    const below = rules({ A: { success: success({ threshold: -1, direction: 'less_equal' }) } });
    expect(successOutOfRange(below, unit)).toBe(
      'agent "A" needs objective ≤ -1, outside the range 0:1',
    );
    expect(
      successOutOfRange(rules({ A: { success: success({ threshold: 1 }) } }), unit),
    ).toBeNull();
  });

  it('says when the range it measured against was assumed, and how to give one', () => {
    const config = rules({ B: { success: success({ threshold: 2 }) } });
    const assumed: MetricRange[] = [{ metric: 'objective', low: 0, high: 1, assumed: true }];
    expect(successOutOfRange(config, assumed)).toBe(
      'agent "B" needs objective ≥ 2, outside the assumed range 0:1 (give --metric objective=LOW:HIGH)',
    );
  });
});

describe('analyseForever', () => {
  it('is possible when success is avoidable and a plateau rule has min_delta 0', () => {
    const analysis = analyseForever(
      rules({ A: { success: success(), plateau: plateau({ min_delta: 0 }) } }),
      unit,
    );
    expect(analysis.possible).toBe(true);
    expect(analysis.explanation.join(' ')).toContain('agent "A" has min_delta 0');
  });

  it('is possible without a plateau rule when success is out of range', () => {
    const analysis = analyseForever(rules({ A: { success: success({ threshold: 2 }) } }), unit);
    expect(analysis).toMatchObject({ possible: true, bound: null });
  });

  it('is impossible when min_delta > 0 bounds the improvements, with the bound', () => {
    const analysis = analyseForever(rules({ A: { plateau: plateau({ min_delta: 0.5 }) } }), unit);
    // start max(window 1, min_evaluations 3 − 1) = 2; improvements ⌊1 / 0.5⌋ + 1 = 3; (3 + 1) · patience 2
    expect(analysis).toMatchObject({ possible: false, bound: 10 });
    // The slowest staircase: improve by min_delta just before patience runs out.
    const staircase = [0, 0, 0.5, 0.5, 1, 1, 1, 1].map((objective) => ({ A: { objective } }));
    const played = playSequence(rules({ A: { plateau: plateau({ min_delta: 0.5 }) } }), staircase);
    expect(played).toMatchObject({ reason: 'plateau', evaluations: 7 });
    expect(played.evaluations).toBeLessThanOrEqual(analysis.bound!);
  });

  it('is impossible when every value meets the success threshold', () => {
    const analysis = analyseForever(rules({ A: { success: success({ threshold: 0 }) } }), unit);
    expect(analysis).toMatchObject({ possible: false, bound: 3 });
    expect(analysis.explanation.join(' ')).toContain('success is unavoidable');
  });
});
