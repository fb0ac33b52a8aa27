import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ArenaError } from '../domain/shared/errors.js';
import { closestName, didYouMean } from '../domain/shared/suggest.js';
import type { ConfigIssue } from './configIssue.js';
import { RunFileError } from './runFileError.js';
import type { ComponentRef, RunSpec } from './runSpec.js';

const BUILTIN_PREFIX = 'arena:';
const IN_CODE_PREFIX = 'code:';
/** The prefix of a remote component: `nats:<service>`, hosted by `arena serve`. */
export const REMOTE_PREFIX = 'nats:';
/** A service name is one or more NATS subject tokens: letters, digits, `_` and `-`, joined by `.`. */
const SERVICE_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** Where components are looked up. */
export interface ComponentResolution {
  /** Folder `./path.js:Export` is relative to: the run file's folder (`RunSpec.baseDir`). */
  readonly baseDir: string;
  /** Built-in components, keyed by their full name (`arena:GridEnvironment`). */
  readonly builtins: ReadonlyMap<string, unknown>;
  /** Components the host app passes in code, named `code:Name` in the run file (key `Name`). */
  readonly components?: Readonly<Record<string, unknown>>;
  /**
   * Makes the factory of a `nats:<service>` component (an adapter of its
   * port); without it a remote component does not resolve.
   */
  readonly remote?: (ref: ComponentRef, service: string) => unknown;
}

/**
 * A component name that does not resolve. Names the YAML path of the
 * component and what was tried.
 *
 * @example
 * ```ts
 * // error.message:
 * // schedule[0].train.agents[0].brain: unknown built-in "arena:Nope" (known built-ins: arena:GridEnvironment)
 * ```
 */
export class ComponentResolutionError extends ArenaError {
  /** YAML path of the component, e.g. `schedule[0].train.agents[0].brain`. */
  readonly yamlPath: string;
  /** The component name as written. */
  readonly componentName: string;
  /** What was tried and why it failed, without the path. */
  readonly reason: string;
  /** The known name a misspelt one most likely meant (`arena:CrossEntropyBrain`). */
  readonly suggestion: string | undefined;

  constructor(
    ref: ComponentRef,
    reason: string,
    options?: { cause?: unknown; suggestion?: string | null },
  ) {
    const cause = options?.cause !== undefined ? { cause: options.cause } : undefined;
    super('COMPONENT_RESOLUTION', `${ref.yamlPath}: ${reason}`, cause);
    this.yamlPath = ref.yamlPath;
    this.componentName = ref.name;
    this.reason = reason;
    this.suggestion = options?.suggestion ?? undefined;
  }
}

/**
 * Find the value a component name stands for.
 *
 * - `arena:Name` is looked up in `builtins`.
 * - `./path.js:ExportName` (or `../path.js:ExportName`) is imported from
 *   `baseDir` (the run file's folder) and its named export is returned.
 * - `nats:<service>` is what `remote` makes of it (an adapter factory that
 *   talks to the service); without `remote` it names the missing `--nats`.
 *
 * @throws {ComponentResolutionError} for an unknown built-in (listing the known
 * ones), a missing file, a module that fails to load, or a missing export
 * (listing the module's exports).
 * @example
 * ```ts
 * await resolveComponent(
 *   { name: './my-env.js:MyEnvironment', params: {}, yamlPath: 'schedule[0].train.environments[0].environment' },
 *   { baseDir: '/experiments', builtins: new Map() },
 * );
 * // the MyEnvironment export of /experiments/my-env.js
 * ```
 */
