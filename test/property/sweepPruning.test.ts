import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideRung } from '../../src/domain/sweep/decideRung.js';
import { expandTrials } from '../../src/domain/sweep/expandTrials.js';
import { dominates, rankTrials } from '../../src/domain/sweep/ranking.js';
import type { RungEntry, SweepObjective, SweepPruner } from '../../src/domain/sweep/types.js';

const maximize: SweepObjective = { metric: 'objective', weights: { a: 1 }, direction: 'maximize' };
const minimize: SweepObjective = { metric: 'loss', weights: { a: 1 }, direction: 'minimize' };

const value = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 6, arbitrary: fc.integer({ min: -5, max: 5 }) },
);
const objectivesArb = fc.oneof(
  fc.constant([maximize]),
  fc.constant([minimize]),
  fc.constant([maximize, minimize]),
);
const prunerArb: fc.Arbitrary<SweepPruner> = fc.oneof(
  fc.record({
    kind: fc.constant('successive_halving' as const),
    rungs: fc.constant([3]),
    eta: fc.integer({ min: 2, max: 4 }),
  }),
  fc.record({
    kind: fc.constant('median' as const),
    rungs: fc.constant([3]),
    window: fc.constant(1),
    minTrials: fc.integer({ min: 1, max: 4 }),
  }),
);
const rungArb = objectivesArb.chain((objectives) =>
  fc.record({
    objectives: fc.constant(objectives),
    pruner: prunerArb,
    entries: fc
      .uniqueArray(
        fc.record({
          trial: fc.integer({ min: 0, max: 30 }),
          values: fc.array(value, { minLength: objectives.length, maxLength: objectives.length }),
          prunable: fc.boolean(),
        }),
        { minLength: 1, maxLength: 10, selector: (entry) => entry.trial },
      )
      .chain((entries) =>
        fc.tuple(
          fc.constant(entries as RungEntry[]),
          fc.shuffledSubarray(entries, { minLength: entries.length }),
        ),
      ),
  }),
);

/** Whether `a` is strictly better than `b` in the single objective (a missing value is worst). */
const better = (a: number | null, b: number | null, objective: SweepObjective) =>
  a !== null && (b === null || (objective.direction === 'maximize' ? a > b : a < b));

