import { createRequire } from 'node:module';
import type {
  Bindings,
  ChildLoggerOptions,
  Logger as PinoLogger,
  LoggerOptions as PinoOptions,
} from 'pino';
import type { build as PrettyStream } from 'pino-pretty';
import { optionalPeers, requirePeer } from './optionalPeers.js';

/** A pino logger, pino itself loaded now: some 20 modules a command that never logs does without. */
function pino(options: PinoOptions, destination?: NodeJS.WritableStream): PinoLogger {
  const { pino: make } = createRequire(import.meta.url)('pino') as typeof import('pino');
  return make(options, destination);
}

/** pino's numbers for its level methods. */
const levelValues: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

/** What a level method below the logger's level does, as pino's own: nothing. */
const writesNothing = (): void => undefined;

/**
 * A logger made at its first real use (a call at or above `level`, reading or
 * setting anything else): until something is logged, neither pino nor its
 * stream is loaded. A call below the level writes nothing, as pino's would.
 */
function loggerOnFirstUse(make: () => PinoLogger, level: LogLevel): PinoLogger {
  let logger: PinoLogger | undefined;
  const made = (): PinoLogger => {
    logger ??= make();
    return logger;
  };
  const threshold = levelValues[level] ?? Number.POSITIVE_INFINITY;
  // a child (without options of its own) is as lazy as its parent: a run's per-phase loggers load nothing either
  const child = (bindings: Bindings, options?: ChildLoggerOptions<never>): PinoLogger =>
    options === undefined
      ? loggerOnFirstUse(() => made().child(bindings), level)
      : made().child(bindings, options);
  return new Proxy({} as PinoLogger, {
    get: (_target, key) => {
      if (logger === undefined && key === 'child') return child;
      const quiet = typeof key === 'string' && (levelValues[key] ?? threshold) < threshold;
      if (logger === undefined && quiet) return writesNothing;
      const value: unknown = Reflect.get(made(), key);
      return typeof value === 'function' ? value.bind(made()) : value;
    },
    set: (_target, key, value) => Reflect.set(made(), key, value),
    has: (_target, key) => Reflect.has(made(), key),
  });
}

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
 * `NO_COLOR` is set), JSON lines otherwise. pino is loaded at the first
 * line written, so a command that logs nothing starts without it.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: 'warn', json: true });
 * log.warn({ agent: 'A' }, 'incomplete checkpoint');
 * // {"level":40,"time":...,"agent":"A","msg":"incomplete checkpoint"}
 * ```
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return loggerOnFirstUse(() => pinoLogger(options), options.level ?? 'info');
}

function pinoLogger(options: LoggerOptions): Logger {
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
  return loggerOnFirstUse(() => pino({ level: 'silent' }), 'silent');
}
