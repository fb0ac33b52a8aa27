import { describe, expect, it } from 'vitest';
import { ConstantBrain } from '../../../src/builtins/brains/constantBrain.js';
import { DefaultMuscle } from '../../../src/builtins/brains/defaultMuscle.js';
import {
  BrainParamsError,
  BrainStateError,
  MuscleProposalError,
  ObjectiveRewardError,
} from '../../../src/builtins/brains/errors.js';
import { MetaBanditBrain } from '../../../src/builtins/brains/metaBanditBrain.js';
import { GridObjective, SumObjective } from '../../../src/builtins/brains/objectives.js';
import { RandomBrain } from '../../../src/builtins/brains/randomBrain.js';
import { builtinComponents } from '../../../src/builtins/index.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';
import { contains } from '../../../src/domain/shared/spaces.js';
import type { AgentInterface, BrainInit, TurnContext } from '../../../src/ports/agent.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';

const logger = silentLogger();
const init = (params: JsonObject = {}, seed = 5): BrainInit => ({
  name: 'agent',
  params,
  seed,
  logger,
});
const train: TurnContext = { mode: 'train', evaluation: false, phase: 'p', episode: 0, step: 0 };
const evaluation: TurnContext = { ...train, evaluation: true };

const agentInterface: AgentInterface = {
  sensors: [{ uid: 's', space: { type: 'Box', low: 0, high: 1 } }],
  actuators: [
    { uid: 'box', space: { type: 'Box', low: -2, high: 3 } },
    { uid: 'choice', space: { type: 'Discrete', n: 3, values: [1, 4, 9] } },
  ],
  readings: { s: 0.5 },
};

const definitionUid = 'midas.definition./der_params/midasmv/mapping/6/0/1';
const definitionInterface: AgentInterface = {
  sensors: [{ uid: definitionUid, space: { type: 'Box', low: 0, high: 4.4 } }],
  actuators: [{ uid: definitionUid, space: { type: 'Box', low: 0, high: 4.4 } }],
  readings: { [definitionUid]: 2.2 },
};

describe('RandomBrain', () => {
  it('acts uniformly inside every actuator space, the same for the same seed', () => {
    const actions = (seed: number) => {
      const brain = new RandomBrain(init({}, seed));
      brain.setup(agentInterface);
      return Array.from({ length: 50 }, () => brain.act({}, train));
    };
    for (const action of actions(1)) {
      expect(contains(agentInterface.actuators[0]!.space, action.box!)).toBe(true);
      expect([1, 4, 9]).toContain(action.choice);
    }
    expect(actions(1)).toEqual(actions(1));
    expect(actions(1)).not.toEqual(actions(2));
  });

  it('continues its random stream exactly after saveState and loadState', () => {
    const original = new RandomBrain(init());
    original.setup(agentInterface);
    original.act({}, train);
    const saved = JSON.parse(JSON.stringify(original.saveState()));
    const restored = new RandomBrain(init());
    restored.setup(agentInterface);
    restored.loadState(saved);
    expect(restored.act({}, train)).toEqual(original.act({}, train));
    expect(() => restored.loadState({ version: 2 })).toThrowError(
      /RandomBrain saved state.version/,
    );
  });

  it('reports the mean return of evaluation episodes only, once', () => {
    const brain = new RandomBrain(init());
    brain.setup(agentInterface);
    brain.endEpisode({ rewards: {}, episodeReturn: -100, done: true }, train);
    brain.endEpisode({ rewards: {}, episodeReturn: -3, done: true }, evaluation);
    brain.endEpisode({ rewards: {}, episodeReturn: -1, done: true }, { ...train, mode: 'test' });
    expect(brain.evaluateRollouts()).toEqual({ metrics: { objective: -2, episodes: 2 } });
    expect(brain.evaluateRollouts()).toEqual({ metrics: {} });
  });
});

describe('ConstantBrain', () => {
  it('acts with its values, the default elsewhere, clipped into each space', () => {
    const brain = new ConstantBrain(init({ values: { box: 7 }, default: 3 }));
    brain.setup(agentInterface);
    expect(brain.act({}, train)).toEqual({ box: 3, choice: 4 });
    const idle = new ConstantBrain(init());
    idle.setup(agentInterface);
    expect(idle.act({}, train)).toEqual({ box: 0, choice: 1 });
  });

  it('names an actuator its values mention that the agent does not have', () => {
    const brain = new ConstantBrain(init({ values: { nope: 1 } }));
    expect(() => brain.setup(agentInterface)).toThrowError(
      /ConstantBrain params.values: no actuator 'nope', expected one of box, choice/,
    );
    expect(() => new ConstantBrain(init({ default: 'x' }))).toThrowError(BrainParamsError);
  });
});

