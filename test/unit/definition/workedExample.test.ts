import { describe, expect, it } from 'vitest';
import { parseYamlWithKeyOrder } from '../../../src/config/orderedYaml.js';
import {
  buildDefinitionAgentInterface,
  DefinitionProvider,
  getAtPointer,
  proposeDefinition,
  subKeyOrder,
} from '../../../src/domain/definition/index.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';

// The fixture Train_meta-loop_simple_change.yml of the seed, as an environment's params.
const paramsYaml = `
scenario:
  comdata_params:
    midasmv:
      active_mapping:
        3: [[Hospital, 0.427]]
        4: [[LargeHotel, 0.913]]
  der_params:
    midasmv:
      mapping:
        6: [[PV, 2.2]]
`;

const uids = [
  'midas.definition./comdata_params/midasmv/active_mapping/3/0/1',
  'midas.definition./comdata_params/midasmv/active_mapping/4/0/1',
  'midas.definition./der_params/midasmv/mapping/6/0/1',
];

function workedExample() {
  const { value, keyOrder } = parseYamlWithKeyOrder(paramsYaml);
  const scenario = (value as JsonObject).scenario as JsonObject;
  const proposal = proposeDefinition('midas', scenario, {
    keyOrder: subKeyOrder(keyOrder, '/scenario'),
  });
  return { scenario, proposal, provider: new DefinitionProvider(proposal) };
}

describe('the worked example of the seed (nested numeric exposure)', () => {
  it('discovers exactly the three nested values, as sensors and actuators with the same UIDs', () => {
    const { proposal } = workedExample();
    expect(proposal.selectors.map((selector) => selector.uid)).toEqual(uids);
    expect(proposal.interface.sensors.map((sensor) => sensor.uid)).toEqual(uids);
    expect(proposal.interface.actuators.map((actuator) => actuator.uid)).toEqual(uids);
    expect(proposal.selectors.map((selector) => selector.source)).toEqual([
      'discovered',
      'discovered',
      'discovered',
    ]);
  });

  it('reads 0.427, 0.913 and 2.2 with bounds [0, 0.854], [0, 1.826] and [0, 4.4]', () => {
    const { scenario, provider } = workedExample();
    const agentInterface = buildDefinitionAgentInterface(
      provider.describe({ midas: scenario }),
      provider.vectorize({ midas: scenario }),
    );
    expect(agentInterface.readings).toEqual({
      [uids[0] as string]: 0.427,
      [uids[1] as string]: 0.913,
      [uids[2] as string]: 2.2,
    });
    expect(agentInterface.sensors.map((sensor) => sensor.space)).toEqual([
      { type: 'Box', low: 0, high: 0.854 },
      { type: 'Box', low: 0, high: 1.826 },
      { type: 'Box', low: 0, high: 4.4 },
    ]);
    expect(agentInterface.actuators).toEqual(agentInterface.sensors);
  });

  it('turns the actions 0.5, 1.0 and 2.4 into a patch at exactly those three paths', () => {
    const { scenario, provider } = workedExample();
    const patch = provider.proposePatch(
      { midas: scenario },
      { [uids[0] as string]: 0.5, [uids[1] as string]: 1.0, [uids[2] as string]: 2.4 },
    );
    expect(patch.operations).toEqual([
      { op: 'replace', path: '/comdata_params/midasmv/active_mapping/3/0/1', value: 0.5 },
      { op: 'replace', path: '/comdata_params/midasmv/active_mapping/4/0/1', value: 1.0 },
      { op: 'replace', path: '/der_params/midasmv/mapping/6/0/1', value: 2.4 },
    ]);
    expect(patch.environmentUid).toBe('midas');
    expect(patch.version).toBe(1);
  });

  it('validates into a candidate that changes nothing else (bus keys, profile names, original)', () => {
    const { scenario, provider } = workedExample();
    const original = structuredClone(scenario);
    const patch = provider.proposePatch(
      { midas: scenario },
      { [uids[0] as string]: 0.5, [uids[1] as string]: 1.0, [uids[2] as string]: 2.4 },
    );
    const candidate = provider.validate({ midas: scenario }, patch);
    expect(candidate.definition).toEqual({
      comdata_params: {
        midasmv: { active_mapping: { 3: [['Hospital', 0.5]], 4: [['LargeHotel', 1.0]] } },
      },
      der_params: { midasmv: { mapping: { 6: [['PV', 2.4]] } } },
    });
    expect(scenario).toEqual(original);
    expect(getAtPointer(scenario, '/der_params/midasmv/mapping/6/0/1')).toBe(2.2);
    expect(candidate.fingerprint).toEqual(provider.fingerprint);
    expect(candidate.provenance).toEqual({
      baseRevision: patch.baseRevision,
      patchHash: patch.hash,
      operationCount: 3,
    });
    expect(candidate.revision).not.toBe(patch.baseRevision);
    expect(Object.isFrozen(candidate.definition)).toBe(true);
  });
});
