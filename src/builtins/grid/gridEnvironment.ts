import { subKeyOrder } from '../../domain/definition/keyOrder.js';
import { proposeDefinition } from '../../domain/definition/proposeDefinition.js';
import type { KeyOrder, ProposedDefinition } from '../../domain/definition/types.js';
import type { JsonObject, JsonValue } from '../../domain/shared/json.js';
import { isPlainObject } from '../../domain/shared/json.js';
import { createRng, type Rng } from '../../domain/shared/random.js';
import { clipToSpace } from '../../domain/shared/spaces.js';
import type {
  Environment,
  EnvironmentInit,
  EnvironmentStart,
  EnvironmentStep,
  Readings,
} from '../../ports/environment.js';
import {
  describeChannels,
  type GridChannels,
  LOADING_SENSOR_SPACE,
  VOLTAGE_SENSOR_SPACE,
} from './channels.js';
import { GridActionError, GridLifecycleError, GridScenarioError } from './errors.js';
import { GridWorld } from './gridWorld.js';
import { gridParamsSchema, parseGridParams } from './scenario.js';

/** Where the inline scenario sits in the environment's params. */
const SCENARIO_POINTER = '/scenario';

interface Running {
  readonly world: GridWorld;
  readonly channels: GridChannels;
  /** Actuator UID to its setter, for O(1) action lookup. */
  readonly actionTargets: ReadonlyMap<string, (value: number) => void>;
  done: boolean;
}

/**
 * `arena:GridEnvironment`: a radial medium-voltage feeder with built-in daily
 * load and PV profiles, solved each step with LinDistFlow (see
 * `solveLinDistFlow`).
 *
 * `params`:
 * - `scenario`: MIDAS-shaped. `comdata_params.midasmv.active_mapping` maps a
 *   bus number to `[[profile, peak_mw], ...]` (profiles: Household alias
 *   residential, Office, Hospital, LargeHotel, Industry, Retail);
 *   `der_params.midasmv.mapping` maps a bus number to `[[PV, peak_mw], ...]`;
 *   `step_size` seconds (default 900); `end` seconds (default 86400: one day
 *   from midnight); `grid_params`: `v_nom_kv` (20), `slack_vm_pu` (1.0),
 *   `slack_bus` (0), and either `lines: [[from, to, r_ohm, x_ohm, max_mva]]`
 *   or `buses: N` for a generated binary-tree feeder; without either, the
 *   default 7-bus chain `0-1-...-6` with 1.2 + 0.8j ohm and 6 MVA per line.
 *   Other MIDAS keys (`start_date`, `buffer_size`, ...) are kept and ignored.
 * - `definition`: the definition discovery options (`include`, `exclude`,
 *   `selector_manifest`) for `proposeDefinition`.
 * - `noise_std` (0.02): the relative standard deviation of the seeded,
 *   per-step noise on every load and PV unit.
 * - `voltage_band` ([0.95, 1.05]) pu; `reactive_power_ratio` (0.3): a PV
 *   unit's reactive limit as a fraction of its peak; `load_power_factor` (0.95).
 *
 * Each step applies the actions to the current interval, rewards it, then
 * moves to the next interval and reads the sensors there with the set points
 * held. Rewards (higher is better): `voltage_violation` = minus the summed pu
 * outside the band, `line_overload` = minus the summed loading above 100 %,
 * `curtailed_energy` = minus the MWh curtailed, `pv_energy` = the MWh fed in.
 * `done` once `end` is reached. Actions outside an actuator's space are
 * clipped; an actuator left out keeps its last value.
 *
 * @example
 * ```ts
 * const env = new GridEnvironment({ uid: 'midas', params, keyOrder: {}, seed: 1, logger });
 * const { actuators } = env.start(params); // midas.pv_curtail.6, midas.pv_q.6
 * const { rewards, done } = env.step({ 'midas.pv_curtail.6': 0, 'midas.pv_q.6': -0.3 });
 * // rewards['midas.reward.voltage_violation'] === 0, done === false
 * ```
 */
export class GridEnvironment implements Environment {
  /** The zod schema of `params`: `start` reads them with it, `arena validate` checks them with it. */
  static readonly paramsSchema = gridParamsSchema;

  readonly uid: string;
  private readonly params: JsonObject;
  private readonly keyOrder: KeyOrder;
  private readonly seed: number;
  private rng: Rng;
  private episode = 0;
  private running: Running | null = null;

  constructor(init: EnvironmentInit) {
    this.uid = init.uid;
    this.params = init.params;
    this.keyOrder = init.keyOrder;
    this.seed = init.seed;
    this.rng = createRng(init.seed);
  }

  /**
   * The scenario's numeric leaves as a definition, read config-only: the
   * params are validated (so a bad scenario fails before any meta decision)
   * but no world is built.
   */
  proposeDefinition(): ProposedDefinition {
    parseGridParams(this.params);
    const scenario = this.params.scenario ?? {};
    if (!isPlainObject(scenario)) {
      throw new GridScenarioError('/scenario: expected a mapping (the MIDAS-shaped scenario)');
    }
    return proposeDefinition(this.uid, scenario, {
      definition: this.params.definition,
      keyOrder: subKeyOrder(this.keyOrder, SCENARIO_POINTER),
      scenarioPointer: SCENARIO_POINTER,
    });
  }

