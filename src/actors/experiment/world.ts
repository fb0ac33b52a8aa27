import type { TurnGroup } from '../../config/script.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { JsonObject, JsonValue } from '../../domain/shared/json.js';
import type { Mode, TurnContext } from '../../ports/agent.js';
import type {
  ActuatorInformation,
  Environment,
  EnvironmentStart,
  Readings,
  SensorInformation,
} from '../../ports/environment.js';
import type { AgentRuntime } from './agentRuntime.js';

/** The part of a lifecycle script the world runs. */
export interface WorldScript {
  readonly profile: 'meta' | 'generic';
  readonly loop: readonly TurnGroup[];
  readonly metaAgent: string | null;
  readonly operatingAgent: string | null;
  /** The repeated meta loop's period in episodes, or `null`/absent for the one-shot profile. */
  readonly metaEvery?: number | null;
  readonly metaLearning?: 'carry_over' | 'reset';
}

/** One episode to run. */
export interface EpisodeRequest {
  readonly phase: string;
  readonly episode: number;
  readonly mode: Mode;
  /** An evaluation episode: agents act deterministically and do not learn. */
  readonly evaluation: boolean;
  readonly maxSteps: number;
}

/** What one episode did. */
export interface EpisodeResult {
  readonly steps: number;
  /** Sum of each loop agent's objective over the episode. */
  readonly returnsByAgent: Readonly<Record<string, number>>;
  /** An environment reported `done` (rather than the step cap ending the episode). */
  readonly environmentDone: boolean;
}

/**
 * A world was driven in a way its script does not allow.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'WORLD'); // true when `error` is a WorldError
 * error instanceof WorldError && error.name; // 'WorldError'
 * ```
 */
export class WorldError extends ArenaError {
  constructor(message: string) {
    super('WORLD', message);
  }
}

/**
 * The controller stopped an episode because it was cancelled.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'EPISODE_ABORTED'); // true when `error` is a EpisodeAbortedError
 * error instanceof EpisodeAbortedError && error.name; // 'EpisodeAbortedError'
 * ```
 */
export class EpisodeAbortedError extends ArenaError {
  constructor() {
    super('EPISODE_ABORTED', 'the episode was cancelled');
  }
}

/** How long an episode may run before it lets the event loop run. */
const YIELD_EVERY_MS = 25;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The reward UID under which the meta agent receives the operating return. */
export function metaReturnUid(operatingAgent: string): string {
  return `${operatingAgent}.return`;
}

interface AgentSlot {
  readonly runtime: AgentRuntime;
  readonly environments: readonly string[];
  /** Declared sensor UIDs to keep, or null for every sensor of its environments. */
  readonly sensorFilter: ReadonlySet<string> | null;
  readonly actuatorFilter: ReadonlySet<string> | null;
}

interface CompiledGroup {
  readonly agents: readonly AgentSlot[];
  readonly environments: readonly string[];
}

/** Per-agent options from the run file. */
export interface WorldAgent {
  readonly runtime: AgentRuntime;
  readonly sensors: readonly string[];
  readonly actuators: readonly string[];
}

/**
 * The live objects of one phase: its environments and agents, wired by the
 * lifecycle script. The controller machine drives it through the actors it
 * invokes; the world itself holds no lifecycle logic.
 *
 * @example
 * ```ts
 * const world = new PhaseWorld({ environments, agents, script });
 * await world.setUp({ grid: params });
 * const result = await world.runEpisode({ phase: 'train', episode: 1, mode: 'train',
 *   evaluation: false, maxSteps: 96 }, signal);
 * // { steps: 96, returnsByAgent: { operator: -3.2 }, environmentDone: false }
 * ```
 */
export class PhaseWorld {
  private readonly environments: ReadonlyMap<string, Environment>;
  private readonly agents: ReadonlyMap<string, WorldAgent>;
  readonly script: WorldScript;
  private readonly started = new Map<string, EnvironmentStart>();
  private readonly readings = new Map<string, Readings>();
  private readonly lastRewards = new Map<string, Readings>();
  private groups: readonly CompiledGroup[] = [];
  /** Environments and agents that take part in the `loop`, in script order. */
  readonly loopEnvironments: readonly string[];
  readonly loopAgents: readonly string[];

  constructor(options: {
    environments: ReadonlyMap<string, Environment>;
    agents: ReadonlyMap<string, WorldAgent>;
    script: WorldScript;
  }) {
    this.environments = options.environments;
    this.agents = options.agents;
    this.script = options.script;
    this.loopEnvironments = unique(options.script.loop.flatMap((group) => group.environments));
    this.loopAgents = unique(options.script.loop.flatMap((group) => group.agents));
    for (const uid of this.loopEnvironments) {
      if (!this.environments.has(uid)) throw new WorldError(`unknown environment "${uid}"`);
    }
    for (const name of this.loopAgents) {
      if (!this.agents.has(name)) throw new WorldError(`unknown agent "${name}"`);
    }
  }

