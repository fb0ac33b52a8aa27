import { describe, expect, it } from 'vitest';
import type { StudySummary } from '../../../src/report/reportTypes.js';
import { studyChartConfig } from '../../../src/report/studyChart.js';

/** The hosting-capacity study's seven phases: chosen PV size and outcome. */
const phases: Array<[string, number, number]> = [
  ['explore_1', 2.2, 13.5153],
  ['explore_2', 4.4, 29.9433],
  ['explore_3', 6.6, 27.2035],
  ['explore_4', 8.8, -67.9758],
  ['explore_5', 11, -193.751],
  ['tune', 4.4, 19.8873],
  ['test', 4.4, 28.0784],
];

const study: StudySummary = {
  selectors: ['pv'],
  findings: [],
  phases: phases.map(([name, pv, value], phaseIndex) => ({
    phaseIndex,
    name,
    mode: 'train',
    terminationReason: 'max_episodes',
    decision: { pv },
    outcome: { value, measure: 'evaluation mean return', episodes: 4 },
  })),
};

describe('the study chart configuration', () => {
  const config = studyChartConfig(study, 'pv');
  const [outcomes, star] = config.data.datasets;

  it('labels each phase with its name and outcome, and the outlier as off scale', () => {
    expect(outcomes?.pointLabels).toEqual([
      'explore_1 13.5153',
      'explore_2 29.9433',
      'explore_3 27.2035',
      'explore_4 -67.9758',
      'explore_5 -193.751 (off scale)',
      'tune 19.8873',
      'test 28.0784',
    ]);
  });

  it('draws the outlier just below the lowest outcome on the scale, as a triangle pointing down', () => {
    const plotted = outcomes?.data.map((point) => point.y);
    expect(plotted?.[4]).toBeCloseTo(-67.9758 - (29.9433 + 67.9758) / 10, 6);
    expect(outcomes?.pointStyle).toEqual([
      'circle',
      'circle',
      'circle',
      'circle',
      'triangle',
      'circle',
      'circle',
    ]);
    expect(outcomes?.rotation).toEqual([0, 0, 0, 0, 180, 0, 0]);
  });

  it('stars the last decision on its own phase mark', () => {
    expect(star?.label).toBe('last decision (test): 4.4');
    expect(star?.marksPoint).toBe(6);
    expect(star?.data).toEqual([{ x: 4.4, y: 28.0784 }]);
  });
});
