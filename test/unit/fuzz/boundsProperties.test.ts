import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import { sequenceArbitrary } from '../../../src/fuzz/termination/arbitraries.js';
import {
  analyseForever,
  plateauLowerBound,
  successLowerBound,
} from '../../../src/fuzz/termination/bounds.js';
import type { MetricRange } from '../../../src/fuzz/termination/metricRange.js';
import { playSequence } from '../../../src/fuzz/termination/sequences.js';
import { rawRulesArbitrary } from '../termination/arbitraries.js';

const rangeArbitrary = fc
  .record({ low: fc.constantFrom(-1, 0, 0.25), width: fc.constantFrom(0.5, 1, 2) })
  .map(({ low, width }): MetricRange[] => [
    { metric: 'objective', low, high: low + width, assumed: false },
  ]);

/** Rules, ranges and a sequence of up to 40 evaluations within the ranges. */
const scenarioArbitrary = fc.tuple(rawRulesArbitrary, rangeArbitrary).chain(([rules, ranges]) => {
  const config = parseTerminationConfig(rules);
  return fc.tuple(
    fc.constant(config),
    fc.constant(ranges),
    sequenceArbitrary(config, ranges, { minLength: 0, maxLength: 40 }),
  );
});

describe('the bounds the fuzzer reports are sound', () => {
  test.prop([scenarioArbitrary], { numRuns: 150 })(
    'no sequence reaches success or a plateau before its lower bound',
    ([config, , sequence]) => {
      const played = playSequence(config, sequence);
      if (played.reason === 'success') {
        expect(played.evaluations).toBeGreaterThanOrEqual(successLowerBound(config)!);
      }
      if (played.reason === 'plateau') {
        expect(played.evaluations).toBeGreaterThanOrEqual(plateauLowerBound(config)!);
      }
    },
  );

  test.prop([rawRulesArbitrary, rangeArbitrary, fc.nat()], { numRuns: 60 })(
    'when a phase cannot run forever, every sequence of bound evaluations ends it',
    (rules, ranges, seed) => {
      const config = parseTerminationConfig(rules);
      const analysis = analyseForever(config, ranges);
      fc.pre(!analysis.possible && analysis.bound !== null && analysis.bound <= 120);
      const [sequence] = fc.sample(
        sequenceArbitrary(config, ranges, {
          minLength: analysis.bound!,
          maxLength: analysis.bound!,
        }),
        { numRuns: 1, seed },
      );
      expect(playSequence(config, sequence!).reason).not.toBeNull();
    },
  );

  test.prop([rawRulesArbitrary, rangeArbitrary], { numRuns: 60 })(
    'when a phase can run forever, a constant or monotone sequence never ends it',
    (rules, ranges) => {
      const config = parseTerminationConfig(rules);
      fc.pre(analyseForever(config, ranges).possible);
      const range = ranges[0]!;
      const candidates = [range.low, range.high].map((value) =>
        Array.from({ length: 60 }, () =>
          Object.fromEntries(config.agentNames.map((name) => [name, { objective: value }])),
        ),
      );
      expect(candidates.some((sequence) => playSequence(config, sequence).reason === null)).toBe(
        true,
      );
    },
  );
});
