import { z } from 'zod';
import { clipToSpace } from '../../domain/shared/spaces.js';
import type { AgentInterface, BrainInit, Muscle, TurnContext } from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { MuscleProposalError } from './errors.js';
import { parseParams } from './parseParams.js';

const paramsSchema = z.strictObject({});

/**
 * `arena:DefaultMuscle`: passes a brain's proposal on, clipped into each
 * actuator's space (a Box to its bounds, a Discrete to its nearest value).
 * Keys that name no actuator are dropped. Takes no params.
 *
 * @throws MuscleProposalError when the proposal leaves out an actuator or
 * proposes a value that is not a finite number.
 * @example
 * ```ts
 * new DefaultMuscle(init).act({ 'midas.pv_curtail.6': 1.7 }, gridInterfaceWithOnlyCurtailment, context);
 * // { 'midas.pv_curtail.6': 1 }
 * ```
 */
export class DefaultMuscle implements Muscle {
  /** The zod schema of `params`: the constructor reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = paramsSchema;

  constructor(init: BrainInit) {
    parseParams('DefaultMuscle', DefaultMuscle.paramsSchema, init.params);
  }

  act(proposal: Readings, agentInterface: AgentInterface, _context: TurnContext): Readings {
    const actions: Record<string, number> = {};
    for (const actuator of agentInterface.actuators) {
      const value = proposal[actuator.uid];
      if (value === undefined) {
        throw new MuscleProposalError(`the brain proposed no value for actuator '${actuator.uid}'`);
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new MuscleProposalError(
          `the brain proposed ${String(value)} for actuator '${actuator.uid}', expected a finite number`,
        );
      }
      actions[actuator.uid] = clipToSpace(actuator.space, value);
    }
    return actions;
  }
}
