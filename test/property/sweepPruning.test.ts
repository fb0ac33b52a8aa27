import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareValues,
  decideRung,
  dominates,
  expandTrials,
  type RungEntry,
  type SweepObjective,
  type SweepParameter,
  type SweepPruner,
} from '../../src/domain/sweep/index.js';

const numRuns = 200;

const objectivesOf = (count: { min: number; max: number }) =>
  fc
    .array(fc.constantFrom('maximize', 'minimize') as fc.Arbitrary<'maximize' | 'minimize'>, {
      minLength: count.min,
      maxLength: count.max,
    })
    .map((directions) =>
      directions.map(
        (direction, i): SweepObjective => ({
          metric: `m${i}`,
          weights: { a: 1 },
          direction,
        }),
      ),
    );

// Few distinct values, so ties and equal fronts are common; some missing.
const valueWith = (nullWeight: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: -3, max: 3 }) },
    { weight: nullWeight, arbitrary: fc.constant(null) },
  );

const entriesFor = (objectiveCount: number, nullWeight = 1) =>
  fc
    .uniqueArray(fc.nat({ max: 40 }), { maxLength: 12 })
    .chain((trials) =>
      fc.tuple(
        ...trials.map((trial) =>
          fc.record({
            trial: fc.constant(trial),
            values: fc.array(valueWith(nullWeight), {
              minLength: objectiveCount,
              maxLength: objectiveCount,
            }),
            prunable: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)),
          }),
        ),
      ),
    )
    .map((entries): RungEntry[] => entries);

const pruner: fc.Arbitrary<SweepPruner> = fc.oneof(
  fc.record({
    kind: fc.constant('successive_halving' as const),
    rungs: fc.constant([3, 6]),
    eta: fc.constantFrom(1, 1.5, 2, 3, 4),
  }),
  fc.record({
    kind: fc.constant('median' as const),
    rungs: fc.constant([3, 6]),
    window: fc.integer({ min: 1, max: 3 }),
    minTrials: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('none' as const), rungs: fc.constant([3, 6]) }),
);

const halving = fc.record({
  kind: fc.constant('successive_halving' as const),
  rungs: fc.constant([3, 6]),
  eta: fc.constantFrom(1, 1.5, 2, 3, 4),
});

const rungCase = (objectives: fc.Arbitrary<SweepObjective[]>, pruners = pruner, nullWeight = 1) =>
  objectives.chain((objs) =>
    fc.record({
      objectives: fc.constant(objs),
      entries: entriesFor(objs.length, nullWeight),
      pruner: pruners,
      rungIndex: fc.integer({ min: 0, max: 1 }),
    }),
  );

const anyRung = rungCase(objectivesOf({ min: 1, max: 3 }));
const singleRung = rungCase(objectivesOf({ min: 1, max: 1 }));
// Many missing values: medians over few values, where dominance is what spares a trial.
const multiRung = rungCase(objectivesOf({ min: 2, max: 3 }), pruner, 4);

function byTrial(entries: readonly RungEntry[]): Map<number, RungEntry> {
  return new Map(entries.map((entry) => [entry.trial, entry]));
}