describe('rung decisions', () => {
  it('are a function of the entries, whatever order they come in', () => {
    fc.assert(
      fc.property(rungArb, ({ objectives, pruner, entries: [entries, shuffled] }) => {
        expect(decideRung(pruner, 0, shuffled, objectives)).toEqual(
          decideRung(pruner, 0, entries, objectives),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('put every entry in exactly one of kept and pruned, and never prune a trial that already completed', () => {
    fc.assert(
      fc.property(rungArb, ({ objectives, pruner, entries: [entries] }) => {
        const decision = decideRung(pruner, 0, entries, objectives);
        expect([...decision.kept, ...decision.pruned].sort((a, b) => a - b)).toEqual(
          entries.map((entry) => entry.trial).sort((a, b) => a - b),
        );
        for (const trial of decision.pruned) {
          expect(entries.find((entry) => entry.trial === trial)?.prunable).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never let a pruned trial outrank a kept one at the rung that pruned it (one objective)', () => {
    fc.assert(
      fc.property(rungArb, ({ objectives, pruner, entries: [entries] }) => {
        fc.pre(objectives.length === 1);
        const [objective] = objectives as [SweepObjective];
        const decision = decideRung(pruner, 0, entries, objectives);
        const entryOf = (trial: number) => entries.find((entry) => entry.trial === trial);
        const position = (trial: number) => decision.ranking.indexOf(trial);
        // a completed trial is kept because it cannot be stopped, not for its value: the claim is about the others
        const keptPrunable = decision.kept.filter((trial) => entryOf(trial)?.prunable === true);
        for (const pruned of decision.pruned) {
          for (const kept of keptPrunable) {
            expect(
              better(
                entryOf(pruned)?.values[0] ?? null,
                entryOf(kept)?.values[0] ?? null,
                objective,
              ),
            ).toBe(false);
            if (pruner.kind === 'successive_halving')
              expect(position(pruned)).toBeGreaterThan(position(kept));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('prune only a dominated trial with several objectives', () => {
    fc.assert(
      fc.property(rungArb, ({ objectives, pruner, entries: [entries] }) => {
        fc.pre(objectives.length > 1);
        const decision = decideRung(pruner, 0, entries, objectives);
        for (const trial of decision.pruned) {
          const mine = entries.find((entry) => entry.trial === trial)?.values ?? [];
          expect(
            entries.some(
              (other) => other.trial !== trial && dominates(other.values, mine, objectives),
            ),
          ).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keep at least max(1, ceil(n / eta)) trials by successive halving, and exactly that many when all are prunable (one objective)', () => {
    fc.assert(
      fc.property(rungArb, ({ objectives, pruner, entries: [entries] }) => {
        fc.pre(pruner.kind === 'successive_halving');
        const eta = (pruner as { eta: number }).eta;
        const keep = Math.max(1, Math.ceil(entries.length / eta));
        const decision = decideRung(pruner, 0, entries, objectives);
        expect(decision.kept.length).toBeGreaterThanOrEqual(keep);
        if (objectives.length === 1 && entries.every((entry) => entry.prunable)) {
          expect(decision.kept).toHaveLength(keep);
          expect(decision.kept).toEqual([...decision.ranking.slice(0, keep)].sort((a, b) => a - b));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rank ties by the lower trial index', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 8 }),
        (trials) => {
          const entries = trials.map((trial) => ({ trial, values: [1], prunable: true }));
          expect(rankTrials(entries, [maximize])).toEqual([...trials].sort((a, b) => a - b));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('grid search', () => {
  it('makes every combination of the listed values once, the first parameter slowest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer(), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 3,
        }),
        (lists) => {
          const trials = expandTrials({
            seed: 0,
            search: { kind: 'grid' },
            parameters: lists.map((values, index) => ({
              kind: 'values',
              pointer: `/p${index}`,
              values,
            })),
          });
          expect(trials).toHaveLength(lists.reduce((product, list) => product * list.length, 1));
          expect(new Set(trials.map((trial) => JSON.stringify(trial))).size).toBe(trials.length);
          // the combinations in odometer order: the last parameter turns fastest
          const odometer = (rest: number[][]): number[][] =>
            rest.length === 0
              ? [[]]
              : (rest[0] as number[]).flatMap((head) =>
                  odometer(rest.slice(1)).map((tail) => [head, ...tail]),
                );
          expect(trials.map((trial) => trial.map((each) => each.value))).toEqual(odometer(lists));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('draws the same random trials from the same seed, every range value inside its range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const spec = {
          seed,
          search: { kind: 'random', trials: 6 } as const,
          parameters: [
            {
              kind: 'range',
              pointer: '/lr',
              low: 0.001,
              high: 0.1,
              integer: false,
              log: true,
            } as const,
            { kind: 'range', pointer: '/n', low: 2, high: 5, integer: true, log: false } as const,
            { kind: 'values', pointer: '/c', values: ['a', 'b'] } as const,
          ],
        };
        const trials = expandTrials(spec);
        expect(expandTrials(spec)).toEqual(trials);
        for (const [lr, n, c] of trials.map((trial) => trial.map((each) => each.value))) {
          expect(lr as number).toBeGreaterThanOrEqual(0.001);
          expect(lr as number).toBeLessThan(0.1);
          expect(Number.isInteger(n)).toBe(true);
          expect([2, 3, 4, 5]).toContain(n);
          expect(['a', 'b']).toContain(c);
        }
      }),
      { numRuns: 50 },
    );
  });
});