export async function resolveComponent(
  ref: ComponentRef,
  { baseDir, builtins, components = {}, remote }: ComponentResolution,
): Promise<unknown> {
  if (ref.name.startsWith(BUILTIN_PREFIX)) return resolveBuiltin(ref, builtins);
  if (ref.name.startsWith(IN_CODE_PREFIX)) return resolveInCode(ref, components);
  if (ref.name.startsWith(REMOTE_PREFIX)) return resolveRemote(ref, remote);
  const named = userModuleOf(ref.name);
  if (named === null) {
    throw new ComponentResolutionError(
      ref,
      `expected arena:BuiltinName, ./path.js:ExportName or nats:<service>, got ${JSON.stringify(ref.name)}`,
    );
  }
  const { modulePath, exportName } = named;
  const file = path.resolve(baseDir, modulePath);
  try {
    await access(file);
  } catch (error) {
    throw new ComponentResolutionError(
      ref,
      `module file not found: ${file} (${modulePath} relative to ${baseDir})`,
      { cause: error },
    );
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ComponentResolutionError(ref, `module ${file} failed to load: ${reason}`, {
      cause: error,
    });
  }
  if (!(exportName in module) || module[exportName] === undefined) {
    const exports = Object.keys(module).sort();
    const known = exports.length > 0 ? exports.join(', ') : 'none';
    throw new ComponentResolutionError(
      ref,
      `module ${file} has no export ${JSON.stringify(exportName)}${didYouMean(exportName, exports)} (its exports: ${known})`,
      { suggestion: closestName(exportName, exports) },
    );
  }
  return module[exportName];
}

/**
 * The module path and export of a user component name (`./my-env.js:MyEnvironment`,
 * or an absolute path),
 * or `null` for a built-in or a name of neither form.
 *
 * @example
 * ```ts
 * userModuleOf('./envs/my-env.js:MyEnvironment'); // { modulePath: './envs/my-env.js', exportName: 'MyEnvironment' }
 * userModuleOf('/srv/envs/my-env.js:MyEnvironment'); // { modulePath: '/srv/envs/my-env.js', exportName: 'MyEnvironment' }
 * userModuleOf('arena:GridEnvironment'); // null
 * ```
 */
export function userModuleOf(name: string): { modulePath: string; exportName: string } | null {
  if ([BUILTIN_PREFIX, IN_CODE_PREFIX, REMOTE_PREFIX].some((prefix) => name.startsWith(prefix))) {
    return null;
  }
  const separator = name.lastIndexOf(':');
  const modulePath = name.slice(0, separator);
  const exportName = name.slice(separator + 1);
  // relative to the run file's folder (./, ../) or absolute
  const relativeOrAbsolute = /^\.\.?\//.test(modulePath) || path.isAbsolute(modulePath);
  if (separator <= 0 || exportName === '' || !relativeOrAbsolute) return null;
  return { modulePath, exportName };
}

/**
 * The service of a `nats:<service>` name, or why it is not one.
 *
 * @example
 * ```ts
 * remoteServiceOf('nats:grid-sim'); // { service: 'grid-sim' }
 * remoteServiceOf('nats:a b'); // { problem: 'expected nats:<service> where ...' }
 * ```
 */
export function remoteServiceOf(name: string): { service: string } | { problem: string } {
  const service = name.slice(REMOTE_PREFIX.length);
  if (!name.startsWith(REMOTE_PREFIX) || !SERVICE_NAME.test(service)) {
    return {
      problem: `expected nats:<service> where <service> is letters, digits, '_' or '-' (dots between words), got ${JSON.stringify(name)}`,
    };
  }
  return { service };
}

/** Where a remote component may stand: where the run file names an environment, brain, muscle or objective. */
const REMOTE_PLACE = /\.(environment|brain|muscle|objective)$/;

/**
 * Why a `nats:` component cannot stand where it is written, or `null` when it
 * can: checked offline (no server is asked), as `arena validate` does.
 *
 * @example
 * ```ts
 * remoteComponentProblem({ name: 'nats:sim', params: {}, yamlPath: 'schedule[0].train.simulation.conditions[0]' });
 * // 'a termination condition runs in the controller: nats:<service> names only an environment, brain, muscle or objective'
 * ```
 */
export function remoteComponentProblem(ref: ComponentRef): string | null {
  const named = remoteServiceOf(ref.name);
  if ('problem' in named) return named.problem;
  if (!REMOTE_PLACE.test(ref.yamlPath)) {
    return 'a termination condition runs in the controller: nats:<service> names only an environment, brain, muscle or objective';
  }
  return null;
}