  environment(uid: string): Environment {
    const environment = this.environments.get(uid);
    if (!environment) throw new WorldError(`unknown environment "${uid}"`);
    return environment;
  }

  agent(name: string): AgentRuntime {
    const agent = this.agents.get(name);
    if (!agent) throw new WorldError(`unknown agent "${name}"`);
    return agent.runtime;
  }

  /** Whether `uid`'s world has been started. */
  isStarted(uid: string): boolean {
    return this.started.has(uid);
  }

  /**
   * Start every loop environment from a deep copy of its params (the stored
   * configuration or the meta turn's override), then set up the loop agents
   * with the sensors and actuators of the environments they act on.
   */
  async setUp(paramsByEnvironment: Readonly<Record<string, JsonObject>>): Promise<void> {
    for (const uid of this.loopEnvironments) {
      const params = paramsByEnvironment[uid];
      if (params === undefined) throw new WorldError(`no configuration for environment "${uid}"`);
      const start = await this.environment(uid).start(structuredClone(params));
      this.started.set(uid, start);
      this.readings.set(uid, start.readings);
    }
    this.groups = this.script.loop.map((group) => ({
      environments: group.environments,
      agents: group.agents.map((name) => this.slotFor(name)),
    }));
    for (const name of this.loopAgents) {
      const slot = this.slotFor(name);
      await slot.runtime.setup({
        sensors: this.channels(slot.environments, 'sensors', slot.sensorFilter),
        actuators: this.channels(slot.environments, 'actuators', slot.actuatorFilter),
        readings: this.readingsFor(slot),
      });
    }
  }

  /** Reset every started environment in place for the next episode. */
  async reset(): Promise<void> {
    for (const uid of this.loopEnvironments) {
      const start = await this.environment(uid).reset();
      this.readings.set(uid, start.readings);
      this.lastRewards.delete(uid);
    }
  }

  /**
   * Run one episode: each step runs the turn groups in order (the group's
   * agents act on their environments' readings, then those environments step),
   * until an environment is done or `maxSteps` steps have run.
   */
  async runEpisode(request: EpisodeRequest, signal?: AbortSignal): Promise<EpisodeResult> {
    const returns: Record<string, number> = {};
    for (const name of this.loopAgents) returns[name] = 0;
    const learning = request.mode === 'train' && !request.evaluation;
    let environmentDone = false;
    let steps = 0;
    let lastYield = performance.now();
    while (steps < request.maxSteps && !environmentDone) {
      if (signal?.aborted) throw new EpisodeAbortedError();
      // Synchronous environments and agents never return to the event loop on
      // their own: give it a turn now and then so Ctrl-C, timers and I/O run.
      if ((steps & 63) === 0 && performance.now() - lastYield > YIELD_EVERY_MS) {
        await yieldToEventLoop();
        lastYield = performance.now();
        if (signal?.aborted) throw new EpisodeAbortedError();
      }
      steps++;
      const context: TurnContext = {
        mode: request.mode,
        evaluation: request.evaluation,
        phase: request.phase,
        episode: request.episode,
        step: steps,
      };
      for (const group of this.groups) {
        environmentDone =
          (await this.runTurn(group, context, returns, learning)) || environmentDone;
      }
    }
    return { steps, returnsByAgent: returns, environmentDone };
  }

  private async runTurn(
    group: CompiledGroup,
    context: TurnContext,
    returns: Record<string, number>,
    learning: boolean,
  ): Promise<boolean> {
    const observed: Readings[] = [];
    const acted: Readings[] = [];
    for (const slot of group.agents) {
      const readings = this.readingsFor(slot);
      observed.push(readings);
      const actions = slot.runtime.act(readings, context);
      acted.push(await actions);
    }
    let done = false;
    for (const uid of group.environments) {
      const actions = this.actionsFor(uid, group, acted);
      const result = await this.environment(uid).step(actions);
      this.readings.set(uid, result.readings);
      this.lastRewards.set(uid, result.rewards);
      done = done || result.done;
    }
    for (let index = 0; index < group.agents.length; index++) {
      const slot = group.agents[index] as AgentSlot;
      const rewards = this.rewardsFor(slot);
      const objective = await slot.runtime.objectiveOf(rewards);
      returns[slot.runtime.name] = (returns[slot.runtime.name] ?? 0) + objective;
      if (learning) {
        await slot.runtime.observe(
          {
            readings: observed[index] as Readings,
            actions: acted[index] as Readings,
            rewards,
            objective,
            done,
          },
          context,
        );
      }
    }
    return done;
  }