  /** Build the world from `params` (never mutated) and begin the first episode. */
  start(params: JsonObject): EnvironmentStart {
    const model = parseGridParams(params);
    const world = new GridWorld(model);
    const channels = describeChannels(this.uid, model);
    const actionTargets = new Map<string, (value: number) => void>();
    channels.curtailmentUids.forEach((actuatorUid, index) => {
      actionTargets.set(actuatorUid, (value) => {
        world.curtailment[index] = Math.min(1, Math.max(0, value));
      });
    });
    channels.reactiveUids.forEach((actuatorUid, index) => {
      const limit = channels.reactiveLimits[index]!;
      actionTargets.set(actuatorUid, (value) => {
        world.reactiveMvar[index] = Math.min(limit, Math.max(-limit, value));
      });
    });
    this.running = { world, channels, actionTargets, done: false };
    this.rng = createRng(this.seed);
    this.episode = 0;
    return this.beginEpisode();
  }

  /** Apply `actions` to the current interval, reward it, and move to the next one. */
  step(actions: Readings): EnvironmentStep {
    const running = this.requireRunning('step');
    if (running.done) {
      throw new GridLifecycleError(`${this.uid}: step after done; call reset() first`);
    }
    for (const actuatorUid in actions) {
      const value = actions[actuatorUid];
      const target = running.actionTargets.get(actuatorUid);
      if (target === undefined) {
        throw new GridActionError(
          `${this.uid}: no actuator '${actuatorUid}', expected one of ${[...running.actionTargets.keys()].join(', ')}`,
        );
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new GridActionError(
          `${this.uid}: action '${actuatorUid}' must be a finite number, got ${String(value)}`,
        );
      }
      target(value);
    }
    const { world, channels } = running;
    world.solve();
    const outcome = world.outcome();
    world.advance(this.rng);
    running.done = world.finished;
    const { rewardUids } = channels;
    return {
      readings: this.read(running),
      rewards: {
        [rewardUids.voltageViolation]: penalty(outcome.voltageViolationPu),
        [rewardUids.lineOverload]: penalty(outcome.lineOverload),
        [rewardUids.curtailedEnergy]: penalty(outcome.curtailedMwh),
        [rewardUids.pvEnergy]: outcome.pvFedMwh,
      },
      done: running.done,
    };
  }

  /** Restart in place: the same world, the next episode's noise. */
  reset(): EnvironmentStart {
    this.requireRunning('reset');
    this.episode++;
    return this.beginEpisode();
  }

  close(): void {
    this.running = null;
  }

  /** The rng state and episode count, to resume exactly at an episode barrier. */
  saveState(): JsonValue {
    return { version: 1, episode: this.episode, rngState: this.rng.state() };
  }

  /** Restore `saveState()` after `start(params)`: the next `reset()` continues the run exactly. */
  loadState(state: JsonValue): void {
    if (
      !isPlainObject(state) ||
      state.version !== 1 ||
      !Number.isInteger(state.episode) ||
      !Number.isInteger(state.rngState)
    ) {
      throw new GridScenarioError(
        `${this.uid}: saved state must be { version: 1, episode: integer, rngState: integer }`,
      );
    }
    this.episode = state.episode as number;
    this.rng = createRng(this.seed, state.rngState as number);
  }

  private beginEpisode(): EnvironmentStart {
    const running = this.requireRunning('reset');
    running.world.begin(this.rng);
    running.done = running.world.finished;
    return {
      sensors: running.channels.sensors,
      actuators: running.channels.actuators,
      readings: this.read(running),
    };
  }

  private read({ world, channels }: Running): Readings {
    const readings: Record<string, number> = {};
    const { vmPu } = world.powerFlow;
    for (let index = 0; index < channels.voltageUids.length; index++) {
      const vm = vmPu[channels.voltageBuses[index]!]!;
      readings[channels.voltageUids[index]!] = clipToSpace(VOLTAGE_SENSOR_SPACE, vm);
    }
    for (let index = 0; index < channels.loadingUids.length; index++) {
      const loading = world.lineLoading(channels.loadingBuses[index]!);
      readings[channels.loadingUids[index]!] = clipToSpace(LOADING_SENSOR_SPACE, loading);
    }
    for (let index = 0; index < channels.availableUids.length; index++) {
      readings[channels.availableUids[index]!] = world.availableMw[index]!;
    }
    readings[channels.timeOfDayUid] = (world.time % 86_400) / 86_400;
    return readings;
  }

  private requireRunning(operation: string): Running {
    if (this.running === null) {
      throw new GridLifecycleError(`${this.uid}: ${operation} before start(params)`);
    }
    return this.running;
  }
}

/** A non-negative amount as a reward (higher is better), with no negative zero. */
function penalty(amount: number): number {
  return amount === 0 ? 0 : -amount;
}
