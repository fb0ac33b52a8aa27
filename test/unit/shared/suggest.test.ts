import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../../../src/domain/shared/suggest.js';

describe('closestName', () => {
  it.each([
    ['min_evaluation', ['metric', 'min_evaluations', 'window'], 'min_evaluations'],
    ['populaton', ['population', 'elite_fraction', 'initial_std', 'min_std'], 'population'],
    [
      'pv_enrgy',
      ['voltage_violation', 'line_overload', 'curtailed_energy', 'pv_energy'],
      'pv_energy',
    ],
    ['episdoes', ['mode', 'worker', 'episodes'], 'episodes'],
    ['Seed', ['uid', 'seed'], 'seed'],
    ['mdoe', ['mode', 'worker'], 'mode'],
  ])('suggests the accepted name a typo meant: %s -> %s', (name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  it.each([
    ['envs', ['agents', 'environments']],
    ['colour', ['uid', 'seed', 'version', 'schedule', 'run_config']],
    ['episode_begin', ['episode_start', 'loop', 'episode_end']],
    ['extra', ['metric', 'direction', 'min_delta', 'patience', 'min_evaluations', 'window']],
    ['x', []],
  ])('suggests nothing when no name is a typo away: %s', (name, candidates) => {
    expect(closestName(name, candidates)).toBeNull();
  });

  it('never suggests the name itself and prefers the first of equally close names', () => {
    expect(closestName('mode', ['mode'])).toBeNull();
    expect(closestName('bat', ['cat', 'hat'])).toBe('cat');
  });
});

describe('didYouMean', () => {
  it('formats a suggestion, or nothing', () => {
    expect(didYouMean('populaton', ['population'])).toBe('; did you mean "population"?');
    expect(didYouMean('colour', ['uid'])).toBe('');
  });
});
