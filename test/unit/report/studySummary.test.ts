import { describe, expect, it } from 'vitest';
import type { PhaseReport } from '../../../src/report/reportTypes.js';
import { studySummary } from '../../../src/report/studySummary.js';

/** A phase that chose `pv` (when given) and whose episodes returned `returns` (evaluation ones after `|`). */
function phase(
  phaseIndex: number,
  pv: number | string | null,
  training: readonly number[],
  evaluation: readonly number[] = [],
): PhaseReport {
  const episodes = [
    ...training.map((value) => ({ evaluation: false, value })),
    ...evaluation.map((value) => ({ evaluation: true, value })),
  ];
  return {
    phaseIndex,
    name: `phase_${phaseIndex}`,
    mode: evaluation.length > 0 ? 'train' : 'test',
    status: 'done',
    terminationReason: 'max_episodes',
    episodes: episodes.length,
    metrics: [],
    episodeReturns: episodes.map((entry, index) => ({
      episode: index + 1,
      evaluation: entry.evaluation,
      episodeReturn: entry.value,
      steps: 1,
      returnsByAgent: { operator: entry.value },
    })),
    metaDecisions:
      pv === null
        ? []
        : [
            {
              startRequest: 1,
              firstEpisode: 1,
              environmentUid: 'grid',
              agentName: 'planner',
              selectors: [
                { uid: 'grid.pv', baseline: 2, candidate: pv },
                { uid: 'grid.load', baseline: 1, candidate: 1 },
              ],
            },
          ],
    termination: { reason: 'max_episodes', summary: '', decisiveCheckpoint: null },
  };
}

describe('studySummary', () => {
  it('is null with fewer than two phases that made a meta decision', () => {
    expect(studySummary([phase(0, 2, [1], [1]), phase(1, null, [5])])).toBeNull();
    expect(studySummary([])).toBeNull();
  });

  it("takes a phase's outcome from its evaluation episodes, or from all episodes without any", () => {
    const study = studySummary([phase(0, 2, [100, 100], [1, 3]), phase(1, 4, [5, 7])]);
    expect(study?.phases.map((entry) => entry.outcome)).toEqual([
      { value: 2, measure: 'evaluation mean return', episodes: 2 },
      { value: 6, measure: 'mean return', episodes: 2 },
    ]);
  });

  it('draws the numeric selectors whose chosen value changes between phases', () => {
    const study = studySummary([phase(0, 2, [], [1]), phase(1, 4, [], [3]), phase(2, null, [9])]);
    expect(study?.selectors).toEqual(['grid.pv']);
    expect(study?.phases.map((entry) => entry.decision)).toEqual([
      { 'grid.pv': 2, 'grid.load': 1 },
      { 'grid.pv': 4, 'grid.load': 1 },
      null,
    ]);
    const named = studySummary([phase(0, 'small', [], [1]), phase(1, 'large', [], [3])]);
    expect(named?.selectors).toEqual([]);
  });

  it('finds the best outcome, the best per value and whether the last decision keeps it', () => {
    const study = studySummary([
      phase(0, 2, [], [10]),
      phase(1, 4, [], [30]),
      phase(2, 6, [], [25]),
      phase(3, 8, [], [-70]),
      phase(4, 4, [], [20]),
      phase(5, 4, [28]),
    ]);
    expect(study?.findings).toEqual([
      'The best outcome is 30 (evaluation mean return) in phase phase_1, with grid.pv = 4.',
      'Best outcome per grid.pv: 10 at 2, 30 at 4, 25 at 6, -70 at 8; highest at 4, next 6.',
      'The last decision (phases phase_4, phase_5) keeps grid.pv = 4: the choice of the best outcome.',
    ]);
  });

  it('says so when the last decision is not the choice of the best outcome', () => {
    const study = studySummary([phase(0, 2, [], [10]), phase(1, 4, [], [3])]);
    expect(study?.findings.at(-1)).toBe(
      'The last decision (phase phase_1) keeps grid.pv = 4: not the choice of the best outcome (grid.pv = 2).',
    );
  });

  it('says there is nothing to compare when no deciding phase finished an episode', () => {
    const study = studySummary([phase(0, 2, []), phase(1, 4, [])]);
    expect(study?.findings).toEqual([
      'No phase with a meta decision finished an episode, so there is no outcome to compare.',
    ]);
  });
});
