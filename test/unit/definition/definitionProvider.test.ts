import { describe, expect, it } from 'vitest';
import type { DeclarativePatch } from '../../../src/domain/definition/index.js';
import {
  createDeclarativePatch,
  createDefinitionProvider,
  DefinitionFingerprintError,
  DefinitionPatchError,
  DefinitionProvider,
  DefinitionValidationError,
  proposeDefinition,
  scenarioRevision,
} from '../../../src/domain/definition/index.js';
import type { JsonObject } from '../../../src/domain/shared/json.js';

const scenario: JsonObject = {
  load: 2,
  pv: { scale: 0.5, profile: 'PV' },
  steps: 4,
  buses: [1, 2],
};

function setup(definition?: unknown) {
  const provider = new DefinitionProvider(proposeDefinition('grid', scenario, { definition }));
  return { provider, map: { grid: provider.proposal.scenario } };
}

describe('createDefinitionProvider', () => {
  it('builds the same provider as the class', () => {
    const proposal = proposeDefinition('grid', scenario);
    const provider = createDefinitionProvider(proposal);
    expect(provider).toBeInstanceOf(DefinitionProvider);
    expect(provider.fingerprint).toEqual(new DefinitionProvider(proposal).fingerprint);
  });
});

describe('DefinitionProvider.describe and vectorize', () => {
  it('describes the proposal interface for the proposal definition', () => {
    const { provider, map } = setup();
    expect(provider.describe(map)).toEqual(provider.proposal.interface);
  });

  it('vectorizes all selectors in interface order, or the requested ones', () => {
    const { provider, map } = setup();
    expect(provider.vectorize(map)).toEqual({
      uids: [
        'grid.definition.load',
        'grid.definition.scale',
        'grid.definition.steps',
        'grid.definition./buses/0',
        'grid.definition./buses/1',
      ],
      values: [2, 0.5, 4, 1, 2],
    });
    expect(provider.vectorize(map, ['grid.definition.steps', 'grid.definition.load'])).toEqual({
      uids: ['grid.definition.steps', 'grid.definition.load'],
      values: [4, 2],
    });
  });

  it('rejects unknown or repeated selectors, and a map without the environment', () => {
    const { provider, map } = setup();
    expect(() => provider.vectorize(map, ['grid.definition.nope'])).toThrowError(
      /selector "grid.definition.nope" is not in the definition interface of "grid"/,
    );
    expect(() =>
      provider.vectorize(map, ['grid.definition.load', 'grid.definition.load']),
    ).toThrowError(/requested twice/);
    expect(() => provider.vectorize({ other: scenario })).toThrowError(
      /no scenario for "grid" \(it has "other"\)/,
    );
  });

  it('names the selector when its value is missing from the definition', () => {
    const { provider } = setup();
    expect(() => provider.vectorize({ grid: { ...scenario, load: 'high' } })).toThrowError(
      /selector "grid.definition.load": expected a finite number at "\/load", got "high"/,
    );
  });
});

