import { describe, expect, it } from 'vitest';
import {
  ObjectiveConfigError,
  ObjectiveInputError,
  parseComponentSpecs,
  WeightedBoundaryObjective,
} from '../../../src/domain/objective/index.js';

describe('parseComponentSpecs', () => {
  it('accepts run-file mappings with clip_low/clip_high, camelCase specs, and the clip pair', () => {
    expect(
      parseComponentSpecs([
        { uid: 'a', weight: 2, center: 1, scale: 0.5, clip_low: -2, clip_high: 2 },
        { uid: 'b', clipLow: 0, clipHigh: 3 },
        { uid: 'c', clip: [-1, 0] },
      ]),
    ).toEqual([
      { uid: 'a', weight: 2, center: 1, scale: 0.5, clipLow: -2, clipHigh: 2 },
      { uid: 'b', weight: 1, center: 0, scale: 1, clipLow: 0, clipHigh: 3 },
      { uid: 'c', weight: 1, center: 0, scale: 1, clipLow: -1, clipHigh: 0 },
    ]);
  });

  it('accepts a mapping from UID to component', () => {
    expect(parseComponentSpecs({ 'grid.load': { weight: -1 } })).toEqual([
      { uid: 'grid.load', weight: -1, center: 0, scale: 1, clipLow: -1, clipHigh: 1 },
    ]);
  });

  it.each([
    [
      'a zero scale',
      [{ uid: 'a', scale: 0 }],
      /components\[0\].scale: expected a finite number > 0, got 0/,
    ],
    ['a negative scale', [{ uid: 'a', scale: -2 }], /scale: expected a finite number > 0/],
    [
      'an infinite scale',
      [{ uid: 'a', scale: Number.POSITIVE_INFINITY }],
      /components\[0\].scale: .*expected number, received Infinity/,
    ],
    ['a NaN weight', [{ uid: 'a', weight: Number.NaN }], /components\[0\].weight: .*received NaN/],
    [
      'clip_low above clip_high',
      [{ uid: 'a', clip: [1, 0] }],
      /clip_low \(1\) must not be greater than clip_high \(0\)/,
    ],
    [
      'two spellings of a clip bound',
      [{ uid: 'a', clip_low: 0, clip: [0, 1] }],
      /clip_low: given more than once/,
    ],
    ['no uid', [{ weight: 1 }], /components\[0\].uid/],
    ['a uid that differs from its key', { a: { uid: 'b' } }, /components.a.uid: "b" differs/],
    ['an unknown field', [{ uid: 'a', wieght: 1 }], /wieght/],
    ['no components', [], /at least one component/],
    ['a string', 'a', /expected a list of components or a mapping/],
  ])('rejects %s with ObjectiveConfigError', (_what, raw, message) => {
    expect(() => parseComponentSpecs(raw)).toThrowError(ObjectiveConfigError);
    expect(() => parseComponentSpecs(raw)).toThrowError(message);
  });
});

describe('WeightedBoundaryObjective', () => {
  it('sums weight * clip((value - center) / scale, low, high)', () => {
    const objective = new WeightedBoundaryObjective([
      { uid: 'grid.voltage', weight: 2, center: 100, scale: 10, clip: [-1, 1] },
      { uid: 'grid.load', weight: -1, clip: [0, 3] },
    ]);
    expect(objective.evaluate({ 'grid.voltage': 104, 'grid.load': 5 })).toBe(-2.2);
    expect(objective.evaluate({ 'grid.voltage': 50, 'grid.load': -1 })).toBe(-2);
  });

  it('applies no online normalisation: equal readings always give equal values', () => {
    const objective = new WeightedBoundaryObjective([{ uid: 'r', scale: 2, clip: [-10, 10] }]);
    expect([1, 5, 1].map((value) => objective.evaluate({ r: value }))).toEqual([0.5, 2.5, 0.5]);
  });

  it('builds from run-file params', () => {
    const objective = WeightedBoundaryObjective.fromParams({ components: { r: { weight: 3 } } });
    expect(objective.evaluate({ r: 0.5 })).toBe(1.5);
    expect(() => WeightedBoundaryObjective.fromParams({})).toThrowError(/params.components/);
  });

  it('treats a missing or non-finite reading as an error, never a silent zero', () => {
    const objective = new WeightedBoundaryObjective([{ uid: 'r' }, { uid: 's' }]);
    expect(() => objective.evaluate({ r: 1 })).toThrowError(ObjectiveInputError);
    expect(() => objective.evaluate({ r: 1 })).toThrowError(/reading "s" is missing/);
    expect(() => objective.evaluate({ r: 1, s: Number.NaN })).toThrowError(/not a finite number/);
  });

  it('ignores readings no component uses', () => {
    const objective = new WeightedBoundaryObjective([{ uid: 'r' }]);
    expect(objective.evaluate({ r: 0.25, other: Number.NaN })).toBe(0.25);
  });
});
