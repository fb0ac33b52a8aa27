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
