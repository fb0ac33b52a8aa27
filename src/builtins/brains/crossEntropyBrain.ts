import { z } from 'zod';
import type { JsonValue } from '../../domain/shared/json.js';
import type { AgentInterface, BrainInit, TerminalUpdate, TurnContext } from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import {
  assertSameUids,
  parseBrainState,
  pendingReturnsSchema,
  rngStateSchema,
} from './brainState.js';
import { SeededBrain } from './builtinBrain.js';
import { BrainStateError } from './errors.js';
import { isEvaluating } from './evaluationLedger.js';
import { LinearPolicy } from './linearPolicy.js';
import { parseParams } from './parseParams.js';

const paramsSchema = z.strictObject({
  population: z.int().min(2).max(10_000).optional(),
  elite_fraction: z.number().gt(0).max(1).optional(),
  initial_std: z.number().positive().optional(),
  min_std: z.number().min(0).optional(),
});

const stateSchema = z.strictObject({
  version: z.literal(1),
  sensorUids: z.array(z.string()),
  actuatorUids: z.array(z.string()),
  mean: z.array(z.number()),
  std: z.array(z.number().min(0)),
  generation: z.int().min(0),
  population: z.array(z.array(z.number())),
  /** Training returns of the population so far; `null` is a non-finite return. */
  returns: z.array(z.number().nullable()),
  rngState: rngStateSchema,
  pendingEvaluationReturns: pendingReturnsSchema,
});
type CrossEntropyState = z.infer<typeof stateSchema>;

/**
 * `arena:CrossEntropyBrain`: the cross-entropy method over a `LinearPolicy`.
 *
 * Each generation samples `population` parameter vectors from a diagonal
 * Gaussian (`mean`, `std`), runs each for one training episode, keeps the
 * `elite_fraction` with the highest returns, and refits `mean` and `std`
 * (never below `min_std`) to them. Evaluation and test episodes act with
 * the mean. All randomness comes from the seed; `saveState` carries the
 * distribution, the generation in progress and the rng state.
 *
 * params: `population` (8), `elite_fraction` (0.25), `initial_std` (0.5),
 * `min_std` (0.05).
 *
 * @example
 * ```ts
 * const brain = new CrossEntropyBrain({ name: 'op', params: { population: 8 }, seed: 3, logger });
 * brain.setup(gridInterface);
 * // ... 40 training episodes (5 generations), then evaluation episodes ...
 * brain.evaluateRollouts(); // { metrics: { objective: -0.41, episodes: 2 } }
 * ```
 */
export class CrossEntropyBrain extends SeededBrain {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = paramsSchema;

  private readonly populationSize: number;
  private readonly eliteCount: number;
  private readonly initialStd: number;
  private readonly minStd: number;
  private policy: LinearPolicy | null = null;
  private state: CrossEntropyState | null = null;
  /** State loaded before `setup`, checked against the interface there. */
  private loaded: CrossEntropyState | null = null;

  constructor(init: BrainInit) {
    super(init.seed);
    const params = parseParams('CrossEntropyBrain', CrossEntropyBrain.paramsSchema, init.params);
    this.populationSize = params.population ?? 8;
    this.eliteCount = Math.max(
      1,
      Math.round(this.populationSize * (params.elite_fraction ?? 0.25)),
    );
    this.initialStd = params.initial_std ?? 0.5;
    this.minStd = params.min_std ?? 0.05;
  }

  setup(agentInterface: AgentInterface): void {
    this.policy = new LinearPolicy(agentInterface.sensors, agentInterface.actuators);
    const sensorUids = agentInterface.sensors.map((sensor) => sensor.uid);
    const actuatorUids = agentInterface.actuators.map((actuator) => actuator.uid);
    if (this.loaded !== null) {
      this.adopt(this.loaded, sensorUids, actuatorUids);
      return;
    }
    if (this.state !== null) {
      // A new phase with the same interface keeps learning where it stopped.
      assertSameUids('CrossEntropyBrain', 'sensors', this.state.sensorUids, sensorUids);
      assertSameUids('CrossEntropyBrain', 'actuators', this.state.actuatorUids, actuatorUids);
      return;
    }
    const size = this.policy.parameterCount;
    this.state = {
      version: 1,
      sensorUids,
      actuatorUids,
      mean: new Array<number>(size).fill(0),
      std: new Array<number>(size).fill(this.initialStd),
      generation: 0,
      population: [],
      returns: [],
      rngState: this.rng.state(),
      pendingEvaluationReturns: [],
    };
  }

