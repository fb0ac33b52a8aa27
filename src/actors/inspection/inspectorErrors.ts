import { ArenaError, arenaErrorClass } from '../../domain/shared/errors.js';

/**
 * The relay could not start (the port is taken, the host unknown...).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'INSPECTOR_RELAY'); // true when `error` is a InspectorRelayError
 * error instanceof InspectorRelayError && error.name; // 'InspectorRelayError'
 * ```
 */
export class InspectorRelayError extends arenaErrorClass('INSPECTOR_RELAY') {}

/**
 * An inspector relay or replay option is out of range; the message names it.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'INSPECTOR_OPTION'); // true when `error` is a InspectorOptionError
 * error instanceof InspectorOptionError && error.name; // 'InspectorOptionError'
 * ```
 */
export class InspectorOptionError extends ArenaError {
  constructor(message: string) {
    super('INSPECTOR_OPTION', message);
  }
}
