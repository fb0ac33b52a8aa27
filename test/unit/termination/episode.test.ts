import { describe, expect, it } from 'vitest';
import {
  applyEpisodeEnd,
  createTerminationState,
  markCancelled,
  markFailed,
  parseTerminationConfig,
} from '../../../src/domain/termination/index.js';
import { successRule } from '../../support/terminationRules.js';

const config = parseTerminationConfig({ agents: { SAC: { success: successRule() } } });
const fresh = createTerminationState(config);
const capped = { episodes: 10 };
const capFree = { episodes: null };

describe('applyEpisodeEnd', () => {
  it('continues while the environment runs and the cap is not reached', () => {
    const result = applyEpisodeEnd(fresh, capped, {
      mode: 'train',
      completedEpisodes: 3,
      environmentDone: false,
    });
    expect(result).toEqual({ state: fresh, decision: { control: 'CONTINUE', reason: null } });
  });

  it('restarts when the environment is done before the cap', () => {
    const result = applyEpisodeEnd(fresh, capped, {
      mode: 'train',
      completedEpisodes: 3,
      environmentDone: true,
    });
    expect(result.decision).toEqual({ control: 'RESTART', reason: null });
  });

  it('stops the phase with max_episodes when the cap is reached, and records it', () => {
    const result = applyEpisodeEnd(fresh, capped, {
      mode: 'train',
      completedEpisodes: 10,
      environmentDone: true,
    });
    expect(result.decision).toEqual({ control: 'STOP_PHASE', reason: 'max_episodes' });
    expect(result.state.terminationReason).toBe('max_episodes');
    expect(fresh.terminationReason).toBeNull();
  });

  it('never reaches max_episodes without a cap', () => {
    const result = applyEpisodeEnd(fresh, capFree, {
      mode: 'train',
      completedEpisodes: 10_000,
      environmentDone: true,
    });
    expect(result.decision).toEqual({ control: 'RESTART', reason: null });
    expect(
      applyEpisodeEnd(fresh, undefined, {
        mode: 'train',
        completedEpisodes: 5,
        environmentDone: false,
      }).decision.control,
    ).toBe('CONTINUE');
  });

  it('asks for RESTART when a cap-free evaluation episode ends', () => {
    const ended = applyEpisodeEnd(fresh, capFree, {
      mode: 'evaluate',
      completedEpisodes: 4,
      environmentDone: true,
    });
    expect(ended.decision).toEqual({ control: 'RESTART', reason: null });
    const running = applyEpisodeEnd(fresh, capFree, {
      mode: 'evaluate',
      completedEpisodes: 4,
      environmentDone: false,
    });
    expect(running.decision).toEqual({ control: 'CONTINUE', reason: null });
  });

  it('stops the phase with any terminal reason already set', () => {
    for (const state of [markCancelled(fresh), markFailed(fresh)]) {
      const result = applyEpisodeEnd(state, capFree, {
        mode: 'train',
        completedEpisodes: 1,
        environmentDone: false,
      });
      expect(result.decision).toEqual({ control: 'STOP_PHASE', reason: state.terminationReason });
    }
  });
});

describe('markCancelled and markFailed', () => {
  it('record cancelled and failed, and the first reason sticks', () => {
    expect(markCancelled(fresh).terminationReason).toBe('cancelled');
    expect(markFailed(fresh).terminationReason).toBe('failed');
    expect(markFailed(markCancelled(fresh)).terminationReason).toBe('cancelled');
    expect(fresh.terminationReason).toBeNull();
  });
});
