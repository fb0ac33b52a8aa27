import { subKeyOrder } from '../../src/domain/definition/keyOrder.js';
import { proposeDefinition } from '../../src/domain/definition/proposeDefinition.js';
import type { KeyOrder, ProposedDefinition } from '../../src/domain/definition/types.js';
import type { JsonObject, JsonValue } from '../../src/domain/shared/json.js';
import { createRng, type Rng } from '../../src/domain/shared/random.js';
import type {
  AgentInterface,
  Brain,
  BrainInit,
  EvaluationResult,
  Muscle,
  Objective,
  TerminalUpdate,
  TurnContext,
} from '../../src/ports/agent.js';
import type {
  Environment,
  EnvironmentInit,
  EnvironmentStart,
  EnvironmentStep,
  Readings,
} from '../../src/ports/environment.js';

/** Every call any fake component received, in order. */
export type CallLog = string[];

/**
 * A one-dimensional world for controller tests: the state `x` moves by the
 * action `u` each step; the reward is `-(x - target)^2` where `target` comes
 * from the scenario; done after `horizon` steps (or never, when 0).
 */
export class LineEnvironment implements Environment {
  readonly uid: string;
  private readonly params: JsonObject;
  private readonly keyOrder: KeyOrder;
  private x = 0;
  private steps = 0;
  private target = 0;
  private horizon = 0;
  private resets = 0;
  private noise = 0;
  private readonly seed: number;
  private rng: Rng;
  startedWith: JsonObject | null = null;
  static log: CallLog = [];
  static rewardOverride: ((step: number) => number) | null = null;
  /** Throw (a simulated crash) at this global step count, counted across instances. */
  static crashAtStep: number | null = null;
  static globalSteps = 0;

  constructor(init: EnvironmentInit) {
    this.uid = init.uid;
    this.params = init.params;
    this.keyOrder = init.keyOrder;
    this.seed = init.seed;
    this.rng = createRng(init.seed);
    LineEnvironment.log.push(`${this.uid}.construct`);
  }

  proposeDefinition(): ProposedDefinition | null {
    LineEnvironment.log.push(`${this.uid}.proposeDefinition`);
    const scenario = this.params.scenario as JsonObject | undefined;
    if (scenario === undefined) return null;
    return proposeDefinition(this.uid, scenario, {
      definition: this.params.definition,
      keyOrder: subKeyOrder(this.keyOrder, '/scenario'),
    });
  }

  start(params: JsonObject): EnvironmentStart {
    LineEnvironment.log.push(`${this.uid}.start`);
    this.startedWith = params;
    const scenario = (params.scenario ?? {}) as { target?: number };
    this.target = scenario.target ?? 0;
    this.horizon = (params.horizon as number | undefined) ?? 0;
    this.noise = (params.noise as number | undefined) ?? 0;
    this.x = 0;
    this.steps = 0;
    return this.interfaceNow();
  }

  step(actions: Readings): EnvironmentStep {
    LineEnvironment.log.push(`${this.uid}.step`);
    if (this.startedWith === null) throw new Error(`${this.uid} stepped before it was started`);
    LineEnvironment.globalSteps++;
    if (LineEnvironment.globalSteps === LineEnvironment.crashAtStep) {
      throw new Error('simulated crash');
    }
    this.x += (actions[`${this.uid}.u`] ?? 0) + this.noise * this.rng.normal();
    this.steps++;
    const reward = LineEnvironment.rewardOverride?.(this.steps) ?? -((this.x - this.target) ** 2);
    return {
      readings: { [`${this.uid}.x`]: this.x },
      rewards: { [`${this.uid}.reward`]: reward },
      done: this.horizon > 0 && this.steps >= this.horizon,
    };
  }

  reset(): EnvironmentStart {
    LineEnvironment.log.push(`${this.uid}.reset`);
    this.resets++;
    this.x = 0;
    this.steps = 0;
    return this.interfaceNow();
  }

  /** Its sensor and actuator, and the reading of where it stands now. */
  private interfaceNow(): EnvironmentStart {
    return {
      sensors: [{ uid: `${this.uid}.x`, space: { type: 'Box', low: -100, high: 100 } }],
      actuators: [{ uid: `${this.uid}.u`, space: { type: 'Box', low: -1, high: 1 } }],
      readings: { [`${this.uid}.x`]: this.x },
    };
  }

