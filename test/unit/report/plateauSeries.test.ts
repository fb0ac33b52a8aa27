import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/config.js';
import { plateauSeries } from '../../../src/report/plateauSeries.js';
import { checkpoint } from './records.js';

const rules = parseTerminationConfig({
  agents: {
    operator: {
      plateau: {
        metric: 'objective',
        direction: 'maximize',
        min_delta: 0.5,
        patience: 10,
        min_evaluations: 1,
        window: 2,
      },
    },
  },
});

const successOnly = parseTerminationConfig({
  agents: {
    operator: {
      success: {
        metric: 'objective',
        threshold: 100,
        direction: 'greater_equal',
        consecutive: 1,
        min_evaluations: 1,
      },
    },
  },
});

const run = (values: readonly number[]) =>
  values.map((value, index) => checkpoint(index, { metrics: { operator: { objective: value } } }));

describe('plateauSeries', () => {
  it('gives the mean of the last window values, null until the window is full', () => {
    const series = plateauSeries(run([1, 3, 3.1, 3.05, 2]), rules).get('operator');
    expect(series?.metric).toBe('objective');
    expect(series?.window).toBe(2);
    expect(series?.points).toEqual([
      { checkpointIndex: 0, afterEpisode: 3, value: null },
      { checkpointIndex: 1, afterEpisode: 6, value: 2 },
      { checkpointIndex: 2, afterEpisode: 9, value: 3.05 },
      { checkpointIndex: 3, afterEpisode: 12, value: 3.075 },
      { checkpointIndex: 4, afterEpisode: 15, value: 2.525 },
    ]);
  });

  it('marks the best the rule holds: a higher smoothed value below min_delta does not move it', () => {
    const series = plateauSeries(run([1, 3, 3.1, 3.05, 2]), rules).get('operator');
    expect(series?.best).toEqual({ checkpointIndex: 2, afterEpisode: 9, value: 3.05 });
  });

  it('skips a checkpoint the store marked rejected, as the rule did', () => {
    const [first, second] = run([1, 3]);
    // A gap in evaluation episodes: the run rejected it and it changed nothing.
    const rejected = {
      ...checkpoint(1, { status: 'rejected' }),
      outcomes: [
        {
          agentName: 'operator',
          evaluationId: 'train:7',
          evaluationEpisode: 7,
          metrics: { objective: 100 },
        },
      ],
    };
    const after = { ...second!, checkpointIndex: 2 };
    const series = plateauSeries([first!, rejected, after], rules).get('operator');
    expect(series?.points.map((point) => [point.checkpointIndex, point.value])).toEqual([
      [0, null],
      [2, 2],
    ]);
  });

  it('gives no series without a plateau rule, nor without rules', () => {
    expect([...plateauSeries(run([1, 2]), rules).keys()]).toEqual(['operator']);
    expect(plateauSeries(run([1, 2]), successOnly).size).toBe(0);
    expect(plateauSeries(run([1, 2]), null).size).toBe(0);
  });

  it('ends the series where a stored checkpoint no longer applies', () => {
    const [first, second] = run([1, 3]);
    // A re-sent evaluation (same id and episode) with another value: the domain rejects it.
    const conflicting = {
      ...checkpoint(2),
      outcomes: [
        {
          agentName: 'operator',
          evaluationId: 'train:1',
          evaluationEpisode: 1,
          metrics: { objective: 9 },
        },
        {
          agentName: 'baseline',
          evaluationId: 'train:1',
          evaluationEpisode: 1,
          metrics: { objective: 0 },
        },
      ],
    };
    const later = checkpoint(3, {
      metrics: { operator: { objective: 5 } },
    });
    const series = plateauSeries([first!, second!, conflicting, later], rules).get('operator');
    expect(series?.points.map((point) => point.checkpointIndex)).toEqual([0, 1]);
  });
});
