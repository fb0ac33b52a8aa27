import { describe, expect, it } from 'vitest';
import {
  buildDefinitionAgentInterface,
  DefinitionBridgeError,
  DefinitionProvider,
  proposeDefinition,
} from '../../../src/domain/definition/index.js';
import type { AgentInterface } from '../../../src/ports/agent.js';

const provider = new DefinitionProvider(proposeDefinition('grid', { load: 2, pv: 0 }));
const map = { grid: provider.proposal.scenario };
const iface = provider.describe(map);
const vector = provider.vectorize(map);

describe('buildDefinitionAgentInterface', () => {
  it('gives aligned sensors, actuators and readings keyed by UID', () => {
    expect(buildDefinitionAgentInterface(iface, vector)).toEqual({
      sensors: [
        { uid: 'grid.definition.load', space: { type: 'Box', low: 0, high: 4 } },
        { uid: 'grid.definition.pv', space: { type: 'Box', low: 0, high: 1 } },
      ],
      actuators: [
        { uid: 'grid.definition.load', space: { type: 'Box', low: 0, high: 4 } },
        { uid: 'grid.definition.pv', space: { type: 'Box', low: 0, high: 1 } },
      ],
      readings: { 'grid.definition.load': 2, 'grid.definition.pv': 0 },
    });
  });

  it('is what the agent port takes (type-checked assignment)', () => {
    const agentInterface: AgentInterface = buildDefinitionAgentInterface(iface, vector);
    expect(agentInterface.readings['grid.definition.load']).toBe(2);
  });

  it('gives an empty interface for an empty proposal', () => {
    const empty = new DefinitionProvider(proposeDefinition('grid', {}));
    expect(
      buildDefinitionAgentInterface(empty.proposal.interface, empty.vectorize({ grid: {} })),
    ).toEqual({ sensors: [], actuators: [], readings: {} });
  });

  it('rejects sensors and actuators with different UIDs or counts', () => {
    const swapped = { ...iface, actuators: [...iface.actuators].reverse() };
    expect(() => buildDefinitionAgentInterface(swapped, vector)).toThrowError(
      /position 0: sensor "grid.definition.load" and actuator "grid.definition.pv"/,
    );
    const short = { ...iface, actuators: iface.actuators.slice(1) };
    expect(() => buildDefinitionAgentInterface(short, vector)).toThrowError(DefinitionBridgeError);
  });

  it('rejects a vector that is out of order, short or not finite', () => {
    const reordered = { uids: [...vector.uids].reverse(), values: [...vector.values].reverse() };
    expect(() => buildDefinitionAgentInterface(iface, reordered)).toThrowError(
      /position 0: the vector holds "grid.definition.pv" where sensor "grid.definition.load" is/,
    );
    expect(() =>
      buildDefinitionAgentInterface(iface, { uids: vector.uids, values: [2] }),
    ).toThrowError(/2 UIDs and 1 values for 2 sensors/);
    expect(() =>
      buildDefinitionAgentInterface(iface, { uids: vector.uids, values: [2, Number.NaN] }),
    ).toThrowError(/reading of "grid.definition.pv" must be a finite number/);
  });

  it('rejects a UID that appears twice', () => {
    const sensor = iface.sensors[0];
    if (sensor === undefined) throw new Error('fixture has a sensor');
    const doubled = { ...iface, sensors: [sensor, sensor], actuators: [sensor, sensor] };
    const twice = { uids: [sensor.uid, sensor.uid], values: [1, 1] };
    expect(() => buildDefinitionAgentInterface(doubled, twice)).toThrowError(/appears twice/);
  });
});
