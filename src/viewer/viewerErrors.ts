import { arenaErrorClass } from '../domain/shared/errors.js';

/**
 * The viewer could not start: the port is taken, the page was not built.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'VIEWER_SERVER'); // true when `error` is a ViewerServerError
 * error instanceof ViewerServerError && error.name; // 'ViewerServerError'
 * ```
 */
export class ViewerServerError extends arenaErrorClass('VIEWER_SERVER') {}

/**
 * A viewer option is out of range (`history`, `port`…); the message names it
 * and what is expected.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'VIEWER_OPTION'); // true when `error` is a ViewerOptionError
 * error instanceof ViewerOptionError && error.name; // 'ViewerOptionError'
 * ```
 */
export class ViewerOptionError extends arenaErrorClass('VIEWER_OPTION') {}
