import path from 'node:path';
import type { KeyOrder } from '../domain/definition/types.js';
import { ArenaError } from '../domain/shared/errors.js';
import { deepFreeze, isPlainObject, type JsonObject } from '../domain/shared/json.js';
import { cannotReadFile, unreadableReason } from '../ports/runtime/unreadableFile.js';
import {
  type ConfigIssue,
  formatYamlPath,
  type PathSegment,
  parseYamlPath,
} from './configIssue.js';
import { readInputText } from './inputFile.js';
import { declares, declaringPhase, inheritPhase } from './phaseInheritance.js';
import { declaredNames, duplicateNames } from './phaseNames.js';
import { RunFileError } from './runFileError.js';
import { type CompletePhaseDocument, completePhaseSchema, runFileSchema } from './runFileSchema.js';
import type { ComponentRef, EnvironmentSpec, PhaseSpec, RunSpec } from './runSpec.js';
import { type LifecycleScript, parseLifecycleScript, ScriptError } from './script.js';
import { lifecycleScriptSchema } from './scriptSchema.js';
import { readYamlSource, type YamlSource } from './yamlSource.js';
import { issuesFromZod, type PathIssue } from './zodIssues.js';

/** Where a run file's text came from. */
export interface ParseRunFileOptions {
  /** The file path, for messages and `spec.sourcePath`. */
  readonly sourcePath: string;
  /** Folder for `./path.js:Export` components; defaults to the folder of `sourcePath`. */
  readonly baseDir?: string;
}

/**
 * Read and validate a run file (see {@link parseRunFile}).
 *
 * @throws {RunFileError} when the file cannot be read or is invalid.
 * @example
 * ```ts
 * const spec = await loadRunFile('examples/two-feeders.yaml');
 * spec.phases.map((phase) => phase.name); // ['train', 'test']
 * ```
 */
export async function loadRunFile(filePath: string): Promise<RunSpec> {
  return parseRunFile(await readRunFileText(filePath), { sourcePath: filePath });
}

/**
 * Read a run file's text.
 *
 * @throws {RunFileError} with one issue when the file cannot be read.
 * @throws {InputTooLargeError} when it is over the input cap (`--max-input-bytes`).
 * @example
 * ```ts
 * await readRunFileText('absent.yaml');
 * // RunFileError: cannot read absent.yaml: no such file
 * //   (one issue, at no path: 'cannot read the run file: no such file')
 * ```
 */
export async function readRunFileText(filePath: string): Promise<string> {
  try {
    return readInputText(filePath);
  } catch (error) {
    if (ArenaError.is(error)) throw error;
    throw new RunFileError(
      filePath,
      [
        {
          path: '',
          message: `cannot read the run file: ${unreadableReason(error)}`,
          location: null,
        },
      ],
      { cause: error, message: cannotReadFile(filePath, error) },
    );
  }
}

/**
 * Validate a YAML run file and normalise it into a camelCase {@link RunSpec}.
 *
 * A phase inherits everything from the phase before it and overrides what it
 * declares: mappings deep-merge, lists and scalars replace (see
 * `inheritPhase`). The first phase must be complete. Every problem in the file
 * (YAML syntax, unknown keys, wrong types, duplicate names, lifecycle-script
 * rules) is reported at once, each with its YAML path and line and column.
 *
 * @throws {RunFileError} listing every problem.
 * @example
 * ```ts
 * const spec = parseRunFile(text, { sourcePath: 'runs/grid.yaml' });
 * spec.phases[1]?.yamlPath;                  // 'schedule[1].test'
 * spec.phases[0]?.simulation.script.profile; // 'meta'
 * spec.phases[0]?.phaseConfig;
 * // { mode: 'train', worker: 1, episodes: 20, evaluateEvery: 2, maxSteps: 96 }
 * ```
 */
export function parseRunFile(text: string, options: ParseRunFileOptions): RunSpec {
  const parsed = tryParseRunFile(text, options);
  if (!parsed.ok) throw new RunFileError(options.sourcePath, parsed.issues);
  return parsed.spec;
}

/** What {@link tryParseRunFile} made of a run file's text. */
export type RunFileParse =
  | { readonly ok: true; readonly spec: RunSpec }
  | {
      readonly ok: false;
      /** Every problem found, located, in document order. */
      readonly issues: readonly ConfigIssue[];
      /** The document as YAML read it, for later checks of its well-formed parts; `undefined` when it is not YAML. */
      readonly document: unknown;
    };

/**
 * {@link parseRunFile} without the throw: the spec, or every problem together
 * with the document as read, so a caller can go on checking the parts of a
 * file that are well formed (`validateRunFileText` does).
 *
 * @example
 * ```ts
 * const parsed = tryParseRunFile('uid: x\n', { sourcePath: 'run.yaml' });
 * parsed.ok; // false
 * parsed.ok || parsed.issues[0]?.path; // 'seed'
 * ```
 */
