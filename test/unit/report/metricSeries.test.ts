import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/config.js';
import { metricSeries } from '../../../src/report/metricSeries.js';
import { checkpoint } from './records.js';

describe('metricSeries', () => {
  it('gives one series per agent and metric, grouped by agent in the order they first appear', () => {
    const series = metricSeries(
      [
        checkpoint(0, { metrics: { b: { reward: 1 }, a: { loss: 3 } } }),
        checkpoint(1, { metrics: { b: { reward: 2, extra: 5 }, a: { loss: 2 } } }),
      ],
      null,
    );
    expect(series.map((entry) => `${entry.agentName}.${entry.metric}`)).toEqual([
      'b.reward',
      'b.extra',
      'a.loss',
    ]);
    expect(series[1]?.points.map((point) => point.value)).toEqual([null, 5]);
  });

  it('leaves a gap for a missing or non-finite value and skips rejected checkpoints', () => {
    const [series] = metricSeries(
      [
        checkpoint(0, { metrics: { a: { score: 1 } } }),
        checkpoint(1, { metrics: { a: { score: 'NaN' } } }),
        checkpoint(2, { metrics: { a: { score: 99 } }, status: 'rejected' }),
        checkpoint(3, { metrics: { a: { score: true } } }),
        checkpoint(4, { metrics: { a: { score: 2 } } }),
      ],
      null,
    );
    expect(series?.points).toEqual([
      { checkpointIndex: 0, afterEpisode: 3, value: 1 },
      { checkpointIndex: 1, afterEpisode: 6, value: null },
      { checkpointIndex: 3, afterEpisode: 12, value: null },
      { checkpointIndex: 4, afterEpisode: 15, value: 2 },
    ]);
    expect(series?.best).toEqual({ checkpointIndex: 4, afterEpisode: 15, value: 2 });
  });

  it("puts the rules' metrics first and takes the lowest value as the best when they minimise it", () => {
    const rules = parseTerminationConfig({
      agents: {
        a: {
          success: {
            metric: 'loss',
            threshold: 0.2,
            direction: 'less_equal',
            consecutive: 1,
            min_evaluations: 1,
          },
          plateau: {
            metric: 'cost',
            direction: 'minimize',
            min_delta: 0,
            patience: 1,
            min_evaluations: 1,
            window: 1,
          },
        },
      },
    });
    const [loss, cost, other] = metricSeries(
      [
        checkpoint(0, { metrics: { a: { other: 1, cost: 7, loss: 0.5 } } }),
        checkpoint(1, { metrics: { a: { loss: 0.3, cost: 4, other: 3 } } }),
        checkpoint(2, { metrics: { a: { loss: 0.4, cost: 6, other: 2 } } }),
      ],
      rules,
    );
    expect([loss?.metric, cost?.metric, other?.metric]).toEqual(['loss', 'cost', 'other']);
    expect(loss?.best?.value).toBe(0.3);
    expect(loss?.threshold).toEqual({ value: 0.2, direction: 'less_equal' });
    expect(cost?.best?.value).toBe(4);
    expect(cost?.threshold).toBeNull();
    expect(other?.best?.value).toBe(3);
  });

  it('has no best value when every value is missing', () => {
    const [series] = metricSeries([checkpoint(0, { metrics: { a: { score: null } } })], null);
    expect(series?.best).toBeNull();
  });

  it('marks a metric with one value at every checkpoint as constant, and no other', () => {
    const series = metricSeries(
      [
        checkpoint(0, { metrics: { a: { episodes: 1, score: 1, gap: 2 } } }),
        checkpoint(1, { metrics: { a: { episodes: 1, score: 2, gap: 'NaN' } } }),
        checkpoint(2, { metrics: { a: { episodes: 1, score: 1, gap: 2 } } }),
      ],
      null,
    );
    expect(series.map((entry) => [entry.metric, entry.constant])).toEqual([
      ['episodes', 1],
      ['score', null],
      ['gap', null],
    ]);
    const [single] = metricSeries([checkpoint(0, { metrics: { a: { episodes: 1 } } })], null);
    expect(single?.constant).toBeNull();
  });
});
