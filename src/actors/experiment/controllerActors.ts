import { fromPromise } from 'xstate';
import { ArenaError } from '../../domain/shared/errors.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { metaTurnMachine } from '../../machines/metaTurn.js';
import { simulationControllerMachine } from '../../machines/simulationController.js';
import type {
  CheckpointOutcome,
  CompletedEpisode,
  ControllerInput,
  EpisodeInput,
  EvaluationInput,
  SetUpWorldInput,
  SetUpWorldOutput,
} from '../../machines/simulationControllerTypes.js';
import type { PhaseWorld } from './world.js';

/**
 * The lifecycle script and the environments do not fit the meta profile.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'META_PROFILE'); // true when `error` is a MetaProfileError
 * error instanceof MetaProfileError && error.name; // 'MetaProfileError'
 * ```
 */
export class MetaProfileError extends ArenaError {
  constructor(message: string) {
    super('META_PROFILE', message);
  }
}

/**
 * The controller machine wired to a live world: every actor the machine
 * invokes is a thin `fromPromise` over `PhaseWorld`.
 *
 * @example
 * ```ts
 * const machine = wireSimulationController(world);
 * const actor = createActor(machine, { input }); // see ControllerInput
 * actor.start(); actor.send({ type: 'start' });
 * ```
 */
export function wireSimulationController(world: PhaseWorld) {
  const metaTurn = metaTurnMachine.provide({
    actors: {
      proposeDefinition: fromPromise(async ({ input }) =>
        world.environment(input.environmentUid).proposeDefinition(),
      ),
      setUpMetaAgent: fromPromise(async ({ input }) => {
        await world.agent(input.agentName).setup(input.agentInterface);
      }),
      actOnce: fromPromise(async ({ input }) =>
        world.agent(input.agentName).act(input.readings, {
          mode: 'train',
          evaluation: false,
          phase: input.phase,
          episode: 0,
          step: 0,
        }),
      ),
    },
  });
  return simulationControllerMachine.provide({
    actors: {
      metaTurn,
      setUpWorld: fromPromise<SetUpWorldOutput, SetUpWorldInput>(async ({ input }) => {
        // a carried state is loaded right after the agent's next setup
        for (const [name, state] of Object.entries(input.restoreLearning ?? {})) {
          world.agent(name).carryState(state);
        }
        await world.setUp(input.params);
        const capture = input.captureLearning ?? [];
        if (capture.length === 0) return undefined;
        const learning: Record<string, JsonValue> = {};
        for (const name of capture) learning[name] = world.agent(name).saveState();
        return { learning };
      }),
      closeWorld: fromPromise(async () => {
        await world.close();
        return { closedAt: new Date().toISOString() };
      }),
      runEpisode: fromPromise(async ({ input, signal }) => world.runEpisode(input, signal)),
      endEpisode: fromPromise<void, { episode: EpisodeInput; summary: CompletedEpisode }>(
        async ({ input }) => {
          await world.endEpisode(input.episode, input.summary);
        },
      ),
      runEvaluation: fromPromise<
        { summary: CompletedEpisode; outcomes: CheckpointOutcome[] },
        EvaluationInput
      >(async ({ input, signal }) => {
        await world.reset();
        const result = await world.runEpisode(input.episode, signal);
        await world.endEpisode(input.episode, result, { handOffToMeta: false });
        const outcomes: CheckpointOutcome[] = [];
        for (const agentName of input.agents) {
          const evaluation = await world.agent(agentName).evaluateRollouts();
          outcomes.push({
            agentName,
            evaluationId: `${input.episode.phase}:${input.checkpointIndex}`,
            evaluationEpisode: input.checkpointIndex,
            checkpointId: evaluation.checkpointId ?? null,
            checkpointHash: evaluation.checkpointHash ?? null,
            metrics: evaluation.metrics,
          });
        }
        return {
          summary: {
            ordinal: 0,
            episode: input.episode.episode,
            mode: input.episode.mode,
            evaluation: true,
            steps: result.steps,
            returnsByAgent: result.returnsByAgent,
            environmentDone: result.environmentDone,
          },
          outcomes,
        };
      }),
      resetWorld: fromPromise(async () => {
        await world.reset();
      }),
    },
  });
}

/**
 * The controller's input for a world, checked the way palaestrAI checks a
 * scripted controller at construction, before any environment is started:
 * the meta profile needs exactly one environment that proposes a non-empty
 * definition (proposals are config-only: no world is built).
 *
 * @example
 * ```ts
 * const input = await controllerInputFor(world, { phase, environmentConfigurations, termination: null, environmentUids });
 * createActor(wireSimulationController(world), { input }).start();
 * ```
 */
export async function controllerInputFor(
  world: PhaseWorld,
  base: Omit<ControllerInput, 'script'> & {
    readonly environmentUids: readonly string[];
  },
): Promise<ControllerInput> {
  const { script } = world;
  let definitionEnvironment: string | null = null;
  if (script.profile === 'meta') {
    const proposing: string[] = [];
    for (const uid of base.environmentUids) {
      const proposal = await world.environment(uid).proposeDefinition();
      if (proposal !== null && proposal.interface.actuators.length > 0) proposing.push(uid);
    }
    if (proposing.length !== 1) {
      throw new MetaProfileError(
        `the meta profile needs exactly one environment that proposes a non-empty definition; ` +
          (proposing.length === 0
            ? 'none does'
            : `${proposing.length} do (${proposing.map((uid) => `"${uid}"`).join(', ')})`),
      );
    }
    definitionEnvironment = proposing[0] as string;
  }
  const { environmentUids: _uids, ...input } = base;
  return {
    ...input,
    script: {
      profile: script.profile,
      metaAgent: script.metaAgent,
      operatingAgent: script.operatingAgent,
      definitionEnvironment,
      loopAgents: world.loopAgents,
      metaEvery: script.profile === 'meta' ? (script.metaEvery ?? null) : null,
      metaLearning: script.metaLearning ?? 'carry_over',
    },
  };
}
