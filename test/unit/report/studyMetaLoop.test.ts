import { describe, expect, it } from 'vitest';
import { metaLoopChartConfig } from '../../../src/report/chartConfigs.js';
import type { PhaseReport } from '../../../src/report/reportTypes.js';
import { studySummary } from '../../../src/report/studySummary.js';

/** One phase of the repeated meta loop: decisions `[firstEpisode, pv]`, episodes `[evaluation, return]` in order. */
function loopPhase(
  decisions: readonly [number, number][],
  episodes: readonly [boolean, number][],
): PhaseReport {
  return {
    phaseIndex: 0,
    name: 'search',
    mode: 'train',
    status: 'done',
    terminationReason: 'success',
    episodes: episodes.length,
    metrics: [],
    episodeReturns: episodes.map(([evaluation, value], index) => ({
      episode: index + 1,
      evaluation,
      episodeReturn: value,
      steps: 1,
      returnsByAgent: { operator: value },
    })),
    metaDecisions: decisions.map(([firstEpisode, pv], index) => ({
      startRequest: index + 1,
      firstEpisode,
      environmentUid: 'grid',
      agentName: 'planner',
      selectors: [{ uid: 'grid.pv', baseline: 2, candidate: pv }],
    })),
    termination: { reason: 'success', summary: '', decisiveCheckpoint: null },
  };
}

describe('studySummary of the repeated meta loop', () => {
  it('reads one phase with several decisions as one row per decision, over the episodes each ran', () => {
    const phase = loopPhase(
      [
        [1, 2],
        [4, 4],
        [7, 4],
      ],
      [
        [false, -1],
        [false, 1],
        [true, 5],
        [false, 2],
        [false, 8],
        [true, 20],
        [false, 9],
        [true, 30],
      ],
    );
    const study = studySummary([phase]);
    expect(
      study?.phases.map(({ name, decision, outcome, terminationReason }) => ({
        name,
        decision,
        outcome,
        terminationReason,
      })),
    ).toEqual([
      {
        name: 'search training episodes 1–2',
        decision: { 'grid.pv': 2 },
        outcome: { value: 5, measure: 'evaluation mean return', episodes: 1 },
        terminationReason: null,
      },
      {
        name: 'search training episodes 3–4',
        decision: { 'grid.pv': 4 },
        outcome: { value: 20, measure: 'evaluation mean return', episodes: 1 },
        terminationReason: null,
      },
      {
        name: 'search training episodes 5',
        decision: { 'grid.pv': 4 },
        outcome: { value: 30, measure: 'evaluation mean return', episodes: 1 },
        terminationReason: 'success',
      },
    ]);
    expect(study?.selectors).toEqual(['grid.pv']);
    expect(study?.findings).toEqual([
      'The best outcome is 30 (evaluation mean return) in phase search training episodes 5, with grid.pv = 4.',
      'Best outcome per grid.pv: 5 at 2, 30 at 4; highest at 4, next 2.',
      'The last decision (phases search training episodes 3–4, search training episodes 5) keeps grid.pv = 4: the choice of the best outcome.',
    ]);
  });

  it('keeps a one-shot phase one row, as before', () => {
    const oneShot = loopPhase([[1, 2]], [[true, 5]]);
    expect(studySummary([oneShot])).toBeNull();
  });
});

describe('metaLoopChartConfig', () => {
  it("draws each decision's chosen value as a step over the episodes its world ran, on its own axis", () => {
    const phase = loopPhase(
      [
        [1, 2],
        [4, 4],
      ],
      [
        [false, -1],
        [false, 1],
        [true, 5],
        [false, 2],
        [false, 8],
      ],
    );
    const config = metaLoopChartConfig(
      'search',
      phase.episodeReturns,
      phase.metaDecisions,
      'grid.pv',
    );
    const chosen = config.data.datasets.find((dataset) => dataset.label === 'grid.pv chosen');
    expect(chosen?.data).toEqual([
      { x: 1, y: 2 },
      { x: 3, y: 2 },
      { x: 4, y: 4 },
      { x: 5, y: 4 },
    ]);
    expect(chosen?.yAxisID).toBe('decision');
    expect(config.data.datasets.map((dataset) => dataset.label)).toEqual([
      'training episodes',
      'evaluation episodes',
      'grid.pv chosen',
    ]);
    expect(Object.keys(config.options.scales as object)).toEqual(['x', 'y', 'decision']);
  });
});
