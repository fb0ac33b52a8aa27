import { describe, expect, it } from 'vitest';
import { CrossEntropyBrain } from '../../../src/builtins/brains/crossEntropyBrain.js';
import { BrainParamsError, BrainStateError } from '../../../src/builtins/brains/errors.js';
import { LinearPolicy } from '../../../src/builtins/brains/linearPolicy.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';
import type { AgentInterface, TurnContext } from '../../../src/ports/agent.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';

const logger = silentLogger();
const make = (params: JsonObject = {}) =>
  new CrossEntropyBrain({ name: 'op', params, seed: 11, logger });
const train: TurnContext = { mode: 'train', evaluation: false, phase: 'p', episode: 0, step: 0 };
const evaluation: TurnContext = { ...train, evaluation: true };
const agentInterface: AgentInterface = {
  sensors: [{ uid: 'x', space: { type: 'Box', low: -1, high: 1 } }],
  actuators: [{ uid: 'a', space: { type: 'Box', low: 0, high: 10 } }],
  readings: { x: 0 },
};

/** One-step episodes whose return is best when the action is 8. */
function playEpisode(brain: CrossEntropyBrain, context: TurnContext): number {
  const action = brain.act({ x: 0.5 }, context).a!;
  const episodeReturn = -Math.abs(action - 8);
  brain.endEpisode({ rewards: {}, episodeReturn, done: true }, context);
  return action;
}

describe('LinearPolicy', () => {
  it('maps normalised readings through weights and bias into the actuator space', () => {
    const policy = new LinearPolicy(agentInterface.sensors, agentInterface.actuators);
    expect(policy.parameterCount).toBe(2);
    expect(policy.act([0, 0], { x: 1 })).toEqual({ a: 5 });
    expect(policy.act([1, 0.2], { x: 0.5 })).toEqual({ a: 8.5 });
    expect(policy.act([10, 10], {})).toEqual({ a: 10 });
  });
});

describe('CrossEntropyBrain', () => {
  it('moves its mean policy towards the best return across generations', () => {
    const brain = make({ population: 10, elite_fraction: 0.2 });
    brain.setup(agentInterface);
    const before = brain.act({ x: 0.5 }, evaluation).a!;
    for (let episode = 0; episode < 200; episode++) playEpisode(brain, train);
    const after = brain.act({ x: 0.5 }, evaluation).a!;
    expect(Math.abs(after - 8)).toBeLessThan(0.5);
    expect(Math.abs(after - 8)).toBeLessThan(Math.abs(before - 8));
  });

  it('acts with the mean, and learns nothing, in evaluation episodes', () => {
    const brain = make();
    brain.setup(agentInterface);
    const mean = brain.meanParameters();
    for (let episode = 0; episode < 20; episode++) playEpisode(brain, evaluation);
    expect(brain.meanParameters()).toEqual(mean);
    expect(brain.evaluateRollouts().metrics).toEqual({ objective: -3, episodes: 20 });
  });

  it('resumes mid-generation exactly from saved state, loaded before or after setup', () => {
    const original = make({ population: 6 });
    original.setup(agentInterface);
    for (let episode = 0; episode < 9; episode++) playEpisode(original, train);
    playEpisode(original, evaluation);
    const saved = JSON.parse(JSON.stringify(original.saveState()));

    const loadedFirst = make({ population: 6 });
    loadedFirst.loadState(saved);
    loadedFirst.setup(agentInterface);
    const loadedAfter = make({ population: 6 });
    loadedAfter.setup(agentInterface);
    loadedAfter.loadState(saved);

    const continueRun = (brain: CrossEntropyBrain) => [
      ...Array.from({ length: 10 }, () => playEpisode(brain, train)),
      brain.evaluateRollouts(),
      brain.meanParameters(),
    ];
    const expected = continueRun(original);
    expect(continueRun(loadedFirst)).toEqual(expected);
    expect(continueRun(loadedAfter)).toEqual(expected);
  });

  it('keeps learning when set up again for a new phase with the same interface', () => {
    const brain = make({ population: 4 });
    brain.setup(agentInterface);
    for (let episode = 0; episode < 8; episode++) playEpisode(brain, train);
    const mean = brain.meanParameters();
    brain.setup(agentInterface);
    expect(brain.meanParameters()).toEqual(mean);
  });

  it('refuses state learned for other sensors or actuators, naming both', () => {
    const brain = make();
    brain.setup(agentInterface);
    const saved = brain.saveState();
    const other = make();
    other.setup({
      ...agentInterface,
      actuators: [{ uid: 'b', space: { type: 'Box', low: 0, high: 1 } }],
    });
    expect(() => other.loadState(saved)).toThrowError(
      /learned for actuators \[a\], but the agent is set up with \[b\]/,
    );
    expect(() => other.loadState({ version: 1 })).toThrowError(BrainStateError);
    expect(() => make({ population: 1 })).toThrowError(/CrossEntropyBrain params.population: /);
    expect(() => make({ populaton: 4 })).toThrowError(BrainParamsError);
  });
});
