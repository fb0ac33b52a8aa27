import { ArenaError } from '../../domain/shared/errors.js';
import type { JsonValue } from '../../domain/shared/json.js';
import type {
  AgentInterface,
  Brain,
  EvaluationResult,
  Muscle,
  Objective,
  StepFeedback,
  TerminalUpdate,
  TurnContext,
} from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';

/**
 * An agent's action, reward or evaluation broke the agent contract.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'AGENT_CONTRACT'); // true when `error` is a AgentContractError
 * error instanceof AgentContractError && error.name; // 'AgentContractError'
 * ```
 */
export class AgentContractError extends ArenaError {
  constructor(message: string) {
    super('AGENT_CONTRACT', message);
  }
}

/**
 * One agent as the controller drives it: a brain (learns, owns state), a
 * muscle (turns the brain's proposal into actuator values) and an objective
 * (reduces a step's rewards to one scalar).
 *
 * @example
 * ```ts
 * const agent = new AgentRuntime('operator', brain, muscle, objective);
 * await agent.setup({ sensors, actuators, readings });
 * const actions = await agent.act(readings, context); // { 'grid.pv.6.curtail': 0.1 }
 * ```
 */
export class AgentRuntime {
  private agentInterface: AgentInterface | null = null;
  private actuatorUids: ReadonlySet<string> = new Set();
  private carriedState: JsonValue = null;

  constructor(
    readonly name: string,
    readonly brain: Brain,
    readonly muscle: Muscle,
    readonly objective: Objective,
  ) {}

  /** The interface the agent was last set up with. */
  get interface(): AgentInterface {
    if (this.agentInterface === null) {
      throw new AgentContractError(`agent "${this.name}" was used before it was set up`);
    }
    return this.agentInterface;
  }

  /** Set up with an interface; a state carried from an earlier phase is loaded right after. */
  async setup(agentInterface: AgentInterface): Promise<void> {
    this.agentInterface = agentInterface;
    this.actuatorUids = new Set(agentInterface.actuators.map((actuator) => actuator.uid));
    await this.brain.setup(agentInterface);
    if (this.carriedState !== null) {
      this.loadState(this.carriedState);
      this.carriedState = null;
    }
  }

  /** Carry a brain state from an earlier phase: it is loaded at the next `setup`. */
  carryState(state: JsonValue): void {
    this.carriedState = state;
  }

  /** Ask the brain, let the muscle shape it, and check every value is a finite actuator value. */
  async act(readings: Readings, context: TurnContext): Promise<Readings> {
    const proposal = await this.brain.act(readings, context);
    const actions = await this.muscle.act(proposal, this.interface, context);
    for (const uid in actions) {
      const value = actions[uid];
      if (!this.actuatorUids.has(uid)) {
        throw new AgentContractError(`agent "${this.name}" acted on unknown actuator "${uid}"`);
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new AgentContractError(
          `agent "${this.name}" returned a non-finite value for actuator "${uid}": ${String(value)}`,
        );
      }
    }
    return actions;
  }

  /** The objective's scalar for one step's rewards; rewards must be scalar and finite. */
  async objectiveOf(rewards: Readings): Promise<number> {
    for (const uid in rewards) {
      const value = rewards[uid];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new AgentContractError(
          `reward "${uid}" for agent "${this.name}" must be a finite scalar, got ${describe(value)}`,
        );
      }
    }
    const value = await this.objective.evaluate(rewards);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new AgentContractError(
        `the objective of agent "${this.name}" returned ${describe(value)}, expected a finite number`,
      );
    }
    return value;
  }

  async observe(feedback: StepFeedback, context: TurnContext): Promise<void> {
    await this.brain.observe(feedback, context);
  }

  async endEpisode(update: TerminalUpdate, context: TurnContext): Promise<void> {
    await this.brain.endEpisode(update, context);
  }

  /** The brain's evaluation metrics; every metric must be a finite number. */
  async evaluateRollouts(): Promise<EvaluationResult> {
    const result = await this.brain.evaluateRollouts();
    for (const [metric, value] of Object.entries(result.metrics)) {
      if (typeof value !== 'number') {
        throw new AgentContractError(
          `agent "${this.name}" reported metric "${metric}" as ${describe(value)}, expected a number`,
        );
      }
    }
    return result;
  }

  saveState(): JsonValue {
    return this.brain.saveState ? this.brain.saveState() : null;
  }

  loadState(state: JsonValue): void {
    if (state !== null && this.brain.loadState) this.brain.loadState(state);
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `a list (${JSON.stringify(value)})`;
  return typeof value === 'number' ? String(value) : `${typeof value} ${JSON.stringify(value)}`;
}