export function tryParseRunFile(text: string, options: ParseRunFileOptions): RunFileParse {
  const { sourcePath } = options;
  const source = readYamlSource(text);
  if (source.syntaxIssues.length > 0) {
    return { ok: false, issues: source.syntaxIssues, document: undefined };
  }
  const raw = source.value;
  const issues: PathIssue[] = [];
  const parsed = runFileSchema.safeParse(raw, { reportInput: true });
  // A loop, not push(...spread): a file with 400k unknown keys has 400k issues.
  if (!parsed.success) for (const issue of structuralIssues(raw, parsed.error)) issues.push(issue);
  const rawSchedule = isPlainObject(raw) ? raw.schedule : undefined;
  const phases = Array.isArray(rawSchedule)
    ? buildPhases(rawSchedule, source.keyOrder, issues, !parsed.success)
    : [];
  if (issues.length > 0 || !parsed.success) {
    return { ok: false, issues: locateIssues(issues, source), document: raw };
  }
  const file = parsed.data;
  const condition = file.run_config?.condition;
  const spec: RunSpec = deepFreeze({
    uid: file.uid,
    seed: file.seed,
    version: file.version,
    sourcePath,
    baseDir: options.baseDir ?? path.dirname(path.resolve(sourcePath)),
    sourceText: text,
    phases,
    runCondition: condition ? componentRef(condition, ['run_config', 'condition']) : null,
    trustedServices: file.run_config?.trust_services ?? {},
  });
  return { ok: true, spec };
}

function structuralIssues(raw: unknown, error: import('zod').ZodError): PathIssue[] {
  const issues = issuesFromZod(error, runFileSchema);
  const schedule = isPlainObject(raw) ? raw.schedule : undefined;
  if (!Array.isArray(schedule) || schedule.length > 0) return issues;
  // An empty tuple is reported by zod at schedule[0]; say it at the list itself.
  return [
    ...issues.filter((issue) => !(issue.segments[0] === 'schedule' && issue.segments[1] === 0)),
    { segments: ['schedule'], message: 'expected a non-empty list of phases, got an empty list' },
  ];
}

interface DeclaredPhase {
  readonly name: string;
  readonly body: unknown;
}

function buildPhases(
  rawSchedule: readonly unknown[],
  keyOrder: KeyOrder,
  issues: PathIssue[],
  structureFailed: boolean,
): PhaseSpec[] {
  const declared: DeclaredPhase[] = [];
  for (const [index, entry] of rawSchedule.entries()) {
    // A malformed entry was reported by the schema; later phases cannot inherit past it.
    if (!isPlainObject(entry)) break;
    const names = Object.keys(entry);
    const [name] = names;
    if (names.length !== 1 || name === undefined) {
      issues.push({
        segments: ['schedule', index],
        message: `expected a mapping with one key, the phase name; got ${names.length} keys${names.length > 0 ? `: ${names.join(', ')}` : ''}`,
      });
      break;
    }
    const earlier = declared.findIndex((phase) => phase.name === name);
    if (earlier >= 0) {
      issues.push({
        segments: ['schedule', index, name],
        message: `duplicate phase name ${JSON.stringify(name)} (also schedule[${earlier}]): expected unique phase names`,
      });
    }
    declared.push({ name, body: entry[name] });
  }
  const bodies = declared.map((phase) => phase.body);
  const phases: PhaseSpec[] = [];
  let inherited: unknown;
  let previousScript: LifecycleScript | null = null;
  for (const [index, phase] of declared.entries()) {
    inherited = index === 0 ? phase.body : inheritPhase(inherited, phase.body);
    const context = { declared, bodies, index };
    for (const issue of duplicateNames(phase.body, phasePath(context, index))) issues.push(issue);
    const script = lifecycleScriptOf(inherited, context, previousScript, issues);
    previousScript = script;
    const merged = completePhaseSchema.safeParse(inherited, { reportInput: true });
    if (!merged.success && !structureFailed) {
      // Unreachable while each piece passed the schema; report rather than hide it.
      const prefix = phasePath(context, index);
      for (const issue of issuesFromZod(merged.error, completePhaseSchema, prefix))
        issues.push(issue);
    }
    if (merged.success && script !== null) {
      phases.push(phaseSpec(merged.data, context, script, keyOrder));
    }
  }
  return phases;
}

interface PhaseContext {
  readonly declared: readonly DeclaredPhase[];
  readonly bodies: readonly unknown[];
  readonly index: number;
}

/** Segments of `phase` as declared at `schedule[index].<name>`. */
function phasePath(context: PhaseContext, index: number): PathSegment[] {
  return ['schedule', index, context.declared[index]?.name ?? ''];
}

