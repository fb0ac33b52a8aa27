import { assign, setup } from 'xstate';
import { buildDefinitionAgentInterface } from '../domain/definition/agentInterfaceBridge.js';
import { DefinitionProvider } from '../domain/definition/definitionProvider.js';
import { getAtPointer, setAtPointer } from '../domain/definition/pointer.js';
import { createScenarioDecisionRecord } from '../domain/definition/scenarioDecision.js';
import type { DefinitionInterface, ProposedDefinition } from '../domain/definition/types.js';
import { canonicalJson } from '../domain/shared/canonicalJson.js';
import { ArenaError } from '../domain/shared/errors.js';
import { isPlainObject, type JsonObject } from '../domain/shared/json.js';
import { errorData, unwiredActor } from './actorErrors.js';
import type {
  MetaAgentInterface,
  MetaDecision,
  MetaTurnContext,
  MetaTurnFailure,
  MetaTurnInput,
  MetaTurnOutput,
} from './metaTurnTypes.js';

/**
 * The one-shot definition meta turn (palaestrAI's `_run_definition_meta_turn`),
 * one state per step of the seed so that a person can follow it in the
 * inspector. It runs before the operating environment exists: nothing here
 * starts or steps an environment. The meta agent acts exactly once.
 *
 * Every failure ends in `failed` with the step's name; the output then has
 * `status: 'failed'`, `failedStep` and `error`, and no override.
 */

/**
 * A meta-turn step found its input wrong.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'META_TURN'); // true when `error` is a MetaTurnError
 * error instanceof MetaTurnError && error.name; // 'MetaTurnError'
 * ```
 */
export class MetaTurnError extends ArenaError {
  constructor(message: string) {
    super('META_TURN', message);
  }
}

/**
 * A meta-turn actor was used without being provided.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'META_TURN_WIRING'); // true when `error` is a MetaTurnWiringError
 * error instanceof MetaTurnWiringError && error.name; // 'MetaTurnWiringError'
 * ```
 */
export class MetaTurnWiringError extends ArenaError {
  constructor(actor: string) {
    super(
      'META_TURN_WIRING',
      `the meta turn's "${actor}" actor reaches the live environment and agent; ` +
        'provide it with metaTurnMachine.provide({ actors })',
    );
  }
}

const unwired = <TOutput, TInput>(name: string) =>
  unwiredActor<TOutput, TInput>(name, (actor) => new MetaTurnWiringError(actor));

const describeError = (error: unknown): MetaTurnFailure => errorData(error);

type StepUpdate = Partial<MetaTurnContext>;

/** A synchronous step: its result merges into context, or its error ends the turn. */
function step(name: string, compute: (context: MetaTurnContext) => StepUpdate) {
  return ({ context }: { context: MetaTurnContext }): StepUpdate => {
    try {
      return compute(context);
    } catch (error) {
      return { failedStep: name, error: describeError(error) };
    }
  };
}

function required<T>(value: T | null, what: string): T {
  if (value === null) throw new MetaTurnError(`${what} is missing`);
  return value;
}

function providerOf(context: MetaTurnContext): DefinitionProvider {
  return new DefinitionProvider(required(context.proposal, 'the proposed definition'));
}

function valuesByUid(
  definitionInterface: DefinitionInterface,
  scenario: JsonObject,
): Record<string, number> {
  const values: Record<string, number> = {};
  for (const sensor of definitionInterface.sensors) {
    const value = getAtPointer(scenario, sensor.pointer);
    if (typeof value === 'number') values[sensor.uid] = value;
  }
  return values;
}

/** Which step comes after a synchronous one, unless it failed. */
function next(target: string) {
  return [{ guard: 'stepFailed' as const, target: '#metaTurn.failed' }, { target }];
}

/** Where an invoked step's error goes: `failed`, naming the step and keeping the error. */
function failedAt(step: string) {
  return {
    target: '#metaTurn.failed',
    actions: [
      { type: 'recordActorFailure' as const, params: { step } },
      'recordActorError' as const,
    ],
  };
}