function resolveRemote(ref: ComponentRef, remote: ComponentResolution['remote']): unknown {
  const problem = remoteComponentProblem(ref);
  if (problem !== null) throw new ComponentResolutionError(ref, problem);
  if (remote === undefined) {
    throw new ComponentResolutionError(
      ref,
      `${ref.name} is a remote component: name the NATS server with --nats <url> (or ARENA_NATS)`,
    );
  }
  return remote(ref, (remoteServiceOf(ref.name) as { service: string }).service);
}

function resolveInCode(ref: ComponentRef, components: Readonly<Record<string, unknown>>): unknown {
  const name = ref.name.slice(IN_CODE_PREFIX.length);
  const component = Object.hasOwn(components, name) ? components[name] : undefined;
  if (component !== undefined) return component;
  const known = Object.keys(components).sort();
  // The arena CLI passes no in-code components, so its user needs the module-file form instead.
  const list =
    known.length > 0
      ? known.map((key) => `${IN_CODE_PREFIX}${key}`).join(', ')
      : `none: a host app passes them to runExperiment's components option, and the arena CLI passes none (name a module file instead, ./file.js:${name})`;
  throw new ComponentResolutionError(
    ref,
    `unknown in-code component ${JSON.stringify(ref.name)} (in-code components: ${list})`,
  );
}

function resolveBuiltin(ref: ComponentRef, builtins: ReadonlyMap<string, unknown>): unknown {
  const component = builtins.get(ref.name);
  if (component !== undefined) return component;
  const known = [...builtins.keys()].sort();
  const list = known.length > 0 ? known.join(', ') : 'none are registered';
  throw new ComponentResolutionError(
    ref,
    `unknown built-in ${JSON.stringify(ref.name)}${didYouMean(ref.name, known)} (known built-ins: ${list})`,
    { suggestion: closestName(ref.name, known) },
  );
}

/**
 * Every component a run spec names, once per YAML path (a phase that inherits
 * an agent names the same component as the phase it inherits from).
 *
 * @example
 * ```ts
 * componentRefsOf(spec).map((ref) => ref.yamlPath);
 * // ['schedule[0].train.environments[0].environment', 'schedule[0].train.agents[0].brain', ...]
 * ```
 */
export function componentRefsOf(spec: RunSpec): ComponentRef[] {
  const refs = new Map<string, ComponentRef>();
  const add = (ref: ComponentRef) => {
    if (!refs.has(ref.yamlPath)) refs.set(ref.yamlPath, ref);
  };
  for (const phase of spec.phases) {
    for (const environment of phase.environments) add(environment.component);
    for (const agent of phase.agents) {
      add(agent.brain);
      add(agent.muscle);
      add(agent.objective);
    }
    for (const condition of phase.simulation.conditions) add(condition);
  }
  if (spec.runCondition) add(spec.runCondition);
  return [...refs.values()];
}

/**
 * Resolve every component of a run spec, reporting every failure at once.
 * Returns the resolved values keyed by YAML path.
 *
 * @throws {RunFileError} with one issue per component that does not resolve.
 * @example
 * ```ts
 * const components = await resolveRunComponents(spec, { builtins: builtinComponents });
 * components.get('schedule[0].train.agents[0].brain'); // the brain's factory
 * ```
 */
export async function resolveRunComponents(
  spec: RunSpec,
  { builtins, components = {} }: Pick<ComponentResolution, 'builtins' | 'components'>,
): Promise<ReadonlyMap<string, unknown>> {
  const refs = componentRefsOf(spec);
  const settled = await Promise.allSettled(
    refs.map((ref) => resolveComponent(ref, { baseDir: spec.baseDir, builtins, components })),
  );
  const resolved = new Map<string, unknown>();
  const issues: ConfigIssue[] = [];
  settled.forEach((result, index) => {
    const ref = refs[index] as ComponentRef;
    if (result.status === 'fulfilled') resolved.set(ref.yamlPath, result.value);
    else if (result.reason instanceof ComponentResolutionError) {
      issues.push({ path: ref.yamlPath, message: result.reason.reason, location: null });
    } else throw result.reason;
  });
  if (issues.length > 0) throw new RunFileError(spec.sourcePath, issues);
  return resolved;
}
