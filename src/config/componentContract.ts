import { ArenaError } from '../domain/shared/errors.js';
import type { ComponentRef } from './runSpec.js';

/**
 * A component resolved, but is not what its place in the run file needs.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'COMPONENT_CONTRACT'); // true when `error` is a ComponentContractError
 * error instanceof ComponentContractError && error.name; // 'ComponentContractError'
 * ```
 */
export class ComponentContractError extends ArenaError {
  constructor(ref: ComponentRef, message: string) {
    super('COMPONENT_CONTRACT', `${ref.yamlPath} (${ref.name}): ${message}`);
  }
}

function isClass(value: unknown): value is new (init: unknown) => unknown {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * Make a component from what its name resolved to: a class is constructed
 * with `new`, a function is called; either receives `init`.
 */
export function instantiate(value: unknown, init: unknown, ref: ComponentRef): unknown {
  try {
    if (isClass(value)) return new value(init);
    if (typeof value === 'function') return (value as (init: unknown) => unknown)(init);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ComponentContractError(ref, `failed to construct: ${reason}`);
  }
  throw new ComponentContractError(
    ref,
    `expected a class or a factory function, got ${typeof value}`,
  );
}

/**
 * `value`, when it has every method of `methods`; else a `ComponentContractError`
 * naming the missing ones.
 *
 * @example
 * ```ts
 * requireMethods({ act() {} }, COMPONENT_METHODS.muscle, ref, 'muscle'); // the object
 * requireMethods({}, COMPONENT_METHODS.objective, ref, 'objective');
 * // ComponentContractError: schedule[0].train.agents[0].objective (./o.js:O): is not an objective: it lacks evaluate()
 * ```
 */
export function requireMethods<T>(
  value: unknown,
  methods: readonly string[],
  ref: ComponentRef,
  kind: string,
): T {
  const missing = methods.filter(
    (method) => typeof (value as Record<string, unknown> | null)?.[method] !== 'function',
  );
  if (missing.length > 0) {
    const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
    const lacks = missing.map((method) => `${method}()`).join(', ');
    throw new ComponentContractError(ref, `is not ${article} ${kind}: it lacks ${lacks}`);
  }
  return value as T;
}

/** The methods each kind of component must have: what `buildPhaseWorld` and `arena validate` check. */
export const COMPONENT_METHODS = {
  environment: ['proposeDefinition', 'start', 'step', 'reset', 'close'],
  brain: ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts'],
  muscle: ['act'],
  objective: ['evaluate'],
} as const;
