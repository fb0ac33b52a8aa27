import type { KeyOrder, ProposedDefinition } from '../domain/definition/types.js';
import type { JsonObject, JsonValue } from '../domain/shared/json.js';
import type { Space } from '../domain/shared/spaces.js';
import type { Logger } from './runtime/logger.js';

/** A sensor or actuator an environment declares: a UID and its scalar space. */
export interface ChannelInformation {
  readonly uid: string;
  readonly space: Space;
}

/** What an environment says about one sensor (a channel). */
export type SensorInformation = ChannelInformation;

/** What an environment says about one actuator (a channel). */
export type ActuatorInformation = ChannelInformation;

/** Scalar values keyed by sensor, actuator or reward UID. */
export type Readings = Readonly<Record<string, number>>;

/** What `start` and `reset` return: the world's interface and first readings. */
export interface EnvironmentStart {
  readonly sensors: readonly SensorInformation[];
  readonly actuators: readonly ActuatorInformation[];
  readonly readings: Readings;
}

/** What one `step` returns. Rewards are scalar and keyed by reward UID. */
export interface EnvironmentStep {
  readonly readings: Readings;
  readonly rewards: Readings;
  readonly done: boolean;
}

/** What an environment is constructed with: no world is built yet. */
export interface EnvironmentInit {
  /** Logical environment UID from the run file. */
  readonly uid: string;
  /** The environment's stored `params` from the run file (a deep copy). */
  readonly params: JsonObject;
  /** Declaration order of the mappings in `params`, by pointer (see `KeyOrder`). */
  readonly keyOrder: KeyOrder;
  /** Seed derived from the run's seed; the only source of randomness. */
  readonly seed: number;
  readonly logger: Logger;
}

/**
 * The Environment port.
 *
 * Construction is cheap and builds no world. `proposeDefinition()` reads the
 * inline scenario config-only; `start(params)` builds the world from `params`
 * (the stored params, or the meta turn's request-scoped override: a deep copy
 * the environment may keep but never writes back); `step` advances it;
 * `reset` restarts it in place; `close` releases it.
 *
 * @example
 * ```ts
 * const env = new GridEnvironment({ uid: 'midas', params, seed: 1, logger });
 * const { sensors, readings } = await env.start(params);
 * const { rewards, done } = await env.step({ 'midas.pv_curtail.6': 0 });
 * ```
 */
export interface Environment {
  readonly uid: string;
  /** The definition this environment proposes, or `null` when it proposes none. */
  proposeDefinition(): ProposedDefinition | null | Promise<ProposedDefinition | null>;
  start(params: JsonObject): EnvironmentStart | Promise<EnvironmentStart>;
  step(actions: Readings): EnvironmentStep | Promise<EnvironmentStep>;
  reset(): EnvironmentStart | Promise<EnvironmentStart>;
  close(): void | Promise<void>;
  /**
   * Optional: the state needed to resume exactly at an episode barrier (for
   * example an episode counter and an rng state), as JSON. A resumed run calls
   * `start(params)` and then `loadState(saved)`.
   */
  saveState?(): JsonValue;
  loadState?(state: JsonValue): void;
}

/** A class or factory that makes an environment from its init. */
export type EnvironmentFactory = (init: EnvironmentInit) => Environment;
