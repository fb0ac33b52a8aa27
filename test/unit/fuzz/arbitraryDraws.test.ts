import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import {
  evaluationArbitrary,
  metricValueArbitrary,
  sequenceArbitrary,
} from '../../../src/fuzz/termination/arbitraries.js';
import type { MetricRange } from '../../../src/fuzz/termination/metricRange.js';
import { rangeOf } from '../../../src/fuzz/termination/metricRanges.js';
import type { MetricEvaluation, MetricSequence } from '../../../src/fuzz/termination/sequences.js';
import { metricsByAgent } from '../../../src/fuzz/termination/sequences.js';
import { plateauRule, successRule } from '../../support/terminationRules.js';

// SAC reads two metrics (the multi-metric path), PPO one (the shared-entry path).
const config = parseTerminationConfig({
  agents: {
    SAC: {
      success: successRule({ consecutive: 1, min_evaluations: 2 }),
      plateau: plateauRule({ metric: 'loss', direction: 'minimize', window: 2 }),
    },
    PPO: {
      success: successRule({ threshold: 0.5, min_evaluations: 2 }),
      plateau: plateauRule({ window: 2 }),
    },
  },
});
const ranges: MetricRange[] = [
  { metric: 'objective', low: -1, high: 3, assumed: false },
  { metric: 'loss', low: 0, high: 10, assumed: false },
];

/** The plain fast-check formulation: a flat tuple of metric values, one `nextInt` each, nested by a map. */
function referenceEvaluation(): fc.Arbitrary<MetricEvaluation> {
  const slots: { agentName: string; metric: string; value: fc.Arbitrary<number> }[] = [];
  for (const [agentName, metrics] of Object.entries(metricsByAgent(config))) {
    for (const metric of metrics) {
      const value = metricValueArbitrary(config, rangeOf(ranges, metric, agentName));
      slots.push({ agentName, metric, value });
    }
  }
  return fc.tuple(...slots.map((slot) => slot.value)).map((values) => {
    const evaluation: Record<string, Record<string, number>> = {};
    slots.forEach(({ agentName, metric }, index) => {
      evaluation[agentName] = { ...evaluation[agentName], [metric]: values[index]! };
    });
    return evaluation;
  });
}

/** What a search sees: every value fast-check's runner draws (bias on), in order. */
function drawnBySearch<T>(arbitrary: fc.Arbitrary<T>, seed: number): T[] {
  const drawn: T[] = [];
  fc.check(
    fc.property(arbitrary, (value) => {
      drawn.push(value);
      return true;
    }),
    { numRuns: 60, seed },
  );
  return drawn;
}

/** A search that fails on a big enough SAC objective somewhere, and what it shrinks to. */
function shrunk(arbitrary: fc.Arbitrary<MetricSequence>, seed: number) {
  const details = fc.check(
    fc.property(arbitrary, (sequence) => !sequence.some((e) => (e.SAC?.objective ?? 0) > 1.5)),
    { numRuns: 200, seed },
  );
  return { counterexample: details.counterexample, numShrinks: details.numShrinks };
}

describe('fuzz arbitraries draw as the plain fast-check formulation does', () => {
  const length = { minLength: 1, maxLength: 12 };

  it('draws the same evaluations for a seed', () => {
    for (const seed of [1, 7, 42]) {
      expect(drawnBySearch(evaluationArbitrary(config, ranges), seed)).toEqual(
        drawnBySearch(referenceEvaluation(), seed),
      );
    }
  });

  it('draws the same sequences for a seed', () => {
    for (const seed of [1, 7, 42]) {
      expect(drawnBySearch(sequenceArbitrary(config, ranges, length), seed)).toEqual(
        drawnBySearch(fc.array(referenceEvaluation(), length), seed),
      );
    }
  });

  it('shrinks a counterexample to the same sequence in the same steps', () => {
    for (const seed of [1, 7, 42]) {
      const ours = shrunk(sequenceArbitrary(config, ranges, length), seed);
      expect(ours.counterexample).not.toBeNull();
      expect(ours).toEqual(shrunk(fc.array(referenceEvaluation(), length), seed));
    }
  });
});