  close(): void {
    LineEnvironment.log.push(`${this.uid}.close`);
  }

  saveState(): JsonValue {
    return { resets: this.resets, rng: this.rng.state() };
  }

  loadState(state: JsonValue): void {
    const saved = state as { resets: number; rng: number };
    this.resets = saved.resets;
    this.rng = createRng(this.seed, saved.rng);
  }
}

/**
 * A brain that plays fixed actions and reports scripted evaluation metrics:
 * `params.action` for every actuator; `params.metrics[i]` at the i-th evaluation.
 */
export class ScriptedBrain implements Brain {
  private agentInterface: AgentInterface | null = null;
  private evaluations = 0;
  private readonly action: number | 'random';
  private readonly metrics: readonly (number | null)[];
  private readonly seed: number;
  private rng: Rng;
  private readonly failAct: boolean;
  /** Unclipped values to play, one per `act` (the last repeats): to make a meta decision fail its checks. */
  private readonly actionSequence: readonly number[] | null;
  readonly name: string;
  returns: number[] = [];
  terminal: TerminalUpdate[] = [];
  acts = 0;
  static instances: ScriptedBrain[] = [];

  constructor(init: BrainInit) {
    this.name = init.name;
    this.action = (init.params.action as number | 'random' | undefined) ?? 0.5;
    this.seed = init.seed;
    this.rng = createRng(init.seed);
    this.metrics = (init.params.metrics as (number | null)[] | undefined) ?? [];
    this.failAct = init.params.fail_act === true;
    this.actionSequence = (init.params.actions as number[] | undefined) ?? null;
    ScriptedBrain.instances.push(this);
  }

  setup(agentInterface: AgentInterface): void {
    LineEnvironment.log.push(`${this.name}.setup`);
    this.agentInterface = agentInterface;
  }

  act(_readings: Readings, _context: TurnContext): Readings {
    this.acts++;
    if (this.failAct) throw new Error(`${this.name} failed to act`);
    const actions: Record<string, number> = {};
    if (this.actionSequence !== null) {
      const value = this.actionSequence[Math.min(this.acts, this.actionSequence.length) - 1] ?? 0;
      for (const actuator of this.agentInterface?.actuators ?? []) actions[actuator.uid] = value;
      return actions;
    }
    for (const actuator of this.agentInterface?.actuators ?? []) {
      const wanted = this.action === 'random' ? this.rng.uniform(-1, 1) : this.action;
      actions[actuator.uid] =
        actuator.space.type === 'Box'
          ? Math.min(actuator.space.high, Math.max(actuator.space.low, wanted))
          : (actuator.space.values[0] ?? 0);
    }
    return actions;
  }

  observe(): void {}

  endEpisode(update: TerminalUpdate): void {
    this.terminal.push(update);
    this.returns.push(update.episodeReturn);
  }

  evaluateRollouts(): EvaluationResult {
    const value = this.metrics[Math.min(this.evaluations, this.metrics.length - 1)];
    this.evaluations++;
    return { metrics: value === null || value === undefined ? {} : { objective: value } };
  }

  saveState(): JsonValue {
    return { evaluations: this.evaluations, rng: this.rng.state() };
  }

  loadState(state: JsonValue): void {
    const saved = state as { evaluations: number; rng?: number };
    this.evaluations = saved.evaluations;
    if (saved.rng !== undefined) this.rng = createRng(this.seed, saved.rng);
  }
}

export const passMuscle = (): Muscle => ({ act: (proposal) => proposal });

export const sumObjective = (): Objective => ({
  evaluate: (rewards) => {
    let total = 0;
    for (const value of Object.values(rewards)) total += value;
    return total;
  },
});

/** Built-ins for controller tests. */
export const fakeBuiltins: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  ['arena:LineEnvironment', LineEnvironment],
  ['arena:ScriptedBrain', ScriptedBrain],
  ['arena:DefaultMuscle', passMuscle],
  ['arena:SumObjective', sumObjective],
]);

export function resetFakes(): void {
  LineEnvironment.log = [];
  LineEnvironment.rewardOverride = null;
  LineEnvironment.crashAtStep = null;
  LineEnvironment.globalSteps = 0;
  ScriptedBrain.instances = [];
}
