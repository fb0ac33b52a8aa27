import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WeightedBoundaryObjective } from '../../src/domain/objective/index.js';

const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true });

const component = fc
  .record({
    weight: finite(-10, 10),
    center: finite(-100, 100),
    scale: finite(0.001, 100),
    low: finite(-5, 5),
    span: finite(0, 10),
  })
  .map(({ weight, center, scale, low, span }) => ({
    weight,
    center,
    scale,
    clip: [low, low + span],
  }));

const objectiveCase = fc.array(component, { minLength: 1, maxLength: 5 }).chain((components) =>
  fc.record({
    components: fc.constant(components.map((spec, index) => ({ uid: `r${index}`, ...spec }))),
    readings: fc.array(finite(-1e4, 1e4), {
      minLength: components.length,
      maxLength: components.length,
    }),
    index: fc.nat({ max: components.length - 1 }),
    bump: finite(0, 1e4),
  }),
);

function readingsOf(values: readonly number[]): Record<string, number> {
  return Object.fromEntries(values.map((value, index) => [`r${index}`, value]));
}

describe('WeightedBoundaryObjective properties', () => {
  it('is monotone non-decreasing in each component with a positive weight', () => {
    fc.assert(
      fc.property(objectiveCase, ({ components, readings, index, bump }) => {
        const spec = components[index];
        fc.pre(spec !== undefined && spec.weight > 0);
        const objective = new WeightedBoundaryObjective(components);
        const raised = readings.map((value, i) => (i === index ? value + bump : value));
        expect(objective.evaluate(readingsOf(raised))).toBeGreaterThanOrEqual(
          objective.evaluate(readingsOf(readings)) - 1e-9,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('is bounded by the sum of |weight| * max(|clip_low|, |clip_high|)', () => {
    fc.assert(
      fc.property(objectiveCase, ({ components, readings }) => {
        const objective = new WeightedBoundaryObjective(components);
        const bound = objective.components.reduce(
          (sum, spec) =>
            sum + Math.abs(spec.weight) * Math.max(Math.abs(spec.clipLow), Math.abs(spec.clipHigh)),
          0,
        );
        expect(Math.abs(objective.evaluate(readingsOf(readings)))).toBeLessThanOrEqual(
          bound + 1e-9,
        );
      }),
      { numRuns: 300 },
    );
  });
});