  act(readings: Readings, context: TurnContext): Readings {
    const { policy, state } = this.requireSetup();
    if (isEvaluating(context)) return policy.act(state.mean, readings);
    if (state.population.length === 0) this.samplePopulation(state);
    return policy.act(state.population[state.returns.length]!, readings);
  }

  override endEpisode(update: TerminalUpdate, context: TurnContext): void {
    const { state } = this.requireSetup();
    if (isEvaluating(context)) {
      this.ledger.record(update.episodeReturn);
      return;
    }
    if (state.population.length === 0) return;
    const episodeReturn = update.episodeReturn;
    state.returns.push(Number.isFinite(episodeReturn) ? episodeReturn : null);
    if (state.returns.length === state.population.length) this.refit(state);
  }

  /** The mean of the policy distribution: the parameters evaluation episodes act with. */
  meanParameters(): readonly number[] {
    return [...this.requireSetup().state.mean];
  }

  saveState(): JsonValue {
    if (this.state === null) {
      if (this.loaded !== null) return structuredClone(this.loaded);
      throw new BrainStateError('CrossEntropyBrain: saveState before setup');
    }
    return structuredClone({
      ...this.state,
      rngState: this.rng.state(),
      pendingEvaluationReturns: this.ledger.pending(),
    });
  }

  loadState(saved: JsonValue): void {
    const state = structuredClone(parseBrainState('CrossEntropyBrain', stateSchema, saved));
    const size = state.actuatorUids.length * (state.sensorUids.length + 1);
    if (state.mean.length !== size || state.std.length !== size) {
      throw new BrainStateError(
        `CrossEntropyBrain saved state: mean and std must have ${size} entries, got ${state.mean.length} and ${state.std.length}`,
      );
    }
    if (state.population.some((member) => member.length !== size)) {
      throw new BrainStateError(
        `CrossEntropyBrain saved state.population: every member must have ${size} entries`,
      );
    }
    if (state.returns.length >= Math.max(state.population.length, 1)) {
      throw new BrainStateError(
        'CrossEntropyBrain saved state.returns: more returns than population members left to run',
      );
    }
    if (this.policy === null) {
      this.loaded = state;
      return;
    }
    const current = this.requireSetup().state;
    this.adopt(state, current.sensorUids, current.actuatorUids);
  }

  private adopt(
    state: CrossEntropyState,
    sensorUids: readonly string[],
    actuatorUids: readonly string[],
  ): void {
    assertSameUids('CrossEntropyBrain', 'sensors', state.sensorUids, sensorUids);
    assertSameUids('CrossEntropyBrain', 'actuators', state.actuatorUids, actuatorUids);
    this.state = state;
    this.loaded = null;
    this.restoreRng(state.rngState);
    this.ledger.restore(state.pendingEvaluationReturns);
  }

  private samplePopulation(state: CrossEntropyState): void {
    state.population = Array.from({ length: this.populationSize }, () =>
      state.mean.map((mean, index) => mean + state.std[index]! * this.rng.normal()),
    );
    state.returns = [];
  }

  private refit(state: CrossEntropyState): void {
    const ranked = state.population
      .map((member, index) => ({ member, score: state.returns[index] ?? Number.NEGATIVE_INFINITY }))
      .sort((left, right) => right.score - left.score)
      .slice(0, this.eliteCount)
      .map(({ member }) => member);
    state.mean = state.mean.map(
      (_, index) => ranked.reduce((sum, member) => sum + member[index]!, 0) / ranked.length,
    );
    state.std = state.mean.map((mean, index) => {
      const variance =
        ranked.reduce((sum, member) => sum + (member[index]! - mean) ** 2, 0) / ranked.length;
      return Math.max(Math.sqrt(variance), this.minStd);
    });
    state.population = [];
    state.returns = [];
    state.generation++;
  }

  private requireSetup(): { policy: LinearPolicy; state: CrossEntropyState } {
    if (this.policy === null || this.state === null) {
      throw new BrainStateError('CrossEntropyBrain: used before setup');
    }
    return { policy: this.policy, state: this.state };
  }
}
