import { z } from 'zod';
import type { JsonValue } from '../../domain/shared/json.js';
import type { AgentInterface, BrainInit, TurnContext } from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { parseBrainState, pendingReturnsSchema, rngStateSchema } from './brainState.js';
import { SeededBrain } from './builtinBrain.js';
import { BrainStateError } from './errors.js';
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
export class RandomBrain extends SeededBrain {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = paramsSchema;

  private agentInterface: AgentInterface | null = null;

  constructor(init: BrainInit) {
    super(init.seed);
    parseParams('RandomBrain', RandomBrain.paramsSchema, init.params);
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

  saveState(): JsonValue {
    return {
      version: 1,
      rngState: this.rng.state(),
      pendingEvaluationReturns: this.ledger.pending(),
    };
  }

  loadState(state: JsonValue): void {
    const saved = parseBrainState('RandomBrain', stateSchema, state);
    this.restoreRng(saved.rngState);
    this.ledger.restore(saved.pendingEvaluationReturns);
  }
}
