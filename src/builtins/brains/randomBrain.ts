import { z } from 'zod';
import type { JsonValue } from '../../domain/shared/json.js';
import { createRng, type Rng } from '../../domain/shared/random.js';
import type {
  AgentInterface,
  Brain,
  BrainInit,
  EvaluationResult,
  TerminalUpdate,
  TurnContext,
} from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { parseBrainState, pendingReturnsSchema, rngStateSchema } from './brainState.js';
import { BrainStateError } from './errors.js';
import { EvaluationLedger, isEvaluating } from './evaluationLedger.js';
import { parseParams } from './parseParams.js';
import { sampleSpace } from './spaceMath.js';

const paramsSchema = z.strictObject({});

const stateSchema = z.strictObject({
  version: z.literal(1),
  rngState: rngStateSchema,
  pendingEvaluationReturns: pendingReturnsSchema,
});

/**
 * `arena:RandomBrain`: every action uniform in its actuator's space (see
 * `sampleSpace`), from the seeded rng. It learns nothing; its evaluation
 * objective is the baseline a learning brain must beat. Takes no params.
 *
 * @example
 * ```ts
 * const brain = new RandomBrain({ name: 'a', params: {}, seed: 1, logger });
 * brain.setup({ sensors: [], actuators: [{ uid: 'x', space: { type: 'Box', low: 0, high: 1 } }], readings: {} });
 * brain.act({}, context); // { x: 0.6011037519201636 }
 * ```
 */
export class RandomBrain implements Brain {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = paramsSchema;

  private readonly seed: number;
  private rng: Rng;
  private agentInterface: AgentInterface | null = null;
  private readonly ledger = new EvaluationLedger();

  constructor(init: BrainInit) {
    parseParams('RandomBrain', RandomBrain.paramsSchema, init.params);
    this.seed = init.seed;
    this.rng = createRng(init.seed);
  }

  setup(agentInterface: AgentInterface): void {
    this.agentInterface = agentInterface;
  }

  act(_readings: Readings, _context: TurnContext): Readings {
    if (this.agentInterface === null) throw new BrainStateError('RandomBrain: act before setup');
    const actions: Record<string, number> = {};
    for (const actuator of this.agentInterface.actuators) {
      actions[actuator.uid] = sampleSpace(actuator.space, this.rng);
    }
    return actions;
  }

  observe(): void {}

  endEpisode(update: TerminalUpdate, context: TurnContext): void {
    if (isEvaluating(context)) this.ledger.record(update.episodeReturn);
  }

  evaluateRollouts(): EvaluationResult {
    return this.ledger.drain();
  }

  saveState(): JsonValue {
    return {
      version: 1,
      rngState: this.rng.state(),
      pendingEvaluationReturns: this.ledger.pending(),
    };
  }

  loadState(state: JsonValue): void {
    const saved = parseBrainState('RandomBrain', stateSchema, state);
    this.rng = createRng(this.seed, saved.rngState);
    this.ledger.restore(saved.pendingEvaluationReturns);
  }
}