  /**
   * The terminal update of every loop agent; in the meta profile the meta agent
   * also receives the operating agent's return as its one terminal reward
   * (not after evaluation episodes: the meta agent learns from training returns).
   */
  async endEpisode(
    request: EpisodeRequest,
    result: EpisodeResult,
    options: { handOffToMeta?: boolean } = {},
  ): Promise<void> {
    const context: TurnContext = {
      mode: request.mode,
      evaluation: request.evaluation,
      phase: request.phase,
      episode: request.episode,
      step: result.steps,
    };
    for (const name of this.loopAgents) {
      const slot = this.slotFor(name);
      await slot.runtime.endEpisode(
        {
          rewards: this.rewardsFor(slot),
          episodeReturn: result.returnsByAgent[name] ?? 0,
          done: true,
        },
        context,
      );
    }
    const { metaAgent, operatingAgent } = this.script;
    const handOff = options.handOffToMeta ?? true;
    if (
      handOff &&
      this.script.profile === 'meta' &&
      metaAgent !== null &&
      operatingAgent !== null
    ) {
      const operatingReturn = result.returnsByAgent[operatingAgent] ?? 0;
      await this.agent(metaAgent).endEpisode(
        {
          rewards: { [metaReturnUid(operatingAgent)]: operatingReturn },
          episodeReturn: operatingReturn,
          done: true,
        },
        context,
      );
    }
  }

  /** Close every started environment; errors are collected, not thrown mid-way. */
  async close(): Promise<void> {
    const errors: unknown[] = [];
    for (const uid of this.started.keys()) {
      try {
        await this.environment(uid).close();
      } catch (error) {
        errors.push(error);
      }
    }
    this.started.clear();
    if (errors.length > 0) throw errors[0];
  }

  /** Brain and environment state for an exact resume at an episode barrier. */
  saveState(): JsonObject {
    const agents: Record<string, JsonValue> = {};
    for (const [name, agent] of this.agents) agents[name] = agent.runtime.saveState();
    const environments: Record<string, JsonValue> = {};
    for (const uid of this.started.keys()) {
      environments[uid] = this.environment(uid).saveState?.() ?? null;
    }
    return { agents, environments };
  }

  /** Restore what `saveState` returned (after `setUp`). */
  loadState(state: JsonObject): void {
    const agents = (state.agents ?? {}) as Record<string, JsonValue>;
    for (const [name, saved] of Object.entries(agents)) {
      this.agents.get(name)?.runtime.loadState(saved);
    }
    const environments = (state.environments ?? {}) as Record<string, JsonValue>;
    for (const [uid, saved] of Object.entries(environments)) {
      const environment = this.environments.get(uid);
      if (saved !== null && environment?.loadState) environment.loadState(saved);
    }
  }

  private slotFor(name: string): AgentSlot {
    const agent = this.agents.get(name);
    if (!agent) throw new WorldError(`unknown agent "${name}"`);
    const environments = unique(
      this.script.loop
        .filter((group) => group.agents.includes(name))
        .flatMap((group) => group.environments),
    );
    return {
      runtime: agent.runtime,
      environments,
      sensorFilter: agent.sensors.length > 0 ? new Set(agent.sensors) : null,
      actuatorFilter: agent.actuators.length > 0 ? new Set(agent.actuators) : null,
    };
  }

  private channels(
    environments: readonly string[],
    kind: 'sensors' | 'actuators',
    filter: ReadonlySet<string> | null,
  ): (SensorInformation | ActuatorInformation)[] {
    const all = environments.flatMap((uid) => this.started.get(uid)?.[kind] ?? []);
    return filter === null ? all : all.filter((channel) => filter.has(channel.uid));
  }

  private readingsFor(slot: AgentSlot): Readings {
    if (slot.environments.length === 1 && slot.sensorFilter === null) {
      return this.readings.get(slot.environments[0] as string) ?? {};
    }
    const merged: Record<string, number> = {};
    for (const uid of slot.environments) {
      const readings = this.readings.get(uid) ?? {};
      for (const key in readings) {
        if (slot.sensorFilter === null || slot.sensorFilter.has(key)) {
          merged[key] = readings[key] as number;
        }
      }
    }
    return merged;
  }

  private rewardsFor(slot: AgentSlot): Readings {
    if (slot.environments.length === 1) {
      return this.lastRewards.get(slot.environments[0] as string) ?? {};
    }
    const merged: Record<string, number> = {};
    for (const uid of slot.environments) Object.assign(merged, this.lastRewards.get(uid));
    return merged;
  }

  private actionsFor(uid: string, group: CompiledGroup, acted: readonly Readings[]): Readings {
    const actuators = this.started.get(uid)?.actuators ?? [];
    if (acted.length === 1 && group.environments.length === 1) return acted[0] as Readings;
    const merged: Record<string, number> = {};
    for (const actuator of actuators) {
      for (const actions of acted) {
        const value = actions[actuator.uid];
        if (value !== undefined) merged[actuator.uid] = value;
      }
    }
    return merged;
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
