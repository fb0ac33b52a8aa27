import { resolveComponent } from '../config/components.js';
import type { ComponentRef, PhaseSpec, RunSpec } from '../config/runSpec.js';
import { ArenaError } from '../domain/shared/errors.js';
import { deriveSeed } from '../domain/shared/random.js';
import type { Brain, Muscle, Objective } from '../ports/agent.js';
import type { Environment } from '../ports/environment.js';
import type { Logger } from '../ports/logger.js';
import { type RemoteComponentHost, remoteKindOf } from '../ports/remoteComponent.js';
import { AgentRuntime } from './agentRuntime.js';
import { PhaseWorld, type WorldAgent } from './world.js';

function remoteResolver(
  remote: NonNullable<BuildWorldOptions['remote']>,
  phase: string,
): (ref: ComponentRef, service: string) => unknown {
  return (ref, service) => {
    const kind = remoteKindOf(ref.yamlPath);
    if (kind === null) throw new ComponentContractError(ref, 'cannot be a remote component here');
    return remote.host.factoryFor(service, kind, { runId: remote.runId, phase });
  };
}

/**
 * A component resolved, but is not what its place in the run file needs.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'COMPONENT_CONTRACT'); // true when `error` is a ComponentContractError
 * error instanceof ComponentContractError && error.name; // 'ComponentContractError'
 * ```
 */
export class ComponentContractError extends ArenaError {
  constructor(ref: ComponentRef, message: string) {
    super('COMPONENT_CONTRACT', `${ref.yamlPath} (${ref.name}): ${message}`);
  }
}

function isClass(value: unknown): value is new (init: unknown) => unknown {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * Make a component from what its name resolved to: a class is constructed
 * with `new`, a function is called; either receives `init`.
 */
export function instantiate(value: unknown, init: unknown, ref: ComponentRef): unknown {
  try {
    if (isClass(value)) return new value(init);
    if (typeof value === 'function') return (value as (init: unknown) => unknown)(init);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ComponentContractError(ref, `failed to construct: ${reason}`);
  }
  throw new ComponentContractError(
    ref,
    `expected a class or a factory function, got ${typeof value}`,
  );
}

/**
 * `value`, when it has every method of `methods`; else a `ComponentContractError`
 * naming the missing ones.
 *
 * @example
 * ```ts
 * requireMethods({ act() {} }, COMPONENT_METHODS.muscle, ref, 'muscle'); // the object
 * requireMethods({}, COMPONENT_METHODS.objective, ref, 'objective');
 * // ComponentContractError: schedule[0].train.agents[0].objective (./o.js:O): is not an objective: it lacks evaluate()
 * ```
 */
export function requireMethods<T>(
  value: unknown,
  methods: readonly string[],
  ref: ComponentRef,
  kind: string,
): T {
  const missing = methods.filter(
    (method) => typeof (value as Record<string, unknown> | null)?.[method] !== 'function',
  );
  if (missing.length > 0) {
    const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
    const lacks = missing.map((method) => `${method}()`).join(', ');
    throw new ComponentContractError(ref, `is not ${article} ${kind}: it lacks ${lacks}`);
  }
  return value as T;
}

/** The methods each kind of component must have: what `buildPhaseWorld` and `arena validate` check. */
export const COMPONENT_METHODS = {
  environment: ['proposeDefinition', 'start', 'step', 'reset', 'close'],
  brain: ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts'],
  muscle: ['act'],
  objective: ['evaluate'],
} as const;

/** What building a phase world needs besides the run file: the components it may name. */
export interface BuildWorldOptions {
  readonly builtins: ReadonlyMap<string, unknown>;
  /** Components passed in code, named `code:Name` in the run file. */
  readonly components?: Readonly<Record<string, unknown>>;
  readonly logger: Logger;
  /** Makes `nats:<service>` components; the run id is part of each remote request's identity. */
  readonly remote?: { readonly host: RemoteComponentHost; readonly runId: string };
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
    ...(options.remote !== undefined ? { remote: remoteResolver(options.remote, phase.name) } : {}),
  };
  const environments = new Map<string, Environment>();
  for (const environment of phase.environments) {
    const factory = await resolveComponent(environment.component, resolution);
    const instance = instantiate(
      factory,
      {
        uid: environment.uid,
        params: structuredClone(environment.params),
        keyOrder: environment.keyOrder,
        seed: deriveSeed(spec.seed, `${phase.name}/environment/${environment.uid}`),
        logger: options.logger.child({ environment: environment.uid }),
      },
      environment.component,
    );
    environments.set(
      environment.uid,
      requireMethods<Environment>(
        instance,
        COMPONENT_METHODS.environment,
        environment.component,
        'environment',
      ),
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
    const brain = requireMethods<Brain>(
      instantiate(
        await resolveComponent(agent.brain, resolution),
        init(agent.brain, 'brain'),
        agent.brain,
      ),
      COMPONENT_METHODS.brain,
      agent.brain,
      'brain',
    );
    const muscle = requireMethods<Muscle>(
      instantiate(
        await resolveComponent(agent.muscle, resolution),
        init(agent.muscle, 'muscle'),
        agent.muscle,
      ),
      COMPONENT_METHODS.muscle,
      agent.muscle,
      'muscle',
    );
    const objective = requireMethods<Objective>(
      instantiate(
        await resolveComponent(agent.objective, resolution),
        { params: structuredClone(agent.objective.params) },
        agent.objective,
      ),
      COMPONENT_METHODS.objective,
      agent.objective,
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
