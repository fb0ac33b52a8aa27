import type { Space } from '../../domain/shared/spaces.js';
import type { ActuatorInformation, SensorInformation } from '../../ports/environment.js';
import type { GridModel } from './scenario.js';

/** Voltage sensors read in this range; a power flow outside it saturates the reading. */
export const VOLTAGE_SENSOR_SPACE: Space = { type: 'Box', low: 0.8, high: 1.2 };
/** Line loading sensors read up to 500 %; beyond that the reading saturates. */
export const LOADING_SENSOR_SPACE: Space = { type: 'Box', low: 0, high: 5 };
const UNIT_INTERVAL: Space = { type: 'Box', low: 0, high: 1 };

/** The suffixes of the grid's reward UIDs (`<uid>.reward.<suffix>`). */
export const GRID_REWARDS = {
  voltageViolation: 'voltage_violation',
  lineOverload: 'line_overload',
  curtailedEnergy: 'curtailed_energy',
  pvEnergy: 'pv_energy',
} as const;

/**
 * The UIDs and spaces of a grid's sensors, actuators and rewards, computed
 * once per world so stepping only fills values.
 *
 * - sensors: `<uid>.bus.<bus>.vm_pu` (non-slack buses, by bus number),
 *   `<uid>.line.<from>-<to>.loading` (declared line order),
 *   `<uid>.pv.<unit>.available_mw`, `<uid>.time_of_day` (fraction of the day);
 * - actuators per PV unit: `<uid>.pv_curtail.<unit>` (fraction 0..1) and
 *   `<uid>.pv_q.<unit>` (MVAr within `±reactive_power_ratio * peak`,
 *   positive injects);
 * - rewards: `<uid>.reward.<suffix>` for each of `GRID_REWARDS`.
 *
 * A PV unit is named by its bus (`6`), and by `6.1`, `6.2`... for further
 * units on the same bus.
 */
export interface GridChannels {
  readonly sensors: readonly SensorInformation[];
  readonly actuators: readonly ActuatorInformation[];
  /** Tree indices of the voltage sensors' buses, aligned with `voltageUids`. */
  readonly voltageBuses: Int32Array;
  readonly voltageUids: readonly string[];
  /** Tree indices of the downstream buses of the lines, aligned with `loadingUids`. */
  readonly loadingBuses: Int32Array;
  readonly loadingUids: readonly string[];
  readonly availableUids: readonly string[];
  readonly curtailmentUids: readonly string[];
  readonly reactiveUids: readonly string[];
  readonly reactiveLimits: Float64Array;
  readonly timeOfDayUid: string;
  readonly rewardUids: { readonly [key in keyof typeof GRID_REWARDS]: string };
}

/**
 * Name every channel of the grid `model` for environment `uid`.
 *
 * @example
 * ```ts
 * describeChannels('midas', model).actuators.map((actuator) => actuator.uid);
 * // ['midas.pv_curtail.6', 'midas.pv_q.6']
 * ```
 */
export function describeChannels(uid: string, model: GridModel): GridChannels {
  const { feeder } = model;
  const busOrder = feeder.busIds
    .map((busId, bus) => ({ busId, bus }))
    .filter(({ bus }) => bus !== 0)
    .sort((left, right) => left.busId - right.busId);
  const voltageUids = busOrder.map(({ busId }) => `${uid}.bus.${busId}.vm_pu`);
  const loadingUids = feeder.lines.map((line) => `${uid}.line.${line.from}-${line.to}.loading`);
  const availableUids = model.pvUnits.map((unit) => `${uid}.pv.${unit.label}.available_mw`);
  const curtailmentUids = model.pvUnits.map((unit) => `${uid}.pv_curtail.${unit.label}`);
  const reactiveUids = model.pvUnits.map((unit) => `${uid}.pv_q.${unit.label}`);
  const reactiveLimits = Float64Array.from(
    model.pvUnits,
    (unit) => unit.peakMw * model.reactivePowerRatio,
  );
  const timeOfDayUid = `${uid}.time_of_day`;

  const sensors: SensorInformation[] = [
    ...voltageUids.map((sensorUid) => ({ uid: sensorUid, space: VOLTAGE_SENSOR_SPACE })),
    ...loadingUids.map((sensorUid) => ({ uid: sensorUid, space: LOADING_SENSOR_SPACE })),
    ...availableUids.map((sensorUid, index) => ({
      uid: sensorUid,
      space: { type: 'Box', low: 0, high: model.pvUnits[index]!.peakMw } as const,
    })),
    { uid: timeOfDayUid, space: UNIT_INTERVAL },
  ];
  const actuators: ActuatorInformation[] = model.pvUnits.flatMap((_, index) => [
    { uid: curtailmentUids[index]!, space: UNIT_INTERVAL },
    {
      uid: reactiveUids[index]!,
      space: { type: 'Box', low: -reactiveLimits[index]!, high: reactiveLimits[index]! } as const,
    },
  ]);
  return {
    sensors,
    actuators,
    voltageBuses: Int32Array.from(busOrder, ({ bus }) => bus),
    voltageUids,
    loadingBuses: Int32Array.from(feeder.lines, (line) => line.downstream),
    loadingUids,
    availableUids,
    curtailmentUids,
    reactiveUids,
    reactiveLimits,
    timeOfDayUid,
    rewardUids: {
      voltageViolation: `${uid}.reward.${GRID_REWARDS.voltageViolation}`,
      lineOverload: `${uid}.reward.${GRID_REWARDS.lineOverload}`,
      curtailedEnergy: `${uid}.reward.${GRID_REWARDS.curtailedEnergy}`,
      pvEnergy: `${uid}.reward.${GRID_REWARDS.pvEnergy}`,
    },
  };
}
