import { type Logger as PinoLogger, pino } from 'pino';
import type { build as PrettyStream } from 'pino-pretty';
import { optionalPeers, requirePeer } from './optionalPeers.js';

/** pino-pretty is loaded only for a terminal: piped and JSON runs start without it. */
function prettyStream(
  ...options: Parameters<typeof PrettyStream>
): ReturnType<typeof PrettyStream> {
  const { build } = requirePeer<{ build: typeof PrettyStream }>(
    optionalPeers['pino-pretty'],
    'createLogger (pretty logs on a terminal; json: true needs none)',
  );
  return build(...options);
}

/** arena's logger: a pino logger. */
export type Logger = PinoLogger;

/**
 * Log levels accepted by `--log-level`.
 *
 * @example
 * ```ts
 * LOG_LEVELS.includes('warn'); // true
 * ```
 */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** One of `LOG_LEVELS`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How `createLogger` writes: the level, and JSON lines or pretty text. */
export interface LoggerOptions {
  /** Minimum level written; default `info`. */
  level?: LogLevel;
  /** Pretty, human output; default: when stderr is a TTY. `json: true` forces JSON. */
  json?: boolean;
  /** Where log lines go; default stderr (stdout stays for command output). */
  destination?: NodeJS.WritableStream;
}

/**
 * A pino logger writing to stderr: pretty on a TTY (coloured unless
 * `NO_COLOR` is set), JSON lines otherwise.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: 'warn', json: true });
 * log.warn({ agent: 'A' }, 'incomplete checkpoint');
 * // {"level":40,"time":...,"agent":"A","msg":"incomplete checkpoint"}
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const destination = options.destination ?? process.stderr;
  const isTty = (destination as { isTTY?: boolean }).isTTY === true;
  const usePretty = options.json === true ? false : isTty;
  if (usePretty) {
    // Synchronous, in-thread pretty printing: no worker keeps Node alive, no line is lost on exit.
    return pino(
      { level },
      prettyStream({
        destination: 2,
        sync: true,
        colorize: colourWanted(process.env),
        translateTime: 'SYS:HH:MM:ss',
      }),
    );
  }
  return pino({ level }, destination);
}

/**
 * Whether pretty logs are coloured: yes, unless `NO_COLOR` is set to
 * anything but the empty string (https://no-color.org).
 *
 * @example
 * ```ts
 * colourWanted({ NO_COLOR: '1' }); // false
 * colourWanted({ NO_COLOR: '' });  // true
 * ```
 */
export function colourWanted(environment: NodeJS.ProcessEnv): boolean {
  const noColour = environment.NO_COLOR;
  return noColour === undefined || noColour === '';
}

/**
 * A logger that writes nothing (library default).
 *
 * @example
 * ```ts
 * silentLogger().info('never written'); // nothing
 * ```
 */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
