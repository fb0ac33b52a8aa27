import { describe, expect, it } from 'vitest';
import { sampleSpace, spaceFrame } from '../../../src/builtins/brains/spaceMath.js';
import {
  LOAD_PROFILE_NAMES,
  loadProfile,
  profileAt,
  pvProfile,
} from '../../../src/builtins/grid/profiles.js';
import { createRng } from '../../../src/domain/shared/random.js';

describe('built-in profiles', () => {
  it('has 24 hourly values peaking at exactly 1 for every load profile and PV', () => {
    for (const name of LOAD_PROFILE_NAMES) {
      const profile = loadProfile(name)!;
      expect(profile).toHaveLength(24);
      expect(Math.max(...profile)).toBe(1);
      expect(Math.min(...profile)).toBeGreaterThan(0);
    }
    expect(Math.max(...pvProfile())).toBe(1);
    expect(pvProfile()[13]).toBe(1);
    expect(
      pvProfile()
        .slice(0, 7)
        .every((value) => value === 0),
    ).toBe(true);
    expect(
      pvProfile()
        .slice(20)
        .every((value) => value === 0),
    ).toBe(true);
  });

  it('maps residential to the Household shape and knows no other names', () => {
    expect(loadProfile('residential')).toBe(loadProfile('Household'));
    expect(loadProfile('Bakery')).toBeUndefined();
  });

  it('interpolates linearly between hours and wraps at midnight', () => {
    const hourly = Array.from({ length: 24 }, (_, hour) => hour);
    expect(profileAt(hourly, 1800)).toBeCloseTo(0.5, 12);
    expect(profileAt(hourly, 23.5 * 3600)).toBeCloseTo(11.5, 12);
    expect(profileAt(hourly, 86_400 + 3600)).toBeCloseTo(1, 12);
  });
});

describe('space frames', () => {
  it('centres finite, half-bounded and unbounded spaces', () => {
    expect(spaceFrame({ type: 'Box', low: 0, high: 1 })).toEqual({ center: 0.5, halfRange: 0.5 });
    expect(spaceFrame({ type: 'Box', low: 2, high: Infinity })).toEqual({
      center: 3,
      halfRange: 1,
    });
    expect(spaceFrame({ type: 'Discrete', n: 3, values: [4, -2, 1] })).toEqual({
      center: 1,
      halfRange: 3,
    });
  });

  it('samples inside a half-bounded Box', () => {
    const rng = createRng(3);
    for (let draw = 0; draw < 100; draw++) {
      const value = sampleSpace({ type: 'Box', low: -Infinity, high: 5 }, rng);
      expect(value).toBeLessThanOrEqual(5);
      expect(value).toBeGreaterThanOrEqual(3);
    }
  });
});
