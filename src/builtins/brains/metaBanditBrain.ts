import { z } from 'zod';
import type { JsonValue } from '../../domain/shared/json.js';
import { clipToSpace } from '../../domain/shared/spaces.js';
import type { AgentInterface, BrainInit, TerminalUpdate, TurnContext } from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { parseBrainState, pendingReturnsSchema, rngStateSchema } from './brainState.js';
import { SeededBrain } from './builtinBrain.js';
import { BrainStateError } from './errors.js';
import { isEvaluating } from './evaluationLedger.js';
import { parseParams } from './parseParams.js';
import { spaceFrame } from './spaceMath.js';

const DEFAULT_FACTORS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];

const paramsSchema = z.strictObject({
  factors: z.array(z.number().min(0)).min(1).optional(),
  epsilon: z.number().min(0).max(1).optional(),
});

const stateSchema = z.strictObject({
  version: z.literal(1),
  factors: z.array(z.number()),
  pulls: z.array(z.int().min(0)),
  totals: z.array(z.number()),
  pendingArm: z.int().min(0).nullable(),
  rngState: rngStateSchema,
  pendingEvaluationReturns: pendingReturnsSchema,
});

/** The reward UID under which the controller hands the operating return to the meta agent. */
export const META_RETURN_REWARD = '.return';

/**
 * `arena:MetaBanditBrain`: a meta agent's brain for definition actions. Each
 * arm is a scale factor applied to every definition actuator's initial
 * reading (for a zero reading, to the centre of its bounds), clipped into the
 * actuator's bounds: with the discovered bounds `[0, 2v]`, factor 2 is the
 * upper bound. It acts once per start request; every terminal update that
 * follows credits the `.return` reward (or else the episode return) to the
 * arm it chose. Untried arms go first, in order; then epsilon-greedy on the
 * mean return. Evaluation and test episodes pick the best arm and learn
 * nothing.
 *
 * params: `factors` ([0.25, 0.5, ..., 2]), `epsilon` (0.1).
 *
 * @example
 * ```ts
 * const brain = new MetaBanditBrain({ name: 'meta', params: { factors: [0.5, 1] }, seed: 1, logger });
 * brain.setup(definitionInterface); // readings { 'midas.definition./der_params/midasmv/mapping/6/0/1': 2.2 }
 * brain.act(definitionInterface.readings, context);
 * // { 'midas.definition./der_params/midasmv/mapping/6/0/1': 1.1 } (the first untried arm, 0.5)
 * ```
 */
export class MetaBanditBrain extends SeededBrain {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = paramsSchema;

  private readonly factors: readonly number[];
  private readonly epsilon: number;
  private agentInterface: AgentInterface | null = null;
  private pulls: number[];
  private totals: number[];
  private pendingArm: number | null = null;

  constructor(init: BrainInit) {
    super(init.seed);
    const params = parseParams('MetaBanditBrain', MetaBanditBrain.paramsSchema, init.params);
    this.factors = params.factors ?? DEFAULT_FACTORS;
    this.epsilon = params.epsilon ?? 0.1;
    this.pulls = this.factors.map(() => 0);
    this.totals = this.factors.map(() => 0);
  }

  setup(agentInterface: AgentInterface): void {
    this.agentInterface = agentInterface;
  }

  act(readings: Readings, context: TurnContext): Readings {
    const agentInterface = this.agentInterface;
    if (agentInterface === null) throw new BrainStateError('MetaBanditBrain: act before setup');
    const arm = isEvaluating(context) ? this.bestArm() : this.chooseArm();
    this.pendingArm = isEvaluating(context) ? null : arm;
    const factor = this.factors[arm]!;
    const actions: Record<string, number> = {};
    for (const actuator of agentInterface.actuators) {
      const initial = readings[actuator.uid] ?? agentInterface.readings[actuator.uid] ?? 0;
      const base = initial === 0 ? spaceFrame(actuator.space).center : initial;
      actions[actuator.uid] = clipToSpace(actuator.space, base * factor);
    }
    return actions;
  }

  override endEpisode(update: TerminalUpdate, context: TurnContext): void {
    const reward = terminalReturn(update);
    if (isEvaluating(context)) {
      this.ledger.record(reward);
      return;
    }
    if (this.pendingArm === null || !Number.isFinite(reward)) return;
    this.pulls[this.pendingArm]!++;
    this.totals[this.pendingArm]! += reward;
  }

  /** Each arm's factor, how often it was credited, and its mean return (`null` if never). */
  armStatistics(): { factor: number; pulls: number; meanReturn: number | null }[] {
    return this.factors.map((factor, arm) => ({
      factor,
      pulls: this.pulls[arm]!,
      meanReturn: this.pulls[arm]! === 0 ? null : this.totals[arm]! / this.pulls[arm]!,
    }));
  }

  saveState(): JsonValue {
    return {
      version: 1,
      factors: [...this.factors],
      pulls: [...this.pulls],
      totals: [...this.totals],
      pendingArm: this.pendingArm,
      rngState: this.rng.state(),
      pendingEvaluationReturns: this.ledger.pending(),
    };
  }

  loadState(state: JsonValue): void {
    const saved = parseBrainState('MetaBanditBrain', stateSchema, state);
    const sameFactors =
      saved.factors.length === this.factors.length &&
      saved.factors.every((factor, arm) => factor === this.factors[arm]);
    if (!sameFactors || saved.pulls.length !== saved.factors.length) {
      throw new BrainStateError(
        `MetaBanditBrain saved state was learned for factors [${saved.factors.join(', ')}], but params.factors are [${this.factors.join(', ')}]`,
      );
    }
    if (saved.totals.length !== saved.factors.length) {
      throw new BrainStateError(
        'MetaBanditBrain saved state.totals: expected one total per factor',
      );
    }
    if (saved.pendingArm !== null && saved.pendingArm >= this.factors.length) {
      throw new BrainStateError(
        `MetaBanditBrain saved state.pendingArm: expected an arm below ${this.factors.length}`,
      );
    }
    this.pulls = [...saved.pulls];
    this.totals = [...saved.totals];
    this.pendingArm = saved.pendingArm;
    this.restoreRng(saved.rngState);
    this.ledger.restore(saved.pendingEvaluationReturns);
  }

  private chooseArm(): number {
    const untried = this.pulls.indexOf(0);
    if (untried !== -1) return untried;
    if (this.rng.next() < this.epsilon) return this.rng.int(this.factors.length);
    return this.bestArm();
  }

  /** The arm with the highest mean return; untried arms count as worst, ties go to the first. */
  private bestArm(): number {
    let best = 0;
    let bestMean = Number.NEGATIVE_INFINITY;
    this.pulls.forEach((pulls, arm) => {
      const mean = pulls === 0 ? Number.NEGATIVE_INFINITY : this.totals[arm]! / pulls;
      if (mean > bestMean) {
        best = arm;
        bestMean = mean;
      }
    });
    return best;
  }
}

function terminalReturn(update: TerminalUpdate): number {
  for (const [uid, value] of Object.entries(update.rewards)) {
    if (uid === META_RETURN_REWARD || uid.endsWith(META_RETURN_REWARD)) return value;
  }
  return update.episodeReturn;
}
