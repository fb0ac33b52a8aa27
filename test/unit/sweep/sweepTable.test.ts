import { describe, expect, it } from 'vitest';
import { objectiveNames, sweepTable } from '../../../src/cli/commands/sweepTable.js';
import type { SweepProgress, TrialProgress } from '../../../src/domain/sweep/progress.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';

const store = createMemoryStore();
const trial = (index: number, fields: Partial<TrialProgress>, value: number): TrialProgress => ({
  index,
  parameters: [{ pointer: '/seed', value: index }],
  runId: store.createRun({ uid: `t${index}`, seed: index, runFile: '', runFilePath: 'run.yaml' })
    .runId,
  status: 'running',
  rungIndex: 0,
  prunedAtRung: null,
  error: null,
  evidence: {
    checkpoints: 3,
    rungValues: [[value], [value]],
    lastValues: [value],
    best: { checkpoint: 1, values: [value] },
  } as unknown as TrialProgress['evidence'],
  ...fields,
});

describe('sweepTable', () => {
  it("ranks an interrupted sweep's unfinished trials by the rungs they were kept at, not below pruned ones", () => {
    const progress: SweepProgress = {
      pruner: { kind: 'successive_halving', rungs: [3, 6], eta: 2 },
      objectives: [{ metric: 'objective', weights: { a: 1 }, direction: 'maximize' }],
      decisions: [],
      trials: [
        trial(0, { status: 'pruned', prunedAtRung: 0 }, 9),
        trial(1, { status: 'held', rungIndex: 1 }, 2),
        trial(2, { status: 'completed', rungIndex: 2 }, 1),
        trial(3, { status: 'running', rungIndex: 0 }, 5),
        trial(4, { status: 'pruned', prunedAtRung: 1 }, 3),
        trial(5, { status: 'failed' }, 8),
      ],
    };
    const table = sweepTable('s', 'interrupted', progress, store);
    // completed; kept at 1 rung: the held one, then the one pruned at rung 2; kept at none: running, then pruned; failed
    expect(table.trials.map((row) => row.index)).toEqual([2, 1, 4, 3, 0, 5]);
  });
});

describe('objectiveNames', () => {
  const objective = (metric: string, agent: string) =>
    ({ metric, weights: { [agent]: 1 }, direction: 'maximize' }) as const;
  it('names objectives by metric when the metrics differ', () => {
    expect(objectiveNames([objective('objective', 'a'), objective('episodes', 'a')])).toEqual([
      'objective',
      'episodes',
    ]);
  });
  it('adds the agents when two objectives share a metric', () => {
    expect(
      objectiveNames([objective('objective', 'north'), objective('objective', 'south')]),
    ).toEqual(['north objective', 'south objective']);
  });
});
