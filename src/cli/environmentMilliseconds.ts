import { defaultServerPatienceMs } from '../ports/runtime/serverFailure.js';
import { CliError } from './errors.js';

/**
 * A duration in milliseconds from the environment variable `name`, or
 * `undefined` when it is unset or empty; anything but a whole number at least
 * `minimum` is bad input naming the variable.
 *
 * @example
 * ```ts
 * process.env.ARENA_LEASE_TTL_MS = '50';
 * millisecondsFromEnvironment('ARENA_LEASE_TTL_MS', 100);
 * // CliError: ARENA_LEASE_TTL_MS must be a whole number of milliseconds >= 100, got '50'
 * ```
 */
export function millisecondsFromEnvironment(name: string, minimum: number): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) {
    const bound = minimum > 0 ? ` >= ${minimum}` : '';
    throw new CliError(`${name} must be a whole number of milliseconds${bound}, got '${text}'`);
  }
  return value;
}

/**
 * `ARENA_SERVER_PATIENCE_MS`: how long a command waits for a store or NATS
 * server that went away to come back before it gives up with exit 3
 * (default 5 minutes; 0 gives up at the first fault).
 *
 * @example
 * ```ts
 * process.env.ARENA_SERVER_PATIENCE_MS = '60000';
 * serverPatienceFromEnvironment(); // 60000
 * ```
 */
export function serverPatienceFromEnvironment(): number {
  return millisecondsFromEnvironment('ARENA_SERVER_PATIENCE_MS', 0) ?? defaultServerPatienceMs;
}

/** `ARENA_LEASE_TTL_MS`: how long a run's lease lasts without a heartbeat (default 15 s). */
export function leaseTtlFromEnvironment(): number | undefined {
  return millisecondsFromEnvironment('ARENA_LEASE_TTL_MS', 100);
}

/**
 * `ARENA_STATUS_SAFETY_NET_MS`: how often a follower that hears the workers'
 * status hints (`arena submit --wait`, `arena judge --wait`, `arena sweep
 * --nats`) reads the store besides them, for a hint lost or refused (default
 * 5 s), as the follower's `pollMs`; nothing when unset.
 *
 * @example
 * ```ts
 * process.env.ARENA_STATUS_SAFETY_NET_MS = '60000';
 * statusSafetyNetFromEnvironment(); // { pollMs: 60000 }
 * ```
 */
export function statusSafetyNetFromEnvironment(): { pollMs?: number } {
  const pollMs = millisecondsFromEnvironment('ARENA_STATUS_SAFETY_NET_MS', 100);
  return pollMs === undefined ? {} : { pollMs };
}
