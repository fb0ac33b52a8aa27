import { clipToSpace, type Space } from '../../domain/shared/spaces.js';
import type { ChannelInformation, Readings } from '../../ports/environment.js';
import { spaceFrame } from './spaceMath.js';

interface Frame {
  readonly uid: string;
  readonly center: number;
  readonly halfRange: number;
}

/**
 * A linear policy over normalised readings: for actuator `a`,
 * `z_a = b_a + sum_s W_as * x_s` with `x_s` the reading of sensor `s` mapped
 * from its space to [-1, 1]; the action is `z_a` clipped to [-1, 1] and
 * mapped back into the actuator's space. The parameter vector holds, per
 * actuator in order, its sensor weights and then its bias.
 *
 * @example
 * ```ts
 * const policy = new LinearPolicy(
 *   [{ uid: 's', space: { type: 'Box', low: 0, high: 2 } }],
 *   [{ uid: 'a', space: { type: 'Box', low: 0, high: 1 } }],
 * );
 * policy.parameterCount; // 2 (one weight, one bias)
 * policy.act([0.5, 0], { s: 2 }); // { a: 0.75 }: x = 1, z = 0.5, mapped into [0, 1]
 * ```
 */
export class LinearPolicy {
  readonly parameterCount: number;
  private readonly sensors: readonly Frame[];
  private readonly actuators: readonly (Frame & { readonly space: Space })[];
  private readonly features: Float64Array;

  constructor(sensors: readonly ChannelInformation[], actuators: readonly ChannelInformation[]) {
    this.sensors = sensors.map((sensor) => ({ uid: sensor.uid, ...spaceFrame(sensor.space) }));
    this.actuators = actuators.map((actuator) => ({
      uid: actuator.uid,
      space: actuator.space,
      ...spaceFrame(actuator.space),
    }));
    this.features = new Float64Array(sensors.length);
    this.parameterCount = actuators.length * (sensors.length + 1);
  }

  /** The actions of parameter vector `theta` for `readings` (a missing reading counts as centred). */
  act(theta: readonly number[], readings: Readings): Readings {
    const { features, sensors } = this;
    for (let index = 0; index < sensors.length; index++) {
      const sensor = sensors[index]!;
      const value = readings[sensor.uid];
      features[index] =
        value === undefined || !Number.isFinite(value) || sensor.halfRange === 0
          ? 0
          : Math.max(-1, Math.min(1, (value - sensor.center) / sensor.halfRange));
    }
    const actions: Record<string, number> = {};
    const stride = sensors.length + 1;
    for (let row = 0; row < this.actuators.length; row++) {
      const actuator = this.actuators[row]!;
      const offset = row * stride;
      let z = theta[offset + sensors.length] ?? 0;
      for (let index = 0; index < sensors.length; index++) {
        z += (theta[offset + index] ?? 0) * features[index]!;
      }
      const unit = Math.max(-1, Math.min(1, z));
      actions[actuator.uid] = clipToSpace(
        actuator.space,
        actuator.center + actuator.halfRange * unit,
      );
    }
    return actions;
  }
}