describe('DefinitionProvider.proposePatch', () => {
  it('gives an empty patch for an empty action map, which validates to the baseline', () => {
    const { provider, map } = setup();
    const patch = provider.proposePatch(map, {});
    expect(patch.operations).toEqual([]);
    expect(patch.baseRevision).toBe(scenarioRevision(scenario));
    const candidate = provider.validate(map, patch);
    expect(candidate.definition).toEqual(scenario);
    expect(candidate.revision).toBe(patch.baseRevision);
    expect(candidate.provenance).toEqual({
      baseRevision: patch.baseRevision,
      patchHash: patch.hash,
      operationCount: 0,
    });
  });

  it('patches only the given UIDs, skips unchanged values, and follows interface order', () => {
    const { provider, map } = setup();
    const patch = provider.proposePatch(map, {
      'grid.definition./buses/1': 3,
      'grid.definition.steps': 4,
      'grid.definition.load': 1,
    });
    expect(patch.operations).toEqual([
      { op: 'replace', path: '/load', value: 1 },
      { op: 'replace', path: '/buses/1', value: 3 },
    ]);
  });

  it('gives the same hash for the same actions in any key order', () => {
    const { provider, map } = setup();
    const one = provider.proposePatch(map, {
      'grid.definition.load': 1,
      'grid.definition.steps': 5,
    });
    const two = provider.proposePatch(map, {
      'grid.definition.steps': 5,
      'grid.definition.load': 1,
    });
    expect(one.hash).toBe(two.hash);
    expect(one.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    [
      { 'grid.definition.nope': 1 },
      /actuator "grid.definition.nope" is not in the definition interface/,
    ],
    [
      { 'grid.definition.load': Number.NaN },
      /"grid.definition.load" needs a finite number, got NaN/,
    ],
    [
      { 'grid.definition.load': undefined as unknown as number },
      /"grid.definition.load" needs a finite number, got no value/,
    ],
    [{ 'grid.definition.load': 4.5 }, /"grid.definition.load": 4.5 is not in Box\[0, 4\]/],
    [{ 'grid.definition.load': -0.1 }, /is not in Box\[0, 4\]/],
  ])('rejects %j with DefinitionPatchError naming the UID', (actions, message) => {
    const { provider, map } = setup();
    expect(() => provider.proposePatch(map, actions)).toThrowError(DefinitionPatchError);
    expect(() => provider.proposePatch(map, actions)).toThrowError(message);
  });

  it('accepts a Discrete value only when it is one of the values', () => {
    const { provider, map } = setup({
      selector_manifest: [{ pointer: '/steps', values: [2, 4, 8] }],
    });
    expect(provider.proposePatch(map, { 'grid.definition.steps': 8 }).operations).toEqual([
      { op: 'replace', path: '/steps', value: 8 },
    ]);
    expect(() => provider.proposePatch(map, { 'grid.definition.steps': 1 })).toThrowError(
      /"grid.definition.steps": 1 is not in Discrete\{2, 4, 8\}/,
    );
  });
});

describe('DefinitionProvider.validate', () => {
  it('validates the baseline without a patch', () => {
    const { provider, map } = setup();
    const baseline = provider.validate(map);
    expect(baseline.definition).toBe(map.grid);
    expect(baseline.fingerprint).toEqual(provider.fingerprint);
    expect(baseline.revision).toBe(scenarioRevision(scenario));
    expect(baseline.provenance.patchHash).toBeNull();
  });

  it('validates a mutable, unfrozen definition without freezing the caller object', () => {
    const { provider } = setup();
    const mine = structuredClone(scenario);
    provider.validate({ grid: mine });
    expect(Object.isFrozen(mine)).toBe(false);
  });

  it('rejects a patch whose content no longer matches its hash', () => {
    const { provider, map } = setup();
    const patch = provider.proposePatch(map, { 'grid.definition.load': 1 });
    const tampered = {
      ...patch,
      operations: [{ op: 'replace', path: '/load', value: 3 }],
    } as DeclarativePatch;
    expect(() => provider.validate(map, tampered)).toThrowError(/patch.hash: .* does not match/);
  });

  it('rejects a stale patch made for another revision', () => {
    const { provider, map } = setup();
    const patch = provider.proposePatch(map, { 'grid.definition.load': 1 });
    const moved = { grid: { ...scenario, load: 3 } };
    expect(() => provider.validate(moved, patch)).toThrowError(/stale patch/);
  });

  it('rejects a patch for another environment', () => {
    const { provider, map } = setup();
    const patch = createDeclarativePatch({
      environmentUid: 'other',
      baseRevision: scenarioRevision(scenario),
      operations: [],
    });
    expect(() => provider.validate(map, patch)).toThrowError(/the patch is for "other"/);
  });

  it('rejects a replace without a target', () => {
    const { provider, map } = setup();
    const patch = createDeclarativePatch({
      environmentUid: 'grid',
      baseRevision: scenarioRevision(scenario),
      operations: [{ op: 'replace', path: '/pv/unknown', value: 1 }],
    });
    expect(() => provider.validate(map, patch)).toThrowError(
      /nothing to replace at "\/pv\/unknown"/,
    );
  });

  it.each([
    [
      'adds a numeric leaf',
      '/pv',
      { scale: 0.5, profile: 'PV', extra: 1 },
      /"grid.definition.extra" at "\/pv\/extra" is new/,
    ],
    [
      'removes a numeric leaf',
      '/buses',
      [1],
      /"grid.definition.\/buses\/1" at "\/buses\/1" is gone/,
    ],
    [
      'renames a numeric leaf',
      '/pv',
      { factor: 0.5, profile: 'PV' },
      /"grid.definition.scale" at "\/pv\/scale" is gone/,
    ],
    ['turns a number into text', '/load', 'two', /"grid.definition.load" at "\/load" is gone/],
  ])('rejects a patch that %s with DefinitionFingerprintError', (_what, path, value, message) => {
    const { provider, map } = setup();
    const patch = createDeclarativePatch({
      environmentUid: 'grid',
      baseRevision: scenarioRevision(scenario),
      operations: [{ op: 'replace', path, value }],
    });
    expect(() => provider.validate(map, patch)).toThrowError(DefinitionFingerprintError);
    expect(() => provider.validate(map, patch)).toThrowError(message);
  });

  it('accepts a hand-made patch that keeps the interface, and changes only its path', () => {
    const { provider, map } = setup();
    const patch = createDeclarativePatch({
      environmentUid: 'grid',
      baseRevision: scenarioRevision(scenario),
      operations: [{ op: 'replace', path: '/pv/profile', value: 'PV2' }],
    });
    const candidate = provider.validate(map, patch);
    expect(candidate.definition).toEqual({ ...scenario, pv: { scale: 0.5, profile: 'PV2' } });
    expect(candidate.definition.buses).toBe(map.grid.buses);
  });

  it('rejects a hand-made patch that puts a selector outside its anchored space', () => {
    const { provider, map } = setup();
    const patch = createDeclarativePatch({
      environmentUid: 'grid',
      baseRevision: scenarioRevision(scenario),
      operations: [{ op: 'replace', path: '/load', value: 100 }],
    });
    expect(() => provider.validate(map, patch)).toThrowError(DefinitionValidationError);
    expect(() => provider.validate(map, patch)).toThrowError(
      /selector "grid.definition.load" at "\/load": 100 is not in Box\[0, 4\]/,
    );
  });

  it('keeps the spaces of the proposal after a value changes (the interface does not move)', () => {
    const { provider, map } = setup();
    const patch = provider.proposePatch(map, { 'grid.definition.load': 3.5 });
    const candidate = provider.validate(map, patch);
    expect(provider.describe({ grid: candidate.definition })).toEqual(provider.proposal.interface);
  });
});

describe('DefinitionProvider.interfaceFingerprint', () => {
  it('is stable and sensitive to descriptor order', () => {
    const { provider } = setup();
    const iface = provider.proposal.interface;
    const reversed = { ...iface, sensors: [...iface.sensors].reverse() };
    expect(provider.interfaceFingerprint(iface)).toEqual(provider.fingerprint);
    expect(provider.interfaceFingerprint(reversed).value).not.toBe(provider.fingerprint.value);
    expect(provider.fingerprint.algorithm).toBe('sha256');
  });

  it('refuses a proposal whose sensors and actuators do not align', () => {
    const proposal = proposeDefinition('grid', scenario);
    const broken = {
      ...proposal,
      interface: { ...proposal.interface, actuators: proposal.interface.actuators.slice(1) },
    };
    expect(() => new DefinitionProvider(broken)).toThrowError(/do not align/);
  });

  it('refuses a proposal that declares a selector twice', () => {
    const proposal = proposeDefinition('grid', scenario);
    const first = proposal.interface.sensors[0];
    if (first === undefined) throw new Error('fixture has a selector');
    const doubled = { ...proposal.interface, sensors: [first, first], actuators: [first, first] };
    expect(() => new DefinitionProvider({ ...proposal, interface: doubled })).toThrowError(
      /declares the selector "grid.definition.load" twice/,
    );
  });

  it('refuses a proposal that carries the interface of another environment', () => {
    const proposal = proposeDefinition('grid', scenario);
    const foreign = { ...proposal, interface: { ...proposal.interface, environmentUid: 'other' } };
    expect(() => new DefinitionProvider(foreign)).toThrowError(/carries the interface of "other"/);
  });
});
