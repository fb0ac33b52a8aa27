import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { proposeDefinition } from '../../../src/domain/definition/proposeDefinition.js';
import type { ProposedDefinition } from '../../../src/domain/definition/types.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';
import { metaTurnMachine } from '../../../src/machines/metaTurn.js';
import type {
  MetaAgentInterface,
  MetaTurnInput,
  MetaTurnOutput,
} from '../../../src/machines/metaTurnTypes.js';

const scenario: JsonObject = {
  comdata_params: {
    midasmv: { active_mapping: { '3': [['Hospital', 0.427]], '4': [['LargeHotel', 0.913]] } },
  },
  der_params: { midasmv: { mapping: { '6': [['PV', 2.2]] } } },
};

const configuration: JsonObject = { scenario, step_size: 900 };

const baseInput: MetaTurnInput = {
  environmentUid: 'midas',
  environmentConfigurations: { midas: configuration },
  metaAgent: 'meta_agent',
  phase: 'train',
  startRequest: 1,
  decidedAt: '2026-11-29T20:00:00.000Z',
};

const uid = (suffix: string) => `midas.definition.${suffix}`;
const hospital = uid('/comdata_params/midasmv/active_mapping/3/0/1');
const hotel = uid('/comdata_params/midasmv/active_mapping/4/0/1');
const pv = uid('/der_params/midasmv/mapping/6/0/1');

interface Fakes {
  proposal?: () => ProposedDefinition | null;
  setUp?: (agentInterface: MetaAgentInterface) => void;
  act?: () => Record<string, number>;
}

async function runTurn(fakes: Fakes = {}, input: MetaTurnInput = baseInput) {
  const calls: string[] = [];
  const machine = metaTurnMachine.provide({
    actors: {
      proposeDefinition: fromPromise(async () => {
        calls.push('proposeDefinition');
        return fakes.proposal ? fakes.proposal() : proposeDefinition('midas', scenario);
      }),
      setUpMetaAgent: fromPromise(async ({ input: setUpInput }) => {
        calls.push('setUpMetaAgent');
        fakes.setUp?.(setUpInput.agentInterface);
      }),
      actOnce: fromPromise(async () => {
        calls.push('actOnce');
        return fakes.act ? fakes.act() : { [hospital]: 0.5, [hotel]: 1.0, [pv]: 2.4 };
      }),
    },
  });
  const actor = createActor(machine, { input });
  const states: string[] = [];
  actor.subscribe({
    next: (snapshot) => states.push(JSON.stringify(snapshot.value)),
    error: () => {},
  });
  actor.start();
  const output = (await toPromise(actor)) as MetaTurnOutput;
  return { output, calls, states };
}

describe('metaTurnMachine', () => {
  it('walks the seed steps in order and derives the override from the candidate', async () => {
    let setUpWith: MetaAgentInterface | null = null;
    const { output, calls } = await runTurn({
      setUp: (agentInterface) => (setUpWith = agentInterface),
    });
    expect(output.status).toBe('done');
    expect(calls).toEqual(['proposeDefinition', 'setUpMetaAgent', 'actOnce']);
    expect(setUpWith).not.toBeNull();
    expect((setUpWith as unknown as MetaAgentInterface).readings).toEqual({
      [hospital]: 0.427,
      [hotel]: 0.913,
      [pv]: 2.2,
    });
    const override = output.override?.midas as JsonObject;
    expect(override.step_size).toBe(900);
    expect(override.scenario).toEqual({
      comdata_params: {
        midasmv: { active_mapping: { '3': [['Hospital', 0.5]], '4': [['LargeHotel', 1.0]] } },
      },
      der_params: { midasmv: { mapping: { '6': [['PV', 2.4]] } } },
    });
    expect(output.decision?.baseline).toEqual({ [hospital]: 0.427, [hotel]: 0.913, [pv]: 2.2 });
    expect(output.decision?.candidate).toEqual({ [hospital]: 0.5, [hotel]: 1.0, [pv]: 2.4 });
    expect(output.decision?.record.agentName).toBe('meta_agent');
    expect(output.decision?.record.toRevision).toBe(output.candidate?.revision);
  });

  it('never writes back the stored configuration', async () => {
    const stored = structuredClone(configuration);
    await runTurn({}, { ...baseInput, environmentConfigurations: { midas: stored } });
    expect(stored).toEqual(configuration);
  });

  it('validates an empty action map into an unchanged candidate', async () => {
    const { output } = await runTurn({ act: () => ({}) });
    expect(output.status).toBe('done');
    expect(output.override?.midas).toEqual(configuration);
    expect(output.decision?.patch.operations).toEqual([]);
  });

  const failures: [string, Fakes, Partial<MetaTurnInput>, RegExp][] = [
    ['derivingCanonicalDefinition', {}, { environmentConfigurations: {} }, /no configuration/],
    [
      'loadingDefinitionEnvironment',
      {
        proposal: () => {
          throw new Error('scenario file missing');
        },
      },
      {},
      /scenario file missing/,
    ],
    ['verifyingProposal', { proposal: () => null }, {}, /proposed no definition/],
    [
      'verifyingProposal',
      { proposal: () => proposeDefinition('other', scenario) },
      {},
      /expected "midas"/,
    ],
    [
      'verifyingProposal',
      { proposal: () => proposeDefinition('midas', { other: 1 }) },
      {},
      /not the inline scenario/,
    ],
    ['resolvingMetaAgent', {}, { metaAgent: '' }, /names no meta agent/],
    [
      'settingUpMetaAgent',
      {
        setUp: () => {
          throw new Error('brain refused the interface');
        },
      },
      {},
      /brain refused/,
    ],
    [
      'acting',
      {
        act: () => {
          throw new Error('policy crashed');
        },
      },
      {},
      /policy crashed/,
    ],
    ['mappingActions', { act: () => ({ 'midas.x': 1 }) }, {}, /not a definition actuator/],
    ['proposingPatch', { act: () => ({ [pv]: 99 }) }, {}, new RegExp(pv.replace(/[./]/g, '\\$&'))],
    ['proposingPatch', { act: () => ({ [pv]: Number.NaN }) }, {}, /./],
  ];

  for (const [step, fakes, input, message] of failures) {
    it(`fails at ${step} with the step's name and no override (${message.source.slice(0, 30)})`, async () => {
      const { output, calls } = await runTurn(fakes, { ...baseInput, ...input });
      expect(output.status).toBe('failed');
      expect(output.failedStep).toBe(step);
      expect(output.error?.message).toMatch(message);
      expect(output.override).toBeNull();
      expect(calls.filter((call) => call === 'actOnce').length).toBeLessThanOrEqual(1);
    });
  }
});