describe('decideRung properties', () => {
  it('(a) gives the same decision for any order of the entries (completion order does not matter)', () => {
    fc.assert(
      fc.property(
        anyRung.chain((c) =>
          fc.record({
            c: fc.constant(c),
            order: fc.shuffledSubarray(c.entries, { minLength: c.entries.length }),
          }),
        ),
        ({ c, order }) => {
          expect(decideRung(c.pruner, c.rungIndex, order, c.objectives)).toEqual(
            decideRung(c.pruner, c.rungIndex, c.entries, c.objectives),
          );
        },
      ),
      { numRuns },
    );
  });

  it('(b) one objective: no pruned trial outranks a kept prunable one', () => {
    fc.assert(
      fc.property(singleRung, ({ pruner, rungIndex, entries, objectives }) => {
        const decision = decideRung(pruner, rungIndex, entries, objectives);
        const entryOf = byTrial(entries);
        const direction = objectives[0]!.direction;
        const position = new Map(decision.ranking.map((trial, i) => [trial, i]));
        for (const k of decision.kept.filter((trial) => entryOf.get(trial)!.prunable)) {
          for (const p of decision.pruned) {
            const order = compareValues(
              entryOf.get(k)!.values[0]!,
              entryOf.get(p)!.values[0]!,
              direction,
            );
            expect(order).toBeLessThanOrEqual(0);
            if (order === 0) {
              expect(pruner.kind).toBe('successive_halving');
              expect(k).toBeLessThan(p);
            }
            expect(position.get(k)!).toBeLessThan(position.get(p)!);
          }
        }
      }),
      { numRuns },
    );
  });

  it('(b) successive halving, several objectives: no pruned trial ranks above a kept prunable one', () => {
    fc.assert(
      fc.property(
        rungCase(objectivesOf({ min: 2, max: 3 }), halving),
        ({ pruner, rungIndex, entries, objectives }) => {
          const decision = decideRung(pruner, rungIndex, entries, objectives);
          const prunable = new Set(entries.filter((e) => e.prunable).map((e) => e.trial));
          const position = new Map(decision.ranking.map((trial, i) => [trial, i]));
          for (const k of decision.kept.filter((trial) => prunable.has(trial))) {
            for (const p of decision.pruned) {
              expect(position.get(k)!).toBeLessThan(position.get(p)!);
            }
          }
        },
      ),
      { numRuns },
    );
  });

  it('(c) several objectives: every pruned trial is dominated by some entry of the rung', () => {
    fc.assert(
      fc.property(multiRung, ({ pruner, rungIndex, entries, objectives }) => {
        const decision = decideRung(pruner, rungIndex, entries, objectives);
        const entryOf = byTrial(entries);
        for (const p of decision.pruned) {
          const pruned = entryOf.get(p)!;
          expect(entries.some((other) => dominates(other.values, pruned.values, objectives))).toBe(
            true,
          );
        }
      }),
      { numRuns },
    );
  });

  it('(d) successive halving keeps exactly max(1, ceil(n / eta)), more only when ended or undominated trials force it or no value is present', () => {
    fc.assert(
      fc.property(
        rungCase(objectivesOf({ min: 1, max: 3 }), halving),
        ({ pruner, rungIndex, entries, objectives }) => {
          if (pruner.kind !== 'successive_halving' || entries.length === 0) return;
          const decision = decideRung(pruner, rungIndex, entries, objectives);
          if (entries.every((entry) => entry.values.every((value) => value === null))) {
            // no value at all: no evidence to rank on, so the rung stops no one (docs/sweeps.md)
            expect(decision.pruned).toEqual([]);
            return;
          }
          const keep = Math.max(1, Math.ceil(entries.length / pruner.eta));
          const entryOf = byTrial(entries);
          if (objectives.length === 1) {
            const forced = decision.ranking
              .slice(keep)
              .filter((trial) => !entryOf.get(trial)!.prunable).length;
            expect(decision.kept).toHaveLength(keep + forced);
          } else {
            const candidates = entries.filter(
              (entry) =>
                entry.prunable &&
                entries.some((other) => dominates(other.values, entry.values, objectives)),
            ).length;
            expect(decision.kept).toHaveLength(Math.max(keep, entries.length - candidates));
          }
        },
      ),
      { numRuns },
    );
  });

  it('(e) every entry is in exactly one of kept and pruned, both sorted, ended trials never pruned', () => {
    fc.assert(
      fc.property(anyRung, ({ pruner, rungIndex, entries, objectives }) => {
        const decision = decideRung(pruner, rungIndex, entries, objectives);
        const trials = entries.map((entry) => entry.trial).sort((a, b) => a - b);
        expect([...decision.kept, ...decision.pruned].sort((a, b) => a - b)).toEqual(trials);
        expect(new Set([...decision.kept, ...decision.pruned]).size).toBe(trials.length);
        expect([...decision.ranking].sort((a, b) => a - b)).toEqual(trials);
        expect(decision.kept).toEqual([...decision.kept].sort((a, b) => a - b));
        expect(decision.pruned).toEqual([...decision.pruned].sort((a, b) => a - b));
        const ended = new Set(entries.filter((e) => !e.prunable).map((e) => e.trial));
        expect(decision.pruned.filter((trial) => ended.has(trial))).toEqual([]);
        expect(decision.rung).toBe(pruner.rungs[rungIndex]);
        if (pruner.kind === 'none') expect(decision.pruned).toEqual([]);
        if (pruner.kind === 'median') {
          expect(decision.median).toHaveLength(objectives.length);
          if (entries.length < pruner.minTrials) expect(decision.pruned).toEqual([]);
        } else {
          expect(decision.median).toBeNull();
        }
      }),
      { numRuns },
    );
  });
  it('(g) a rung where no entry has any value prunes nothing, whatever the pruner', () => {
    fc.assert(
      fc.property(
        rungCase(objectivesOf({ min: 1, max: 3 })).map((rung) => ({
          ...rung,
          entries: rung.entries.map((entry) => ({
            ...entry,
            values: entry.values.map(() => null),
          })),
        })),
        ({ objectives, entries, pruner, rungIndex }) => {
          const decision = decideRung(pruner, rungIndex, entries, objectives);
          expect(decision.pruned).toEqual([]);
          expect(decision.kept).toHaveLength(entries.length);
        },
      ),
      { numRuns },
    );
  });
});

