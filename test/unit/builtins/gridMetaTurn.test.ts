import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { ConstantBrain } from '../../../src/builtins/brains/constantBrain.js';
import { DefaultMuscle } from '../../../src/builtins/brains/defaultMuscle.js';
import { MetaBanditBrain } from '../../../src/builtins/brains/metaBanditBrain.js';
import { GridEnvironment } from '../../../src/builtins/grid/gridEnvironment.js';
import { parseGridParams } from '../../../src/builtins/grid/scenario.js';
import { deepFreeze, type JsonObject } from '../../../src/domain/shared/json.js';
import { metaTurnMachine } from '../../../src/machines/metaTurn.js';
import type { MetaTurnOutput } from '../../../src/machines/metaTurnTypes.js';
import type { AgentInterface, Brain, TurnContext } from '../../../src/ports/agent.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';
import { workedExampleParams } from './gridScenarios.js';

const logger = silentLogger();
const definitionUid = (pointer: string) => `midas.definition.${pointer}`;
const hospital = definitionUid('/comdata_params/midasmv/active_mapping/3/0/1');
const hotel = definitionUid('/comdata_params/midasmv/active_mapping/4/0/1');
const pv = definitionUid('/der_params/midasmv/mapping/6/0/1');

const configuration: JsonObject = deepFreeze({
  scenario: { ...(workedExampleParams().scenario as JsonObject), step_size: 900, end: 86_400 },
  definition: { include: ['active_mapping', 'mapping/6'] },
});

/** The meta turn with its actors wired to a real GridEnvironment and a built-in brain. */
async function metaTurnWith(brain: Brain): Promise<MetaTurnOutput> {
  const muscle = new DefaultMuscle({ name: 'meta', params: {}, seed: 1, logger });
  let agentInterface: AgentInterface | null = null;
  const context: TurnContext = {
    mode: 'train',
    evaluation: false,
    phase: 'p',
    episode: 0,
    step: 0,
  };
  const machine = metaTurnMachine.provide({
    actors: {
      proposeDefinition: fromPromise(async ({ input }) =>
        new GridEnvironment({
          uid: input.environmentUid,
          params: input.configuration,
          keyOrder: {},
          seed: 1,
          logger,
        }).proposeDefinition(),
      ),
      setUpMetaAgent: fromPromise(async ({ input }) => {
        agentInterface = input.agentInterface;
        await brain.setup(input.agentInterface);
      }),
      actOnce: fromPromise(async ({ input }) =>
        muscle.act(await brain.act(input.readings, context), agentInterface!, context),
      ),
    },
  });
  const actor = createActor(machine, {
    input: {
      environmentUid: 'midas',
      environmentConfigurations: { midas: configuration },
      metaAgent: 'meta',
      phase: 'p',
      startRequest: 1,
      decidedAt: '2026-11-29T20:00:00.000Z',
    },
  });
  actor.subscribe({ error: () => {} });
  actor.start();
  return (await toPromise(actor)) as MetaTurnOutput;
}

describe('the worked example through the meta turn on GridEnvironment', () => {
  it('carries the documented definition action to the environment setup', async () => {
    const brain = new ConstantBrain({
      name: 'meta',
      params: { values: { [hospital]: 0.5, [hotel]: 1.0, [pv]: 2.4 } },
      seed: 1,
      logger,
    });
    const output = await metaTurnWith(brain);
    expect(output.error).toBeNull();
    expect(output.agentInterface?.readings).toEqual({
      [hospital]: 0.427,
      [hotel]: 0.913,
      [pv]: 2.2,
    });
    const override = output.override!.midas!;

    const model = parseGridParams(override);
    expect(model.loads.map((load) => [load.busId, load.profileName, load.peakMw])).toEqual([
      [3, 'Hospital', 0.5],
      [4, 'LargeHotel', 1.0],
    ]);
    expect(model.pvUnits.map((unit) => [unit.busId, unit.peakMw])).toEqual([[6, 2.4]]);

    const environment = new GridEnvironment({
      uid: 'midas',
      params: configuration,
      keyOrder: {},
      seed: 1,
      logger,
    });
    const { actuators } = environment.start(override);
    expect(actuators[1]).toEqual({
      uid: 'midas.pv_q.6',
      space: { type: 'Box', low: -0.72, high: 0.72 },
    });
    expect(parseGridParams(configuration).pvUnits[0]?.peakMw).toBe(2.2);
  });

  it('lets the meta bandit choose scale factors within the definition bounds', async () => {
    const brain = new MetaBanditBrain({
      name: 'meta',
      params: { factors: [3] },
      seed: 1,
      logger,
    });
    const output = await metaTurnWith(brain);
    expect(output.error).toBeNull();
    expect(output.decision?.candidate).toEqual({ [hospital]: 0.854, [hotel]: 1.826, [pv]: 4.4 });
  });
});
