import { z } from 'zod';
import type { JsonObject } from '../../domain/shared/json.js';
import type { Objective } from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { GRID_REWARDS } from '../grid/channels.js';
import { ObjectiveRewardError } from './errors.js';
import { parseParams } from './parseParams.js';

function finiteReward(objective: string, uid: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ObjectiveRewardError(
      `${objective}: reward '${uid}' is ${String(value)}, expected a finite number`,
    );
  }
  return value;
}

const sumParamsSchema = z.strictObject({});

/**
 * `arena:SumObjective`: the sum of every reward value. Takes no params.
 *
 * @throws ObjectiveRewardError naming a reward that is not a finite number.
 * @example
 * ```ts
 * new SumObjective({ params: {} }).evaluate({ a: -1, b: 0.5 }); // -0.5
 * ```
 */
export class SumObjective implements Objective {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = sumParamsSchema;

  constructor(init: { params: JsonObject }) {
    parseParams('SumObjective', SumObjective.paramsSchema, init.params);
  }

  evaluate(rewards: Readings): number {
    let total = 0;
    for (const [uid, value] of Object.entries(rewards)) {
      total += finiteReward('SumObjective', uid, value);
    }
    return total;
  }
}

/** Default weights of `GridObjective`, by grid reward suffix. */
export const GRID_OBJECTIVE_WEIGHTS: Readonly<Record<string, number>> = {
  [GRID_REWARDS.voltageViolation]: 100,
  [GRID_REWARDS.lineOverload]: 10,
  [GRID_REWARDS.curtailedEnergy]: 1,
  [GRID_REWARDS.pvEnergy]: 0,
};

const gridParamsSchema = z.strictObject({
  weights: z.partialRecord(z.enum(Object.values(GRID_REWARDS)), z.number()).optional(),
});

/**
 * `arena:GridObjective`: a weighted sum of the grid's rewards
 * (`<uid>.reward.<suffix>`), weights by suffix: by default voltage
 * violation 100 (per pu outside the band per step), line overload 10,
 * curtailed energy 1 (per MWh), PV energy 0. `params.weights` overrides some
 * of them. Rewards that are not grid rewards count with weight 0.
 *
 * @example
 * ```ts
 * new GridObjective({ params: {} }).evaluate({
 *   'midas.reward.voltage_violation': -0.01,
 *   'midas.reward.curtailed_energy': -0.2,
 * }); // -1.2
 * ```
 */
export class GridObjective implements Objective {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = gridParamsSchema;

  private readonly weights: Readonly<Record<string, number>>;

  constructor(init: { params: JsonObject }) {
    const params = parseParams('GridObjective', GridObjective.paramsSchema, init.params);
    this.weights = { ...GRID_OBJECTIVE_WEIGHTS, ...params.weights };
  }

  evaluate(rewards: Readings): number {
    let total = 0;
    for (const [uid, value] of Object.entries(rewards)) {
      const marker = uid.lastIndexOf('.reward.');
      const weight = marker === -1 ? 0 : (this.weights[uid.slice(marker + 8)] ?? 0);
      if (weight !== 0) total += weight * finiteReward('GridObjective', uid, value);
    }
    return total;
  }
}
