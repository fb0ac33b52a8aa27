import { describe, expect, it } from 'vitest';
import { objectiveAt, type SweepObjective } from '../../../src/domain/sweep/index.js';

const operator: SweepObjective = {
  metric: 'objective',
  weights: { operator: 1 },
  direction: 'maximize',
};

const stored = [
  {
    agentName: 'operator',
    evaluationId: 'train:1',
    evaluationEpisode: 1,
    checkpointId: null,
    checkpointHash: null,
    metrics: { episodes: 1, objective: 6.62 },
  },
  { agentName: 'attacker', evaluationId: 'train:1', metrics: { objective: -2 } },
];

describe('objectiveAt', () => {
  it('reads one agent’s metric from a stored checkpoint’s outcomes', () => {
    expect(objectiveAt(stored, operator)).toBe(6.62);
  });

  it('sums the agents’ metric values by their weights', () => {
    const weighted: SweepObjective = { ...operator, weights: { operator: 0.5, attacker: 2 } };
    expect(objectiveAt(stored, weighted)).toBeCloseTo(0.5 * 6.62 - 4, 12);
  });

  it('reads another metric by name', () => {
    expect(objectiveAt(stored, { ...operator, metric: 'episodes' })).toBe(1);
  });

  it('is null when a weighted agent has no outcome, even with weight 0', () => {
    expect(objectiveAt(stored, { ...operator, weights: { operator: 1, defender: 0 } })).toBeNull();
  });

  it.each([
    ['a missing metric', [{ agentName: 'operator', metrics: { episodes: 1 } }]],
    ['a null metric', [{ agentName: 'operator', metrics: { objective: null } }]],
    ['a string metric', [{ agentName: 'operator', metrics: { objective: '6.6' } }]],
    ['an infinite metric', [{ agentName: 'operator', metrics: { objective: Infinity } }]],
    ['a NaN metric', [{ agentName: 'operator', metrics: { objective: Number.NaN } }]],
    ['metrics not a mapping', [{ agentName: 'operator', metrics: [6.6] }]],
    ['no metrics', [{ agentName: 'operator' }]],
    [
      'two outcomes for the agent',
      [
        { agentName: 'operator', metrics: { objective: 1 } },
        { agentName: 'operator', metrics: { objective: 2 } },
      ],
    ],
  ])('is null for %s', (_, outcomes) => {
    expect(objectiveAt(outcomes, operator)).toBeNull();
  });

  it.each([
    ['null', null],
    ['a string', '[{"agentName":"operator"}]'],
    ['a mapping', { operator: { objective: 1 } }],
    ['a list of non-objects', [1, 'operator', null]],
    ['undefined', undefined],
  ])('is null, never throws, for outcomes that are %s', (_, outcomes) => {
    expect(objectiveAt(outcomes, operator)).toBeNull();
  });

  it('is null for an objective without weights', () => {
    expect(objectiveAt(stored, { ...operator, weights: {} })).toBeNull();
  });

  it('is null when the weighted sum overflows', () => {
    const huge = [{ agentName: 'operator', metrics: { objective: 1e308 } }];
    expect(objectiveAt(huge, { ...operator, weights: { operator: 10 } })).toBeNull();
  });

  it('does not read a metric inherited from the prototype', () => {
    const outcomes = [{ agentName: 'operator', metrics: {} }];
    expect(objectiveAt(outcomes, { ...operator, metric: 'constructor' })).toBeNull();
  });
});