describe('DefaultMuscle', () => {
  const muscle = new DefaultMuscle(init());

  it('clips each proposal into its actuator space and drops unknown keys', () => {
    expect(muscle.act({ box: 10, choice: 5, extra: 1 }, agentInterface, train)).toEqual({
      box: 3,
      choice: 4,
    });
  });

  it('rejects a missing or non-finite proposal by actuator', () => {
    expect(() => muscle.act({ box: 1 }, agentInterface, train)).toThrowError(
      /no value for actuator 'choice'/,
    );
    expect(() => muscle.act({ box: Number.NaN, choice: 1 }, agentInterface, train)).toThrowError(
      MuscleProposalError,
    );
  });
});

describe('objectives', () => {
  it('SumObjective sums every reward and names a non-finite one', () => {
    const objective = new SumObjective({ params: {} });
    expect(objective.evaluate({ a: -1, b: 0.5 })).toBe(-0.5);
    expect(() => objective.evaluate({ a: Number.NaN })).toThrowError(ObjectiveRewardError);
  });

  it('GridObjective weights grid rewards by suffix, with overrides', () => {
    const rewards = {
      'midas.reward.voltage_violation': -0.01,
      'midas.reward.curtailed_energy': -0.2,
      'midas.reward.pv_energy': 3,
      other: 50,
    };
    expect(new GridObjective({ params: {} }).evaluate(rewards)).toBeCloseTo(-1.2, 12);
    const weighted = new GridObjective({ params: { weights: { pv_energy: 1 } } });
    expect(weighted.evaluate(rewards)).toBeCloseTo(1.8, 12);
    expect(() => new GridObjective({ params: { weights: { typo: 1 } } })).toThrowError(
      /GridObjective params.weights/,
    );
  });
});

describe('MetaBanditBrain', () => {
  const episodeEnd = (brain: MetaBanditBrain, value: number) =>
    brain.endEpisode({ rewards: { '.return': value }, episodeReturn: 0, done: true }, train);

  it('tries every factor once, then exploits the one with the best .return', () => {
    const brain = new MetaBanditBrain(init({ factors: [0.5, 1, 2], epsilon: 0 }));
    brain.setup(definitionInterface);
    const chosen: number[] = [];
    for (let request = 0; request < 6; request++) {
      const value = brain.act(definitionInterface.readings, train)[definitionUid]!;
      chosen.push(value);
      // The world rewards a PV peak near 2.2 MW best.
      episodeEnd(brain, -Math.abs(value - 2.2));
      episodeEnd(brain, -Math.abs(value - 2.2));
    }
    expect(chosen).toEqual([1.1, 2.2, 4.4, 2.2, 2.2, 2.2]);
    expect(brain.armStatistics()[1]).toEqual({ factor: 1, pulls: 8, meanReturn: 0 });
  });

  it('stays within the actuator bounds and acts greedily in evaluation', () => {
    const brain = new MetaBanditBrain(init({ factors: [3] }));
    brain.setup(definitionInterface);
    expect(brain.act(definitionInterface.readings, evaluation)).toEqual({ [definitionUid]: 4.4 });
  });

  it('resumes its statistics and pending arm through saveState and loadState', () => {
    const brain = new MetaBanditBrain(init({ factors: [0.5, 1] }));
    brain.setup(definitionInterface);
    brain.act(definitionInterface.readings, train);
    const restored = new MetaBanditBrain(init({ factors: [0.5, 1] }));
    restored.setup(definitionInterface);
    restored.loadState(JSON.parse(JSON.stringify(brain.saveState())));
    episodeEnd(restored, -4);
    expect(restored.armStatistics()[0]).toEqual({ factor: 0.5, pulls: 1, meanReturn: -4 });
    const other = new MetaBanditBrain(init({ factors: [1] }));
    expect(() => other.loadState(brain.saveState())).toThrowError(BrainStateError);
  });
});

describe('builtinComponents', () => {
  it('maps every built-in name to a factory of its port', () => {
    const methods: Record<string, string[]> = {
      'arena:GridEnvironment': ['proposeDefinition', 'start', 'step', 'reset', 'close'],
      'arena:RandomBrain': ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts'],
      'arena:ConstantBrain': ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts'],
      'arena:CrossEntropyBrain': ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts'],
      'arena:MetaBanditBrain': ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts'],
      'arena:DefaultMuscle': ['act'],
      'arena:SumObjective': ['evaluate'],
      'arena:GridObjective': ['evaluate'],
    };
    // the controller and the termination conditions are registered too, but not constructed
    const readByTheRunner = [
      'arena:AgentEvaluationObjectiveTerminationCondition',
      'arena:MaxEpisodesTerminationCondition',
      'arena:ScriptedSimulationController',
      'arena:VanillaSimControllerTerminationCondition',
    ];
    expect([...builtinComponents.keys()].sort()).toEqual(
      [...Object.keys(methods), ...readByTheRunner].sort(),
    );
    for (const [name, required] of Object.entries(methods)) {
      const factory = builtinComponents.get(name) as (init: unknown) => Record<string, unknown>;
      const instance = factory({ ...init(), uid: 'g', keyOrder: {} });
      for (const method of required) expect(typeof instance[method]).toBe('function');
    }
  });
});
