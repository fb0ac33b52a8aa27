/**
 * The root of every error arena throws on purpose. Each subclass has a stable
 * `code` a caller can switch on and a `name` equal to its class name.
 *
 * @example
 * ```ts
 * try { parseTerminationConfig(raw); }
 * catch (error) { if (ArenaError.is(error)) console.log(error.code); }
 * // TERMINATION_CONFIG
 * ```
 */
export class ArenaError extends Error {
  /** A stable, machine-readable code, e.g. `TERMINATION_CONFIG`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** Whether `value` is an arena error (optionally of one `code`). */
  static is(value: unknown, code?: string): value is ArenaError {
    return value instanceof ArenaError && (code === undefined || value.code === code);
  }
}

/** What {@link arenaErrorClass} makes: an `ArenaError` class constructed from a message and a cause. */
export type ArenaErrorClass = Pick<typeof ArenaError, 'is'> &
  (new (
    message: string,
    options?: { cause?: unknown },
  ) => ArenaError);

/**
 * The base of an arena error that carries only a message (and a cause): its
 * class is then one line, `class XError extends arenaErrorClass('X') {}`.
 *
 * @example
 * ```ts
 * class JsonPointerError extends arenaErrorClass('JSON_POINTER') {}
 * const error = new JsonPointerError('pointer "x" does not start with "/"');
 * [error.code, error.name, error instanceof ArenaError]; // ['JSON_POINTER', 'JsonPointerError', true]
 * ```
 */
export function arenaErrorClass(code: string): ArenaErrorClass {
  return class extends ArenaError {
    constructor(message: string, options?: { cause?: unknown }) {
      super(code, message, options);
    }
  };
}
