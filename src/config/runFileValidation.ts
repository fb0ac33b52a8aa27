import path from 'node:path';
import { deriveSeed } from '../domain/shared/random.js';
import type { Environment } from '../ports/environment.js';
import { silentLogger } from '../ports/runtime/logger.js';
import { COMPONENT_METHODS, instantiate, requireMethods } from './componentContract.js';
import { componentParamsIssues } from './componentParams.js';
import {
  ComponentResolutionError,
  componentRefsOf,
  REMOTE_PREFIX,
  remoteComponentProblem,
  resolveComponent,
} from './components.js';
import {
  type ConfigIssue,
  formatYamlPath,
  type PathSegment,
  parseYamlPath,
} from './configIssue.js';
import { readRunFileText, tryParseRunFile } from './runFile.js';
import { RunFileError } from './runFileError.js';
import type { ComponentRef, RunSpec } from './runSpec.js';
import { runConditionIssues, terminationIssues } from './terminationRules.js';
import { locateRunFileIssues } from './validateRunFile.js';
import { wellFormedRefs } from './wellFormedRefs.js';

/** Where the components of a run file are looked up. */
export interface RunFileValidationOptions {
  /** Built-in components, keyed by their full name (`arena:GridEnvironment`). */
  readonly builtins: ReadonlyMap<string, unknown>;
  /** Components passed in code, named `code:Name` in the run file. */
  readonly components?: Readonly<Record<string, unknown>>;
}

/**
 * Every problem `arena run` would meet in a parsed run file before its first
 * episode, at once, each with its YAML path (no line yet):
 *
 * - a component name that does not resolve;
 * - component `params` against the schema the component declares
 *   (`paramsSchema`; every built-in has one);
 * - each brain, muscle and objective, constructed as `buildPhaseWorld` does,
 *   and whether it has the methods its role needs;
 * - each environment's proposal, config-only: it is constructed (no world is
 *   built) and asked for `proposeDefinition()`, so a definition filter that
 *   does not compile, a selector manifest that names no scenario leaf or a bus
 *   that is not on the feeder is found here; a meta phase needs exactly one
 *   environment that proposes a non-empty definition;
 * - the termination rules (all agents at once, unknown keys with a
 *   suggestion) and every phase configuration against them.
 *
 * @example
 * ```ts
 * await runSpecIssues(spec, { builtins: builtinComponents });
 * // [{ path: 'schedule[0].train.agents[0].brain.params.populaton',
 * //    message: 'unknown key; did you mean "population"? (expected one of: ...)', location: null }]
 * ```
 */
export async function runSpecIssues(
  spec: RunSpec,
  options: RunFileValidationOptions,
): Promise<ConfigIssue[]> {
  const { issues, usable } = await componentIssues(componentRefsOf(spec), spec.baseDir, options);
  issues.push(...(await proposalIssues(spec, usable)));
  issues.push(...agentIssues(spec, usable));
  issues.push(...terminationIssues(spec));
  return issues;
}

/**
 * Resolve each component and check its params against the schema it
 * declares; `usable` holds those that resolved and whose params passed.
 */
