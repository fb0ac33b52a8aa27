import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import { hostingCapacityText } from '../support/badRunFiles.js';
import { runArena } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

/** One place in the run file, its acceptable values and its mistakes. */
interface Slot {
  readonly from: string;
  readonly good: readonly string[];
  readonly bad: readonly string[];
}

const slots: readonly Slot[] = [
  {
    from: 'params: { population: 6 }',
    good: ['params: { population: 6 }', 'params: { population: 3, min_std: 0.1 }'],
    bad: ['params: { populaton: 6 }', 'params: { population: "six" }', 'params: { population: 1 }'],
  },
  {
    from: 'weights: { pv_energy: 1 }',
    good: ['weights: { pv_energy: 1 }', 'weights: { line_overload: 3 }'],
    bad: ['weights: { pv_enrgy: 1 }', 'weights: { pv_energy: "x" }'],
  },
  {
    from: 'consecutive: 2\n            min_evaluations: 3',
    good: [
      'consecutive: 2\n            min_evaluations: 3',
      'consecutive: 1\n            min_evaluations: 1',
    ],
    bad: [
      'consecutive: 2\n            min_evaluation: 3',
      'consecutive: 0\n            min_evaluations: 3',
    ],
  },
  {
    from: 'patience: 4',
    good: ['patience: 4', 'patience: 1'],
    bad: ['patience: 3.5', 'patience: 0'],
  },
  {
    from: 'include: ["^/der_params/midasmv/mapping/"]',
    good: ['include: ["^/der_params/midasmv/mapping/"]', 'include: ["mapping/6"]'],
    bad: ['include: ["^(/der_params"]', 'include: ["["]', 'include: "^/der_params/"'],
  },
  { from: 'high: 13.2', good: ['high: 13.2', 'high: 20'], bad: ['high: -1', 'high: "13"'] },
  {
    from: 'epsilon: 0 }',
    good: ['epsilon: 0 }', 'epsilon: 0.5 }'],
    bad: ['epsilon: 2 }', 'epsilon: 0, temperature: 1 }'],
  },
  {
    from: '- test: { phase_config: { mode: test, episodes: 2 } }',
    good: ['- test: { phase_config: { mode: test, episodes: 1 } }'],
    bad: [
      '- test: { phase_config: { mode: test, episodes: null } }',
      '- test: { phase_config: { mode: test, episodes: 0 } }',
    ],
  },
];

/** The shipped study on a budget a test can run: one exploring phase and the test phase. */
const smallStudy = hostingCapacityText
  .replace(
    'phase_config: { mode: train, worker: 1, episodes: 60, evaluate_every: 4, max_steps: 96 }',
    'phase_config: { mode: train, worker: 1, episodes: 2, evaluate_every: 1, max_steps: 4 }',
  )
  .replace(/ {2}- (explore_[2-5]|tune):.*\n/g, '');

/** A choice per slot: `[bad, index]`; index wraps around the slot's options. */
const choice = fc.tuple(fc.boolean(), fc.nat({ max: 5 }));
const variant = fc.tuple(...slots.map(() => fc.option(choice, { freq: 2, nil: null })));

function write(choices: readonly ([boolean, number] | null)[]): { text: string; valid: boolean } {
  let text = smallStudy;
  let valid = true;
  slots.forEach((slot, index) => {
    const picked = choices[index];
    if (picked === null || picked === undefined) {
      text = text.replace(slot.from, slot.good.at(-1) as string);
      return;
    }
    const [bad, option] = picked;
    const options = bad ? slot.bad : slot.good;
    if (bad) valid = false;
    text = text.replace(slot.from, options[option % options.length] as string);
  });
  return { text, valid };
}

function storedRuns(cwd: string): number {
  const file = path.join(cwd, '.arena/arena.db');
  // a rejected file is checked before the store is opened: no store at all is no run
  if (!existsSync(file)) return 0;
  const store = openSqliteStore(file, { readonly: true });
  try {
    return store.listRuns().length;
  } finally {
    store.close();
  }
}

/** The problem lines of a CLI error, without the first line (which names the error's class on run). */
const problemLines = (stderr: string) => stderr.trimEnd().split('\n').slice(1);

describe('arena validate and arena run agree on mutated variants of the shipped study', () => {
  test.prop([variant], {
    numRuns: 4,
    // the untouched study and one with a mistake in every slot, then random mixes
    examples: [[slots.map(() => null)], [slots.map(() => [true, 0] as [boolean, number])]],
  })(
    'validate accepts a variant exactly when run accepts it, and a rejected one leaves no run',
    async (choices) => {
      const { text, valid } = write(choices);
      const cwd = scratchFolder('arena-agree-');
      const file = path.join(cwd, 'run.yaml');
      writeFileSync(file, text);
      const [validated, ran] = await Promise.all([
        runArena(['validate', file], { cwd }),
        runArena(['run', file], { cwd }),
      ]);
      expect(validated.code).toBe(valid ? 0 : 2);
      if (valid) {
        expect(ran.code, ran.stderr).toBe(0);
        expect(storedRuns(cwd)).toBe(1);
      } else {
        expect(ran.code).toBe(2);
        expect(problemLines(ran.stderr)).toEqual(problemLines(validated.stderr));
        expect(problemLines(validated.stderr).length).toBeGreaterThan(0);
        expect(storedRuns(cwd)).toBe(0);
      }
    },
  );
});
