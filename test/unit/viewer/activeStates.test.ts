import { describe, expect, it } from 'vitest';
import { stateLabel } from '../../../src/actors/inspection/traceTimeline.js';
import type { JsonValue } from '../../../src/domain/shared/json.js';
import {
  activePaths,
  type DrawnEdge,
  takenEdge,
  valueLabel,
} from '../../../src/viewer/activeStates.js';

describe('activePaths', () => {
  it('lists every state on the way to each active leaf, parents first', () => {
    expect(activePaths('idle')).toEqual(['idle']);
    expect(activePaths({ running: 'acting' })).toEqual(['running', 'running.acting']);
    expect(activePaths({ p: { left: 'a', right: { deep: 'b' } } })).toEqual([
      'p',
      'p.left',
      'p.left.a',
      'p.right',
      'p.right.deep',
      'p.right.deep.b',
    ]);
    expect(activePaths(null)).toEqual([]);
  });

  it('labels a value exactly as arena trace does', () => {
    const values: JsonValue[] = [{ running: 'acting' }, { p: { a: 'x', b: 'y' } }, 'idle', null];
    for (const value of values) {
      for (const status of ['active', 'done']) {
        expect(valueLabel(value, status)).toBe(stateLabel({ value, status, error: null }));
      }
    }
    expect(valueLabel({ running: 'acting' }, 'active')).toBe('running.acting');
    expect(valueLabel(null, 'done')).toBe('done');
  });
});

describe('takenEdge', () => {
  const edges: DrawnEdge[] = [
    { owner: 'idle', index: 0, source: 'idle', target: 'running', eventType: 'start' },
    { owner: 'running', index: 0, source: 'running', target: 'idle', eventType: 'stop' },
    {
      owner: 'running.a',
      index: 0,
      source: 'running.a',
      target: 'running.b',
      eventType: 'next',
    },
    { owner: 'running', index: 1, source: 'running', target: 'running.b', eventType: 'next' },
    { owner: 'checking', index: 0, source: 'checking', target: 'done', eventType: '' },
  ];

  it('finds the arrow whose source was active and whose target is active, for the event', () => {
    expect(takenEdge(edges, ['idle'], ['running', 'running.a'], 'start')).toMatchObject({
      source: 'idle',
      target: 'running',
    });
  });

  it('prefers the deepest source when a child and its parent both answer the event', () => {
    expect(
      takenEdge(edges, ['running', 'running.a'], ['running', 'running.b'], 'next'),
    ).toMatchObject({ source: 'running.a' });
  });

  it('falls back to an eventless arrow reached after the event', () => {
    expect(takenEdge(edges, ['checking'], ['done'], 'verdict')).toMatchObject({
      source: 'checking',
      target: 'done',
    });
  });

  it('names the eventless arrow out of a state the event passed through', () => {
    const passing: DrawnEdge[] = [
      { owner: 'waiting', index: 0, source: 'waiting', target: 'resting', eventType: 'flow' },
      { owner: 'resting', index: 0, source: 'resting', target: 'paused', eventType: '' },
      { owner: 'resting', index: 1, source: 'resting', target: 'going', eventType: '' },
    ];
    expect(takenEdge(passing, ['waiting'], ['paused'], 'flow')).toMatchObject({
      source: 'resting',
      target: 'paused',
    });
  });

  it('names no arrow for the first snapshot or a change no arrow explains', () => {
    expect(takenEdge(edges, [], ['idle'], 'xstate.init')).toBeNull();
    expect(takenEdge(edges, ['idle'], ['idle'], 'start')).toBeNull();
  });
});
