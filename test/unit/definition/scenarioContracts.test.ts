import { describe, expect, it } from 'vitest';
import {
  catalogueActionAt,
  catalogueIndexOf,
  createScenarioActionCatalogue,
  createScenarioAgentInterface,
  createScenarioDecisionRecord,
  createScenarioState,
  createScenarioTransition,
  DefinitionProvider,
  patchForAction,
  proposeDefinition,
  ScenarioContractError,
  scenarioRevision,
  scenarioStateFromCandidate,
  selectedScenarioAction,
} from '../../../src/domain/definition/index.js';

const scenario = { pv: 2.2, name: 'feeder' };
const provider = new DefinitionProvider(proposeDefinition('midas', scenario));
const baseline = provider.validate({ midas: scenario });
const actions = { 'midas.definition.pv': 3 };
const patch = provider.proposePatch({ midas: scenario }, actions);
const candidate = provider.validate({ midas: scenario }, patch);

function decision(overrides: Record<string, unknown> = {}) {
  return createScenarioDecisionRecord({
    environmentUid: 'midas',
    agentName: 'meta_agent',
    fromRevision: baseline.revision,
    actions,
    patch,
    candidate,
    decidedAt: '2026-11-29T21:00:00+01:00',
    ...overrides,
  });
}

describe('ScenarioState', () => {
  it('is a frozen, versioned definition identified by its revision', () => {
    const state = createScenarioState({ environmentUid: 'midas', definition: { ...scenario } });
    expect(state).toEqual({
      version: 1,
      environmentUid: 'midas',
      revision: scenarioRevision(scenario),
      definition: scenario,
      fingerprint: null,
    });
    expect(Object.isFrozen(state.definition)).toBe(true);
  });

  it('materialises a validated candidate with its fingerprint', () => {
    const state = scenarioStateFromCandidate(candidate);
    expect(state.revision).toBe(candidate.revision);
    expect(state.fingerprint).toEqual(provider.fingerprint);
  });

  it('rejects an empty environment UID and a non-mapping definition', () => {
    expect(() => createScenarioState({ environmentUid: ' ', definition: {} })).toThrowError(
      /ScenarioState.environmentUid: expected a non-empty string/,
    );
    expect(() =>
      createScenarioState({ environmentUid: 'midas', definition: [] as never }),
    ).toThrowError(ScenarioContractError);
  });
});

describe('ScenarioActionCatalogue', () => {
  const catalogue = createScenarioActionCatalogue({
    environmentUid: 'midas',
    actions: [
      { patchId: 'keep', operations: [] },
      {
        patchId: 'pv-up',
        description: 'more PV',
        operations: [{ op: 'replace', path: '/pv', value: 4 }],
      },
    ],
  });

  it('maps agent indices to stable patch IDs, both ways', () => {
    expect(catalogueActionAt(catalogue, 1).patchId).toBe('pv-up');
    expect(catalogueIndexOf(catalogue, 'keep')).toBe(0);
    expect(() => catalogueActionAt(catalogue, 2)).toThrowError(/action index 2 is not in 0..1/);
    expect(() => catalogueActionAt(catalogue, 0.5)).toThrowError(ScenarioContractError);
    expect(() => catalogueIndexOf(catalogue, 'nope')).toThrowError(/"nope" is not in/);
  });

  it('turns an action into a patch the provider validates', () => {
    const state = scenarioStateFromCandidate(baseline);
    const actionPatch = patchForAction(state, catalogueActionAt(catalogue, 1));
    expect(provider.validate({ midas: state.definition }, actionPatch).definition).toEqual({
      pv: 4,
      name: 'feeder',
    });
  });

  it('rejects an empty catalogue, repeated patch IDs and malformed operations', () => {
    expect(() =>
      createScenarioActionCatalogue({ environmentUid: 'midas', actions: [] }),
    ).toThrowError(/at least one action/);
    expect(() =>
      createScenarioActionCatalogue({
        environmentUid: 'midas',
        actions: [
          { patchId: 'a', operations: [] },
          { patchId: 'a', operations: [] },
        ],
      }),
    ).toThrowError(/actions\[1\]: patch ID "a" is already used by actions\[0\]/);
    expect(() =>
      createScenarioActionCatalogue({
        environmentUid: 'midas',
        actions: [{ patchId: 'root', operations: [{ op: 'replace', path: '', value: {} }] }],
      }),
    ).toThrowError(/action "root" operations\[0\]/);
    expect(() =>
      createScenarioActionCatalogue({
        environmentUid: 'midas',
        actions: [
          { patchId: 'nan', operations: [{ op: 'replace', path: '/pv', value: Number.NaN }] },
        ],
      }),
    ).toThrowError(/finite number/);
  });
});

