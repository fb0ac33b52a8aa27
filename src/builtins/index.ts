/**
 * The components that ship with arena, keyed by their run-file name
 * (`arena:GridEnvironment`). Run files name them as `arena:Name`;
 * `resolveComponent` looks them up here.
 *
 * @example
 * ```ts
 * builtinComponents.has('arena:GridEnvironment');
 * ```
 */
export const builtinComponents: ReadonlyMap<string, unknown> = new Map();