describe('expandTrials properties', () => {
  const listed = fc
    .array(
      fc.uniqueArray(fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.boolean()), {
        minLength: 1,
        maxLength: 4,
      }),
      {
        maxLength: 4,
      },
    )
    .map((lists) =>
      lists.map((values, i): SweepParameter => ({ kind: 'values', pointer: `/p${i}`, values })),
    );

  it('(f) a grid has the product of the value counts, each combination once, in parameter order', () => {
    fc.assert(
      fc.property(listed, fc.integer(), (parameters, seed) => {
        const trials = expandTrials({ seed, search: { kind: 'grid' }, parameters });
        const product = parameters.reduce(
          (count, parameter) => count * (parameter.kind === 'values' ? parameter.values.length : 0),
          1,
        );
        expect(trials).toHaveLength(product);
        expect(new Set(trials.map((trial) => JSON.stringify(trial))).size).toBe(product);
        for (const trial of trials) {
          expect(trial.map(({ pointer }) => pointer)).toEqual(parameters.map((p) => p.pointer));
          trial.forEach(({ value }, i) => {
            const parameter = parameters[i]!;
            expect(parameter.kind === 'values' && parameter.values.includes(value)).toBe(true);
          });
        }
      }),
      { numRuns },
    );
  });

  it('a random search draws the same trials for the same seed, each value within its parameter', () => {
    const range = fc
      .record({
        low: fc.double({ min: 0.001, max: 100, noNaN: true }),
        span: fc.double({ min: 0.01, max: 1000, noNaN: true }),
        integer: fc.boolean(),
        log: fc.boolean(),
      })
      .map(
        ({ low, span, integer, log }): SweepParameter => ({
          kind: 'range',
          pointer: '/r',
          low: integer ? Math.floor(low) + 1 : low,
          high: integer ? Math.floor(low) + 1 + Math.floor(span) : low + span,
          integer,
          log,
        }),
      );
    fc.assert(
      fc.property(
        fc.array(range, { minLength: 1, maxLength: 3 }),
        fc.integer(),
        fc.integer({ min: 1, max: 20 }),
        (parameters, seed, trials) => {
          const search = { kind: 'random', trials } as const;
          const drawn = expandTrials({ seed, search, parameters });
          expect(expandTrials({ seed, search, parameters })).toEqual(drawn);
          expect(drawn).toHaveLength(trials);
          for (const trial of drawn) {
            trial.forEach(({ value }, i) => {
              const p = parameters[i]!;
              if (p.kind !== 'range' || typeof value !== 'number') throw new Error('not a number');
              expect(value).toBeGreaterThanOrEqual(p.low);
              if (p.integer) {
                expect(Number.isInteger(value)).toBe(true);
                expect(value).toBeLessThanOrEqual(p.high);
              } else {
                // A log draw exp(log high - tiny) may round to high itself.
                expect(value).toBeLessThanOrEqual(p.high);
                if (!p.log) expect(value).toBeLessThan(p.high);
              }
            });
          }
        },
      ),
      { numRuns },
    );
  });
});
