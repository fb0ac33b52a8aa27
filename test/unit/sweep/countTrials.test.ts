import { describe, expect, it } from 'vitest';
import { countTrials } from '../../../src/domain/sweep/countTrials.js';
import { expandTrials } from '../../../src/domain/sweep/expandTrials.js';
import type { SweepParameter } from '../../../src/domain/sweep/types.js';

const listed = (count: number): SweepParameter => ({
  kind: 'values',
  pointer: `/p${count}`,
  values: Array.from({ length: count }, (_, i) => i),
});

describe('countTrials', () => {
  it('counts a grid as the product of its value counts, as expandTrials expands it', () => {
    const spec = { seed: 0, search: { kind: 'grid' as const }, parameters: [listed(3), listed(4)] };
    expect(countTrials(spec)).toBe(12);
    expect(countTrials(spec)).toBe(expandTrials(spec).length);
  });

  it("counts a random search as its trials, whatever its parameters' sizes", () => {
    expect(countTrials({ search: { kind: 'random', trials: 7 }, parameters: [listed(1000)] })).toBe(
      7,
    );
  });

  it('gives Infinity, not a rounded count, for a grid past 2^53', () => {
    const parameters = Array.from({ length: 6 }, () => listed(1000));
    expect(countTrials({ search: { kind: 'grid' }, parameters })).toBe(Number.POSITIVE_INFINITY);
  });
});
