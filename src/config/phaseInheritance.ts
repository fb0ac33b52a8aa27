import { isPlainObject } from '../domain/shared/json.js';

/**
 * Phase inheritance, as in palaestrAI: a phase inherits everything from the
 * phase before it and overrides what it declares. Mappings deep-merge key by
 * key; lists and scalars (including `null`) replace the inherited value whole.
 * So a later phase that lists `agents` replaces all agents, while one that sets
 * `phase_config: { mode: test }` keeps the inherited `max_steps`.
 *
 * @example
 * ```ts
 * inheritPhase(
 *   { agents: [{ name: 'a' }], phase_config: { mode: 'train', max_steps: 96 } },
 *   { phase_config: { mode: 'test' } },
 * );
 * // { agents: [{ name: 'a' }], phase_config: { mode: 'test', max_steps: 96 } }
 * ```
 */
export function inheritPhase(inherited: unknown, declared: unknown): unknown {
  if (!isPlainObject(inherited) || !isPlainObject(declared)) return declared;
  const merged: Record<string, unknown> = { ...inherited };
  for (const [key, value] of Object.entries(declared)) {
    // defineProperty, not assignment: a YAML key named __proto__ stays a plain key.
    Object.defineProperty(merged, key, {
      value: Object.hasOwn(inherited, key) ? inheritPhase(inherited[key], value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}

/**
 * The index of the last phase up to `upTo` whose own (not inherited) body
 * declares `path`: where an inherited list or value was written in the file.
 *
 * @example
 * ```ts
 * declaringPhase([{ agents: [] }, { phase_config: {} }], 1, ['agents']); // 0
 * ```
 */
export function declaringPhase(
  declaredBodies: readonly unknown[],
  upTo: number,
  path: readonly string[],
): number {
  for (let index = upTo; index > 0; index -= 1) {
    if (declares(declaredBodies[index], path)) return index;
  }
  return 0;
}

/**
 * Whether `body` holds a value (its own, even `null`) at the mapping-key `path`.
 *
 * @example
 * ```ts
 * declares({ phase_config: { episodes: null } }, ['phase_config', 'episodes']); // true
 * declares({ phase_config: {} }, ['phase_config', 'episodes']);                 // false
 * ```
 */
export function declares(body: unknown, path: readonly string[]): boolean {
  let current = body;
  for (const key of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return false;
    current = current[key];
  }
  return true;
}
