import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { CrossEntropyBrain } from '../../src/builtins/brains/crossEntropyBrain.js';
import { MetaBanditBrain } from '../../src/builtins/brains/metaBanditBrain.js';
import { RandomBrain } from '../../src/builtins/brains/randomBrain.js';
import { contains, type Space } from '../../src/domain/shared/spaces.js';
import type { AgentInterface, Brain, BrainInit, TurnContext } from '../../src/ports/agent.js';
import { silentLogger } from '../../src/ports/runtime/logger.js';

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const box = fc
  .tuple(finite, finite)
  .map(([a, b]): Space => ({ type: 'Box', low: Math.min(a, b), high: Math.max(a, b) }));
const discrete = fc
  .uniqueArray(finite, { minLength: 1, maxLength: 5 })
  .map((values): Space => ({ type: 'Discrete', n: values.length, values }));
const space = fc.oneof(box, discrete);
const channels = (prefix: string) =>
  fc
    .array(space, { minLength: 1, maxLength: 4 })
    .map((spaces) => spaces.map((item, index) => ({ uid: `${prefix}${index}`, space: item })));

const brains: Record<string, (init: BrainInit) => Brain> = {
  RandomBrain: (init) => new RandomBrain(init),
  CrossEntropyBrain: (init) => new CrossEntropyBrain({ ...init, params: { population: 3 } }),
  MetaBanditBrain: (init) => new MetaBanditBrain(init),
};

describe('built-in brain properties', () => {
  test.prop(
    [
      fc.constantFrom(...Object.keys(brains)),
      channels('s'),
      channels('a'),
      fc.array(fc.tuple(fc.boolean(), finite), { minLength: 1, maxLength: 12 }),
      fc.nat(),
    ],
    { numRuns: 150 },
  )(
    'every action lies in its actuator space, and saved state resumes to the same actions',
    async (name, sensors, actuators, episodes, seed) => {
      const agentInterface: AgentInterface = {
        sensors,
        actuators,
        readings: Object.fromEntries(sensors.map((sensor) => [sensor.uid, 0])),
      };
      const make = () => {
        const brain = brains[name]!({ name: 'b', params: {}, seed, logger: silentLogger() });
        brain.setup(agentInterface);
        return brain;
      };
      const brain = make();
      const play = async (target: Brain, evaluation: boolean, episodeReturn: number) => {
        const context: TurnContext = { mode: 'train', evaluation, phase: 'p', episode: 0, step: 0 };
        const actions = await target.act(agentInterface.readings, context);
        await target.endEpisode({ rewards: {}, episodeReturn, done: true }, context);
        return actions;
      };
      const half = Math.ceil(episodes.length / 2);
      for (const [evaluation, episodeReturn] of episodes.slice(0, half)) {
        const actions = await play(brain, evaluation, episodeReturn);
        expect(Object.keys(actions).sort()).toEqual(actuators.map((item) => item.uid).sort());
        for (const actuator of actuators) {
          expect(contains(actuator.space, actions[actuator.uid]!)).toBe(true);
        }
      }
      const resumed = make();
      resumed.loadState?.(JSON.parse(JSON.stringify(brain.saveState?.())));
      for (const [evaluation, episodeReturn] of episodes.slice(half)) {
        expect(await play(resumed, evaluation, episodeReturn)).toEqual(
          await play(brain, evaluation, episodeReturn),
        );
      }
      expect(await resumed.evaluateRollouts()).toEqual(await brain.evaluateRollouts());
    },
  );
});
