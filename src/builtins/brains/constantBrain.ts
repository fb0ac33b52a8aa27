import { z } from 'zod';
import type { JsonValue } from '../../domain/shared/json.js';
import { clipToSpace } from '../../domain/shared/spaces.js';
import type { AgentInterface, BrainInit, TurnContext } from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { parseBrainState, pendingReturnsSchema } from './brainState.js';
import { BuiltinBrain } from './builtinBrain.js';
import { BrainParamsError, BrainStateError } from './errors.js';
import { parseParams } from './parseParams.js';

const paramsSchema = z.strictObject({
  values: z.record(z.string(), z.number()).optional(),
  default: z.number().optional(),
});

const stateSchema = z.strictObject({
  version: z.literal(1),
  pendingEvaluationReturns: pendingReturnsSchema,
});

/**
 * `arena:ConstantBrain`: the same action every turn. `params.values` maps
 * actuator UIDs to values; any other actuator gets `params.default`, or
 * without it `0` clipped into its space (for the grid: no curtailment, no
 * reactive power). Every value is clipped into its actuator's space.
 *
 * @example
 * ```ts
 * const brain = new ConstantBrain({ name: 'a', params: { values: { 'midas.pv_curtail.6': 0.2 } }, seed: 1, logger });
 * brain.setup(gridInterface);
 * brain.act(readings, context); // { 'midas.pv_curtail.6': 0.2, 'midas.pv_q.6': 0 }
 * ```
 */
export class ConstantBrain extends BuiltinBrain {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = paramsSchema;

  private readonly values: Readonly<Record<string, number>>;
  private readonly fallback: number;
  private actions: Readings | null = null;

  constructor(init: BrainInit) {
    super();
    const params = parseParams('ConstantBrain', ConstantBrain.paramsSchema, init.params);
    this.values = params.values ?? {};
    this.fallback = params.default ?? 0;
  }

  /** @throws BrainParamsError when `params.values` names an actuator the agent does not have. */
  setup(agentInterface: AgentInterface): void {
    const known = new Set(agentInterface.actuators.map((actuator) => actuator.uid));
    const unknown = Object.keys(this.values).filter((uid) => !known.has(uid));
    if (unknown.length > 0) {
      throw new BrainParamsError(
        `ConstantBrain params.values: no actuator ${unknown.map((uid) => `'${uid}'`).join(', ')}, expected one of ${[...known].join(', ')}`,
      );
    }
    const actions: Record<string, number> = {};
    for (const actuator of agentInterface.actuators) {
      actions[actuator.uid] = clipToSpace(
        actuator.space,
        this.values[actuator.uid] ?? this.fallback,
      );
    }
    this.actions = actions;
  }

  act(_readings: Readings, _context: TurnContext): Readings {
    if (this.actions === null) throw new BrainStateError('ConstantBrain: act before setup');
    return { ...this.actions };
  }

  saveState(): JsonValue {
    return { version: 1, pendingEvaluationReturns: this.ledger.pending() };
  }

  loadState(state: JsonValue): void {
    const saved = parseBrainState('ConstantBrain', stateSchema, state);
    this.ledger.restore(saved.pendingEvaluationReturns);
  }
}