/** Where a list of the phase was written: the last phase up to this one that declares it. */
function declaredAt(context: PhaseContext, keys: readonly string[]): PathSegment[] {
  const origin = declaringPhase(context.bodies, context.index, keys);
  return [...phasePath(context, origin), ...keys];
}

function lifecycleScriptOf(
  phase: unknown,
  context: PhaseContext,
  previous: LifecycleScript | null,
  issues: PathIssue[],
): LifecycleScript | null {
  const body = context.bodies[context.index];
  const changed =
    context.index === 0 ||
    declares(body, ['agents']) ||
    declares(body, ['environments']) ||
    declares(body, ['simulation', 'params', 'script']);
  if (!changed) return previous;
  const rawScript = isPlainObject(phase)
    ? valueAt(phase, ['simulation', 'params', 'script'])
    : undefined;
  const agents = declaredNames(isPlainObject(phase) ? phase.agents : undefined, ['name']);
  const environments = declaredNames(isPlainObject(phase) ? phase.environments : undefined, [
    'environment',
    'uid',
  ]);
  // Structural problems in the script or the lists it names were already reported by the schema.
  if (!lifecycleScriptSchema.safeParse(rawScript).success || !agents || !environments) return null;
  const scriptPath = [...phasePath(context, context.index), 'simulation', 'params', 'script'];
  try {
    return parseLifecycleScript(rawScript, {
      agents,
      environments,
      yamlPath: formatYamlPath(scriptPath),
    });
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    for (const issue of error.issues) {
      issues.push({ segments: parseYamlPath(issue.path) ?? scriptPath, message: issue.message });
    }
    return null;
  }
}

function valueAt(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) current = isPlainObject(current) ? current[key] : undefined;
  return current;
}

function phaseSpec(
  phase: CompletePhaseDocument,
  context: PhaseContext,
  script: LifecycleScript,
  keyOrder: KeyOrder,
): PhaseSpec {
  const environmentsPath = declaredAt(context, ['environments']);
  const agentsPath = declaredAt(context, ['agents']);
  const environments: EnvironmentSpec[] = phase.environments.map(({ environment }, position) => {
    const entryPath = [...environmentsPath, position, 'environment'];
    return {
      uid: environment.uid,
      component: componentRef(environment, entryPath),
      params: environment.params as JsonObject,
      keyOrder: rerootKeyOrder(keyOrder, pointerOf([...entryPath, 'params'])),
    };
  });
  const conditionsPath = declaredAt(context, ['simulation', 'conditions']);
  const config = phase.phase_config;
  return {
    name: context.declared[context.index]?.name ?? '',
    index: context.index,
    yamlPath: formatYamlPath(phasePath(context, context.index)),
    environments,
    agents: phase.agents.map((agent, position) => ({
      name: agent.name,
      brain: componentRef(agent.brain, [...agentsPath, position, 'brain']),
      muscle: componentRef(agent.muscle, [...agentsPath, position, 'muscle']),
      objective: componentRef(agent.objective, [...agentsPath, position, 'objective']),
      sensors: agent.sensors,
      actuators: agent.actuators,
    })),
    simulation: {
      name: phase.simulation.name,
      script,
      conditions: phase.simulation.conditions.map((condition, position) =>
        componentRef(condition, [...conditionsPath, position]),
      ),
    },
    phaseConfig: {
      mode: config.mode,
      worker: config.worker,
      episodes: config.episodes,
      evaluateEvery: config.evaluate_every,
      maxSteps: config.max_steps,
    },
  };
}

function componentRef(
  ref: { readonly name: string; readonly params: Record<string, unknown> },
  segments: readonly PathSegment[],
): ComponentRef {
  return { name: ref.name, params: ref.params as JsonObject, yamlPath: formatYamlPath(segments) };
}

/** RFC 6901 pointer of a path in the document. */
function pointerOf(segments: readonly PathSegment[]): string {
  return segments
    .map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

/** The key-order entries under `prefix`, with pointers made relative to it. */
function rerootKeyOrder(keyOrder: KeyOrder, prefix: string): KeyOrder {
  const rerooted: Record<string, readonly string[]> = {};
  for (const [pointer, keys] of Object.entries(keyOrder)) {
    if (pointer === prefix) rerooted[''] = keys;
    else if (pointer.startsWith(`${prefix}/`)) rerooted[pointer.slice(prefix.length)] = keys;
  }
  return rerooted;
}

function locateIssues(issues: readonly PathIssue[], source: YamlSource): ConfigIssue[] {
  const located = issues.map(({ segments, ...issue }) => ({
    path: formatYamlPath(segments),
    ...issue,
    location: source.locate(segments),
  }));
  // Stable: issues without a location keep their order after the located ones.
  return located.sort(
    (a, b) =>
      (a.location?.line ?? Number.POSITIVE_INFINITY) -
        (b.location?.line ?? Number.POSITIVE_INFINITY) ||
      (a.location?.column ?? 0) - (b.location?.column ?? 0),
  );
}
