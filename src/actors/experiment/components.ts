import {
  COMPONENT_METHODS,
  ComponentContractError,
  instantiate,
  requireMethods,
} from '../../config/componentContract.js';
import { resolveComponent } from '../../config/components.js';
import type { ComponentRef, PhaseSpec, RunSpec } from '../../config/runSpec.js';
import { deriveSeed } from '../../domain/shared/random.js';
import type { Brain, Muscle, Objective } from '../../ports/agent.js';
import type { Environment } from '../../ports/environment.js';
import {
  type RemoteComponentHost,
  remoteKindOf,
  type ServedComponent,
} from '../../ports/remote/remoteComponent.js';
import type { Logger } from '../../ports/runtime/logger.js';
import { AgentRuntime } from './agentRuntime.js';
import { PhaseWorld, type WorldAgent } from './world.js';

/** The kinds of component a run file names, each with the methods it must have. */
type ComponentKind = keyof typeof COMPONENT_METHODS;

function remoteResolver(
  remote: NonNullable<BuildWorldOptions['remote']>,
  phase: string,
  trusted: RunSpec['trustedServices'],
): (ref: ComponentRef, service: string) => unknown {
  return (ref, service) => {
    const kind = remoteKindOf(ref.yamlPath);
    if (kind === null) throw new ComponentContractError(ref, 'cannot be a remote component here');
    const trustedKeys = trusted[service];
    return remote.host.factoryFor(service, kind, {
      runId: remote.runId,
      phase,
      ...(remote.onServed !== undefined ? { onServed: remote.onServed } : {}),
      ...(trustedKeys !== undefined ? { trustedKeys } : {}),
    });
  };
}
/** What building a phase world needs besides the run file: the components it may name. */
export interface BuildWorldOptions {
  readonly builtins: ReadonlyMap<string, unknown>;
  /** Components passed in code, named `code:Name` in the run file. */
  readonly components?: Readonly<Record<string, unknown>>;
  readonly logger: Logger;
  /** Makes `nats:<service>` components; the run id is part of each remote request's identity. */
  readonly remote?: {
    readonly host: RemoteComponentHost;
    readonly runId: string;
    /** Told which instance serves each remote component, once it is open. */
    readonly onServed?: (served: ServedComponent) => void;
  };
}

/**
 * Resolve and construct one phase's environments and agents, and wire them
 * into a `PhaseWorld` by the phase's lifecycle script. Nothing is started.
 * Seeds are derived from the run's seed, the phase and the component name.
 *
 * @example
 * ```ts
 * const world = await buildPhaseWorld(spec, spec.phases[0]!, { builtins: builtinComponents });
 * const actor = createActor(wireSimulationController(world), { input }); // see controllerInputFor
 * ```
 */
export async function buildPhaseWorld(
  spec: RunSpec,
  phase: PhaseSpec,
  options: BuildWorldOptions,
): Promise<PhaseWorld> {
  const resolution = {
    baseDir: spec.baseDir,
    builtins: options.builtins,
    ...(options.components !== undefined ? { components: options.components } : {}),
    ...(options.remote !== undefined
      ? { remote: remoteResolver(options.remote, phase.name, spec.trustedServices) }
      : {}),
  };
  const build = async <T>(ref: ComponentRef, init: unknown, kind: ComponentKind): Promise<T> =>
    requireMethods<T>(
      instantiate(await resolveComponent(ref, resolution), init, ref),
      COMPONENT_METHODS[kind],
      ref,
      kind,
    );
  const environments = new Map<string, Environment>();
  for (const environment of phase.environments) {
    const init = {
      uid: environment.uid,
      params: structuredClone(environment.params),
      keyOrder: environment.keyOrder,
      seed: deriveSeed(spec.seed, `${phase.name}/environment/${environment.uid}`),
      logger: options.logger.child({ environment: environment.uid }),
    };
    environments.set(
      environment.uid,
      await build<Environment>(environment.component, init, 'environment'),
    );
  }
  const agents = new Map<string, WorldAgent>();
  for (const agent of phase.agents) {
    const init = (ref: ComponentRef, role: string) => ({
      name: agent.name,
      params: structuredClone(ref.params),
      seed: deriveSeed(spec.seed, `agent/${agent.name}/${role}`),
      logger: options.logger.child({ agent: agent.name }),
    });
    const brain = await build<Brain>(agent.brain, init(agent.brain, 'brain'), 'brain');
    const muscle = await build<Muscle>(agent.muscle, init(agent.muscle, 'muscle'), 'muscle');
    const objective = await build<Objective>(
      agent.objective,
      { params: structuredClone(agent.objective.params) },
      'objective',
    );
    agents.set(agent.name, {
      runtime: new AgentRuntime(agent.name, brain, muscle, objective),
      sensors: agent.sensors,
      actuators: agent.actuators,
    });
  }
  return new PhaseWorld({ environments, agents, script: phase.simulation.script });
}

export { COMPONENT_METHODS, ComponentContractError, instantiate, requireMethods };