async function componentIssues(
  allRefs: readonly ComponentRef[],
  baseDir: string,
  { builtins, components = {} }: RunFileValidationOptions,
): Promise<{ issues: ConfigIssue[]; usable: Map<string, unknown> }> {
  const issues: ConfigIssue[] = [];
  // A remote component is checked by name and place only: validating asks no server.
  const refs: ComponentRef[] = [];
  for (const ref of allRefs) {
    if (!ref.name.startsWith(REMOTE_PREFIX)) refs.push(ref);
    else {
      const problem = remoteComponentProblem(ref);
      if (problem !== null) issues.push({ path: ref.yamlPath, message: problem, location: null });
    }
  }
  const settled = await Promise.allSettled(
    refs.map((ref) => resolveComponent(ref, { baseDir, builtins, components })),
  );
  const usable = new Map<string, unknown>();
  for (const [index, result] of settled.entries()) {
    const ref = refs[index] as ComponentRef;
    if (result.status === 'rejected') {
      if (!(result.reason instanceof ComponentResolutionError)) throw result.reason;
      const { reason, suggestion } = result.reason;
      issues.push({
        path: ref.yamlPath,
        message: reason,
        location: null,
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
      continue;
    }
    const paramsIssues = await componentParamsIssues(ref, result.value);
    issues.push(...paramsIssues);
    if (paramsIssues.length === 0) usable.set(ref.yamlPath, result.value);
  }
  return { issues, usable };
}

/**
 * Construct each agent's brain, muscle and objective as `buildPhaseWorld`
 * does (construction reads params, builds nothing else) and check their methods.
 */
function agentIssues(spec: RunSpec, usable: ReadonlyMap<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const checked = new Set<string>();
  for (const phase of spec.phases) {
    for (const agent of phase.agents) {
      for (const role of ['brain', 'muscle', 'objective'] as const) {
        const ref = agent[role];
        const component = usable.get(ref.yamlPath);
        if (checked.has(ref.yamlPath) || component === undefined) continue;
        checked.add(ref.yamlPath);
        const init =
          role === 'objective'
            ? { params: structuredClone(ref.params) }
            : {
                name: agent.name,
                params: structuredClone(ref.params),
                seed: deriveSeed(spec.seed, `agent/${agent.name}/${role}`),
                logger: silentLogger(),
              };
        try {
          requireMethods(instantiate(component, init, ref), COMPONENT_METHODS[role], ref, role);
        } catch (error) {
          issues.push(issueFromError(ref, error));
        }
      }
    }
  }
  return issues;
}

/** How many actuators an environment's proposal has, or `null` when it could not say. */
type ProposalSize = number | null;

async function proposalIssues(
  spec: RunSpec,
  usable: ReadonlyMap<string, unknown>,
): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  const sizes = new Map<string, ProposalSize>();
  const reported = new Set<string>();
  for (const phase of spec.phases) {
    for (const environment of phase.environments) {
      const path = environment.component.yamlPath;
      if (sizes.has(path)) continue;
      const factory = usable.get(path);
      if (factory === undefined) {
        sizes.set(path, null);
        continue;
      }
      const init = {
        uid: environment.uid,
        params: structuredClone(environment.params),
        keyOrder: environment.keyOrder,
        seed: deriveSeed(spec.seed, `${phase.name}/environment/${environment.uid}`),
        logger: silentLogger(),
      };
      const proposed = await proposalSize(factory, init, environment.component);
      if (typeof proposed === 'object' && proposed !== null) {
        issues.push(proposed);
        sizes.set(path, null);
      } else sizes.set(path, proposed);
    }
    if (phase.simulation.script.profile !== 'meta') continue;
    // where the phase's environment list is written: phases that inherit it share one report
    const listPath = phase.environments[0]?.component.yamlPath.replace(/\[\d+\]\.environment$/, '');
    if (listPath === undefined || reported.has(listPath)) continue;
    const known = phase.environments.map((environment) =>
      sizes.get(environment.component.yamlPath),
    );
    // An environment that could not propose was reported already; counting without it would mislead.
    if (known.some((size) => size === null || size === undefined)) continue;
    const proposing = phase.environments.filter((_, index) => (known[index] as number) > 0);
    if (proposing.length !== 1) {
      reported.add(listPath);
      issues.push({
        path: listPath,
        message:
          'the meta profile (a non-empty episode_start) needs exactly one environment that proposes a non-empty definition; ' +
          (proposing.length === 0
            ? 'none does'
            : `${proposing.length} do (${proposing.map((environment) => `"${environment.uid}"`).join(', ')})`),
        location: null,
      });
    }
  }
  return issues;
}

/** The number of actuators an environment proposes, or the issue that stopped it proposing. */
async function proposalSize(
  factory: unknown,
  init: unknown,
  ref: ComponentRef,
): Promise<number | ConfigIssue> {
  try {
    const environment = requireMethods<Environment>(
      instantiate(factory, init, ref),
      COMPONENT_METHODS.environment,
      ref,
      'environment',
    );
    const proposal = await environment.proposeDefinition();
    return proposal?.interface.actuators.length ?? 0;
  } catch (error) {
    return issueFromError(ref, error);
  }
}

const DEFINITION_FIELD = /^(definition(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*): (.*)$/s;
const PARAMS_POINTER = /^(\/\S*): (.*)$/s;

/**
 * An environment's error as an issue at the field it names: a
 * `definition.include[0]: ...` field or a `/scenario/...` pointer into its
 * params; otherwise at the component, with the error's class.
 */
function issueFromError(ref: ComponentRef, error: unknown): ConfigIssue {
  const message = error instanceof Error ? error.message : String(error);
  // instantiate prefixes its errors with the component's path and name
  const prefix = `${ref.yamlPath} (${ref.name}): `;
  const contract = message.startsWith(prefix);
  const own = contract ? message.slice(prefix.length) : message;
  const field = DEFINITION_FIELD.exec(own);
  if (field !== null) {
    return {
      path: `${ref.yamlPath}.params.${field[1]}`,
      message: field[2] as string,
      location: null,
    };
  }
  const pointer = PARAMS_POINTER.exec(own);
  if (pointer !== null) {
    const tokens = (pointer[1] as string)
      .split('/')
      .slice(1)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
      // digits index a list, or name a numeric YAML key such as a bus number
      .map((token): PathSegment => (/^\d+$/.test(token) ? Number(token) : token));
    const path = formatYamlPath([...(parseYamlPath(ref.yamlPath) ?? []), 'params', ...tokens]);
    return { path, message: pointer[2] as string, location: null };
  }
  const kind =
    !contract && error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  return { path: ref.yamlPath, message: `${kind}${own}`, location: null };
}

/**
 * Check a run file's text the way `arena run` does before it creates a run:
 * parse it (see `parseRunFile`), then find {@link runSpecIssues}. Every
 * problem is reported at once, each with its YAML path, line and column.
 *
 * @throws {RunFileError} listing every problem.
 * @example
 * ```ts
 * const spec = await validateRunFileText(text, { sourcePath: 'run.yaml', builtins: builtinComponents });
 * // or RunFileError: run.yaml: invalid run file, 1 problem:
 * //   schedule[0].train.agents[0].brain.params.populaton: unknown key; did you mean "population"? (...) (line 12, column 52)
 * ```
 */
export async function validateRunFileText(
  text: string,
  options: RunFileValidationOptions & { readonly sourcePath: string; readonly baseDir?: string },
): Promise<RunSpec> {
  const { sourcePath } = options;
  const baseDir = options.baseDir ?? path.dirname(path.resolve(sourcePath));
  const parsed = tryParseRunFile(text, { sourcePath, baseDir });
  if (!parsed.ok) {
    if (parsed.document === undefined) throw new RunFileError(sourcePath, parsed.issues);
    // the parts that are well formed are checked in the same pass, not after the shape is fixed
    const { refs, runCondition } = wellFormedRefs(parsed.document);
    const deeper = [
      ...(await componentIssues(refs, baseDir, options)).issues,
      ...runConditionIssues(runCondition),
    ];
    throw new RunFileError(sourcePath, locateRunFileIssues(text, [...parsed.issues, ...deeper]));
  }
  const { spec } = parsed;
  const issues = await runSpecIssues(spec, options);
  if (issues.length > 0) {
    throw new RunFileError(sourcePath, locateRunFileIssues(text, issues));
  }
  return spec;
}

/**
 * Read a run file and check it as `arena run` does (see {@link validateRunFileText}).
 *
 * @throws {RunFileError} listing every problem, or that the file cannot be read.
 * @example
 * ```ts
 * const spec = await validateRunFile('examples/hosting-capacity.yaml', { builtins: builtinComponents });
 * describeRunSpec(spec); // 'ok: hosting-capacity, 7 phases (...), profile meta'
 * ```
 */
export async function validateRunFile(
  filePath: string,
  options: RunFileValidationOptions,
): Promise<RunSpec> {
  return validateRunFileText(await readRunFileText(filePath), { ...options, sourcePath: filePath });
}
