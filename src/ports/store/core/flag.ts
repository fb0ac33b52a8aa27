/** A flag column's value: 0/1 in SQLite (STRICT tables have no booleans), a boolean in PostgreSQL. */
export type Flag = number | boolean;

/**
 * Whether a flag column is set, in either database's spelling.
 *
 * @internal the store core's own helper.
 * @example
 * ```ts
 * isSet(1); // true (SQLite)
 * isSet(false); // false (PostgreSQL)
 * ```
 */
export function isSet(flag: Flag): boolean {
  return flag === true || flag === 1;
}