describe('ScenarioDecisionRecord', () => {
  it('records agent, from-state, actions, patch, candidate and UTC time, with a content id', () => {
    const record = decision();
    expect(record).toMatchObject({
      version: 1,
      environmentUid: 'midas',
      agentName: 'meta_agent',
      fromRevision: baseline.revision,
      toRevision: candidate.revision,
      actions,
      catalogueChoice: null,
      decidedAt: '2026-11-29T20:00:00.000Z',
    });
    expect(record.patch).toBe(patch);
    expect(record.candidate).toBe(candidate);
    expect(record.recordId).toMatch(/^[0-9a-f]{64}$/);
    expect(decision().recordId).toBe(record.recordId);
    expect(decision({ agentName: 'other' }).recordId).not.toBe(record.recordId);
    expect(Object.isFrozen(record.actions)).toBe(true);
  });

  it('validates an empty action map into a record of the baseline decision', () => {
    const emptyPatch = provider.proposePatch({ midas: scenario }, {});
    const kept = provider.validate({ midas: scenario }, emptyPatch);
    const record = decision({ actions: {}, patch: emptyPatch, candidate: kept });
    expect(record.toRevision).toBe(record.fromRevision);
  });

  it.each([
    [
      'another from-state',
      { fromRevision: 'f'.repeat(64) },
      /patch.baseRevision .* is not fromRevision/,
    ],
    ['another environment', { environmentUid: 'other' }, /patch.environmentUid is "midas"/],
    [
      'a candidate of another patch',
      { candidate: baseline },
      /candidate.provenance.patchHash null is not patch.hash/,
    ],
    [
      'a time that is not ISO 8601',
      { decidedAt: 'yesterday' },
      /decidedAt: expected an ISO 8601 instant/,
    ],
    ['a time without a zone', { decidedAt: '2026-11-29T20:00:00' }, /decidedAt/],
    [
      'a non-finite action',
      { actions: { 'midas.definition.pv': Number.POSITIVE_INFINITY } },
      /actions\["midas.definition.pv"\]/,
    ],
    ['no agent name', { agentName: '' }, /agentName: expected a non-empty string/],
    [
      'a negative catalogue index',
      { catalogueChoice: { index: -1, patchId: 'keep' } },
      /catalogueChoice.index/,
    ],
  ])('rejects a decision with %s', (_what, overrides, message) => {
    expect(() => decision(overrides)).toThrowError(ScenarioContractError);
    expect(() => decision(overrides)).toThrowError(message);
  });
});

describe('ScenarioTransition', () => {
  it('goes from the decision start state to its candidate', () => {
    const from = scenarioStateFromCandidate(baseline);
    const transition = createScenarioTransition({ from, decision: decision() });
    expect(transition.from.revision).toBe(baseline.revision);
    expect(transition.to.revision).toBe(candidate.revision);
    expect(transition.to.definition).toEqual({ pv: 3, name: 'feeder' });
    expect(transition.environmentUid).toBe('midas');
  });

  it('rejects a from-state the decision did not start from, or a forged revision', () => {
    const elsewhere = createScenarioState({ environmentUid: 'midas', definition: { pv: 1 } });
    expect(() => createScenarioTransition({ from: elsewhere, decision: decision() })).toThrowError(
      /starts from "midas" at/,
    );
    const forged = { ...elsewhere, revision: baseline.revision };
    expect(() => createScenarioTransition({ from: forged, decision: decision() })).toThrowError(
      /does not match its definition/,
    );
  });
});

describe('ScenarioAgentInterface', () => {
  const catalogue = createScenarioActionCatalogue({
    environmentUid: 'midas',
    actions: [
      { patchId: 'keep', operations: [] },
      { patchId: 'pv-up', operations: [{ op: 'replace', path: '/pv', value: 4 }] },
    ],
  });
  const state = scenarioStateFromCandidate(baseline);

  it('projects a state into sensors plus one discrete catalogue action', () => {
    const agentInterface = createScenarioAgentInterface({
      state,
      definitionInterface: provider.proposal.interface,
      catalogue,
    });
    expect(agentInterface.sensors).toEqual([
      { uid: 'midas.definition.pv', space: { type: 'Box', low: 0, high: 4.4 } },
    ]);
    expect(agentInterface.actuators).toEqual([
      { uid: 'midas.scenario.action', space: { type: 'Discrete', n: 2, values: [0, 1] } },
    ]);
    expect(agentInterface.readings).toEqual({ 'midas.definition.pv': 2.2 });
    expect(selectedScenarioAction(agentInterface, { 'midas.scenario.action': 1 }).patchId).toBe(
      'pv-up',
    );
    expect(() => selectedScenarioAction(agentInterface, {})).toThrowError(/no value/);
  });

  it('rejects a catalogue or interface of another environment, or another fingerprint', () => {
    const otherCatalogue = createScenarioActionCatalogue({
      environmentUid: 'other',
      actions: [{ patchId: 'keep', operations: [] }],
    });
    expect(() =>
      createScenarioAgentInterface({
        state,
        definitionInterface: provider.proposal.interface,
        catalogue: otherCatalogue,
      }),
    ).toThrowError(/the catalogue is for "other"/);
    const narrower = proposeDefinition('midas', { pv: 2.2, extra: 1 }).interface;
    expect(() =>
      createScenarioAgentInterface({ state, definitionInterface: narrower, catalogue }),
    ).toThrowError(/different definition interface/);
  });
});
