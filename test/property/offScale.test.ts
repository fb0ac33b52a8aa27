import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { axisFences } from '../../src/report/offScale.js';

const runs = { numRuns: 200 };
const outcomes = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), {
  minLength: 1,
  maxLength: 30,
});

describe('axis fences of a chart (Tukey, 1.5 IQR)', () => {
  test.prop([outcomes], runs)(
    'keep the median on the scale, and put at most a quarter of the values (plus one) off it on either side',
    (values) => {
      const { low, high } = axisFences(values);
      const sorted = [...values].sort((left, right) => left - right);
      const below = sorted.filter((value) => value < low).length;
      const above = sorted.filter((value) => value > high).length;
      expect(below).toBeLessThanOrEqual(Math.floor(sorted.length / 4) + 1);
      expect(above).toBeLessThanOrEqual(Math.floor(sorted.length / 4) + 1);
      // The median is always on the scale.
      const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
      expect(median >= low && median <= high).toBe(true);
    },
  );

  test.prop([outcomes, fc.double({ min: -1e6, max: 1e6, noNaN: true })], runs)(
    'an off-scale value lies farther out than every value kept on its side',
    (values, extra) => {
      const all = [...values, extra];
      const { low, high } = axisFences(all);
      const kept = all.filter((value) => value >= low && value <= high);
      for (const value of all) {
        if (value < low) expect(kept.every((shown) => shown > value)).toBe(true);
        if (value > high) expect(kept.every((shown) => shown < value)).toBe(true);
      }
    },
  );
});