/**
 * One meta turn: `preparingDefinition` (ask the environment for its definition,
 * derive selectors and the definition interface), `settingUpMetaAgent`, then
 * `acting` (the meta agent's single action), then `mappingActions`,
 * `proposingPatch`, `validatingCandidate`, `derivingOverride` and `done`, or
 * `failed` naming the step. Its actors are unwired;
 * `wireSimulationController` provides them from a `PhaseWorld`.
 *
 * @example
 * ```ts
 * const turn = createActor(metaTurnMachine.provide({ actors: { proposeDefinition, setUpMetaAgent, actOnce } }), { input });
 * turn.start();
 * turn.getSnapshot().output?.status; // 'done' or 'failed' once it ends
 * ```
 */
export const metaTurnMachine = setup({
  types: {
    input: {} as MetaTurnInput,
    context: {} as MetaTurnContext,
    output: {} as MetaTurnOutput,
  },
  actors: {
    /** Load the environment config-only and ask it for its definition. */
    proposeDefinition: unwired<
      ProposedDefinition | null,
      { environmentUid: string; configuration: JsonObject }
    >('proposeDefinition'),
    /** An ordinary agent setup for the meta agent, with the definition interface. */
    setUpMetaAgent: unwired<void, { agentName: string; agentInterface: MetaAgentInterface }>(
      'setUpMetaAgent',
    ),
    /** The meta agent's one action on the definition readings; never a step. */
    actOnce: unwired<
      Readonly<Record<string, number>>,
      { agentName: string; readings: Readonly<Record<string, number>>; phase: string }
    >('actOnce'),
  },
  guards: {
    stepFailed: ({ context }) => context.failedStep !== null,
  },
  actions: {
    resetOverrides: assign(step('resettingOverrides', () => ({ overrides: {} }))),
    deriveCanonicalDefinition: assign(
      step('derivingCanonicalDefinition', ({ input }) => {
        const configuration = input.environmentConfigurations[input.environmentUid];
        if (configuration === undefined || !isPlainObject(configuration)) {
          throw new MetaTurnError(
            `no configuration for the definition environment "${input.environmentUid}"`,
          );
        }
        return { configuration: structuredClone(configuration) };
      }),
    ),
    verifyProposal: assign(
      step('verifyingProposal', ({ input, proposal, configuration }) => {
        if (proposal === null) {
          throw new MetaTurnError(
            `environment "${input.environmentUid}" proposed no definition (the meta profile needs one)`,
          );
        }
        if (proposal.environmentUid !== input.environmentUid) {
          throw new MetaTurnError(
            `the proposal is for environment "${proposal.environmentUid}", expected "${input.environmentUid}"`,
          );
        }
        if (proposal.interface.actuators.length === 0) {
          throw new MetaTurnError(
            `environment "${input.environmentUid}" proposed an empty definition interface`,
          );
        }
        const inline = getAtPointer(
          required(configuration, 'the configuration'),
          proposal.scenarioPointer,
        );
        if (inline === undefined || canonicalJson(inline) !== canonicalJson(proposal.scenario)) {
          throw new MetaTurnError(
            `the proposed scenario is not the inline scenario at "${proposal.scenarioPointer}" of ` +
              `environment "${input.environmentUid}"`,
          );
        }
        return {};
      }),
    ),
    buildProvider: assign(
      step('buildingProvider', (context) => {
        providerOf(context);
        return {};
      }),
    ),
    validateBaseline: assign(
      step('validatingBaseline', (context) => {
        const proposal = required(context.proposal, 'the proposed definition');
        const baseline = providerOf(context).validate({
          [proposal.environmentUid]: proposal.scenario,
        });
        return { baseline };
      }),
    ),
    materialiseBaseline: assign(
      step('materialisingBaseline', (context) => {
        const baseline = required(context.baseline, 'the validated baseline');
        return { definition: { [baseline.environmentUid]: baseline.definition } };
      }),
    ),
    describeInterface: assign(
      step('describingInterface', (context) => ({
        definitionInterface: providerOf(context).describe(
          required(context.definition, 'the definition'),
        ),
      })),
    ),
    vectorizeDefinition: assign(
      step('vectorizing', (context) => ({
        vector: providerOf(context).vectorize(required(context.definition, 'the definition')),
      })),
    ),
    buildAgentInterface: assign(
      step('buildingAgentInterface', (context) => ({
        agentInterface: buildDefinitionAgentInterface(
          required(context.definitionInterface, 'the definition interface'),
          required(context.vector, 'the definition vector'),
        ) as MetaAgentInterface,
      })),
    ),
    resolveMetaAgent: assign(
      step('resolvingMetaAgent', ({ input }) => {
        if (input.metaAgent.length === 0) throw new MetaTurnError('the script names no meta agent');
        return { metaAgentName: input.metaAgent };
      }),
    ),
    assignActions: assign({
      actions: ({ event }) => (event as unknown as { output: Record<string, number> }).output,
    }),
    assignProposal: assign({
      proposal: ({ event }) =>
        (event as unknown as { output: ProposedDefinition | null }).output ?? null,
    }),
    mapActions: assign(
      step('mappingActions', (context) => {
        const actions = required(context.actions, 'the meta agent actions');
        const definitionInterface = required(
          context.definitionInterface,
          'the definition interface',
        );
        const known = new Set(definitionInterface.actuators.map((actuator) => actuator.uid));
        const definitionActions: Record<string, number> = {};
        for (const [uid, value] of Object.entries(actions)) {
          if (!known.has(uid)) {
            throw new MetaTurnError(
              `the meta agent acted on "${uid}", which is not a definition actuator`,
            );
          }
          definitionActions[uid] = value;
        }
        return { definitionActions };
      }),
    ),
    proposePatch: assign(
      step('proposingPatch', (context) => ({
        patch: providerOf(context).proposePatch(
          required(context.definition, 'the definition'),
          required(context.definitionActions, 'the definition actions'),
        ),
      })),
    ),
    validateCandidate: assign(
      step('validatingCandidate', (context) => ({
        candidate: providerOf(context).validate(
          required(context.definition, 'the definition'),
          required(context.patch, 'the patch'),
        ),
      })),
    ),
    deriveOverride: assign(
      step('derivingOverride', (context) => {
        const { input } = context;
        const proposal = required(context.proposal, 'the proposed definition');
        const candidate = required(context.candidate, 'the candidate');
        const configuration = required(context.configuration, 'the configuration');
        const params = setAtPointer(configuration, proposal.scenarioPointer, candidate.definition);
        const definitionInterface = required(
          context.definitionInterface,
          'the definition interface',
        );
        const baseline = required(context.baseline, 'the baseline');
        const decision: MetaDecision = {
          environmentUid: input.environmentUid,
          agentName: required(context.metaAgentName, 'the meta agent'),
          phase: input.phase,
          startRequest: input.startRequest,
          fromRevision: baseline.revision,
          toRevision: candidate.revision,
          fingerprint: candidate.fingerprint.value,
          selectorOrder: definitionInterface.sensors.map((sensor) => sensor.uid),
          baseline: valuesByUid(definitionInterface, baseline.definition),
          candidate: valuesByUid(definitionInterface, candidate.definition),
          actions: required(context.definitionActions, 'the definition actions'),
          patch: required(context.patch, 'the patch'),
          record: createScenarioDecisionRecord({
            environmentUid: input.environmentUid,
            agentName: required(context.metaAgentName, 'the meta agent'),
            fromRevision: baseline.revision,
            actions: required(context.definitionActions, 'the definition actions'),
            patch: required(context.patch, 'the patch'),
            candidate,
            decidedAt: input.decidedAt,
          }),
        };
        return { override: { [input.environmentUid]: params as JsonObject }, decision };
      }),
    ),
    recordActorFailure: assign((_, params: { step: string }) => ({ failedStep: params.step })),
    recordActorError: assign(({ event }) => ({
      error: describeError((event as unknown as { error: unknown }).error),
    })),
  },
}).createMachine({
  id: 'metaTurn',
  context: ({ input }) => ({
    input,
    overrides: {},
    configuration: null,
    proposal: null,
    baseline: null,
    definition: null,
    definitionInterface: null,
    vector: null,
    agentInterface: null,
    metaAgentName: null,
    actions: null,
    definitionActions: null,
    patch: null,
    candidate: null,
    override: null,
    decision: null,
    failedStep: null,
    error: null,
  }),
  initial: 'preparingDefinition',
  states: {
    preparingDefinition: {
      initial: 'resettingOverrides',
      states: {
        resettingOverrides: {
          entry: 'resetOverrides',
          always: next('derivingCanonicalDefinition'),
        },
        derivingCanonicalDefinition: {
          entry: 'deriveCanonicalDefinition',
          always: next('loadingDefinitionEnvironment'),
        },
        loadingDefinitionEnvironment: {
          invoke: {
            id: 'proposeDefinition',
            src: 'proposeDefinition',
            input: ({ context }) => ({
              environmentUid: context.input.environmentUid,
              configuration: context.configuration as JsonObject,
            }),
            onDone: { target: 'verifyingProposal', actions: 'assignProposal' },
            onError: failedAt('loadingDefinitionEnvironment'),
          },
        },
        verifyingProposal: { entry: 'verifyProposal', always: next('buildingProvider') },
        buildingProvider: { entry: 'buildProvider', always: next('validatingBaseline') },
        validatingBaseline: { entry: 'validateBaseline', always: next('materialisingBaseline') },
        materialisingBaseline: {
          entry: 'materialiseBaseline',
          always: next('describingInterface'),
        },
        describingInterface: { entry: 'describeInterface', always: next('vectorizing') },
        vectorizing: { entry: 'vectorizeDefinition', always: next('buildingAgentInterface') },
        buildingAgentInterface: {
          entry: 'buildAgentInterface',
          always: next('resolvingMetaAgent'),
        },
        resolvingMetaAgent: {
          entry: 'resolveMetaAgent',
          always: next('#metaTurn.settingUpMetaAgent'),
        },
      },
    },
    settingUpMetaAgent: {
      invoke: {
        id: 'setUpMetaAgent',
        src: 'setUpMetaAgent',
        input: ({ context }) => ({
          agentName: context.metaAgentName as string,
          agentInterface: context.agentInterface as MetaAgentInterface,
        }),
        onDone: 'acting',
        onError: failedAt('settingUpMetaAgent'),
      },
    },
    acting: {
      invoke: {
        id: 'actOnce',
        src: 'actOnce',
        input: ({ context }) => ({
          agentName: context.metaAgentName as string,
          readings: (context.agentInterface as MetaAgentInterface).readings,
          phase: context.input.phase,
        }),
        onDone: { target: 'mappingActions', actions: 'assignActions' },
        onError: failedAt('acting'),
      },
    },
    mappingActions: { entry: 'mapActions', always: next('proposingPatch') },
    proposingPatch: { entry: 'proposePatch', always: next('validatingCandidate') },
    validatingCandidate: { entry: 'validateCandidate', always: next('derivingOverride') },
    derivingOverride: { entry: 'deriveOverride', always: next('done') },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }) => ({
    status: context.failedStep === null ? 'done' : 'failed',
    environmentUid: context.input.environmentUid,
    override: context.failedStep === null ? context.override : null,
    candidate: context.failedStep === null ? context.candidate : null,
    decision: context.failedStep === null ? context.decision : null,
    agentInterface: context.agentInterface,
    failedStep: context.failedStep,
    error: context.error,
  }),
});
