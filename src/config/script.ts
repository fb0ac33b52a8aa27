import { ArenaError } from '../domain/shared/errors.js';
import {
  type ConfigIssue,
  formatYamlPath,
  type PathSegment,
  parseYamlPath,
} from './configIssue.js';
import { describeIssues } from './runFileError.js';
import { lifecycleScriptSchema, type META_LOOP_LEARNING } from './scriptSchema.js';
import { issuesFromZod, type PathIssue } from './zodIssues.js';

/** Agents that act, then environments that step, in one turn. */
export interface TurnGroup {
  readonly agents: readonly string[];
  readonly environments: readonly string[];
}

/**
 * A validated lifecycle script. `meta` when `episodeStart` is non-empty: then
 * `metaAgent` makes the one definition decision and `operatingAgent` runs the
 * loop; in the `generic` profile both are `null`.
 */
export interface LifecycleScript {
  readonly profile: 'meta' | 'generic';
  readonly episodeStart: readonly TurnGroup[];
  readonly loop: readonly TurnGroup[];
  readonly episodeEnd: readonly TurnGroup[];
  readonly metaAgent: string | null;
  readonly operatingAgent: string | null;
  /**
   * The repeated meta loop (opt-in, `every` on an `episode_start` group): the
   * meta turn reruns every this many episodes. Absent: the seed's one-shot
   * decision per start request.
   */
  readonly metaEvery?: number;
  /** What the operating agent's learning state does at each repeated decision (with `metaEvery`). */
  readonly metaLearning?: MetaLoopLearning;
}

/**
 * `carry_over` keeps the operating agent's learning at a new decision; `reset`
 * restores its first state when the decision changes the candidate.
 */
export type MetaLoopLearning = (typeof META_LOOP_LEARNING)[number];

/** What a script may name, and where it sits in the run file. */
export interface ScriptContext {
  /** Declared agent names of the phase. */
  readonly agents: readonly string[];
  /** Declared environment UIDs of the phase. */
  readonly environments: readonly string[];
  /** YAML path of the script, e.g. `schedule[0].train.simulation.params.script`. */
  readonly yamlPath: string;
}

/**
 * A lifecycle script that breaks the script rules. `issues` lists every
 * problem, each with the YAML path inside the script.
 *
 * @example
 * ```ts
 * try { parseLifecycleScript({ loop: [] }, { agents: [], environments: [], yamlPath: 'script' }); }
 * catch (error) { if (error instanceof ScriptError) console.log(error.issues[0]?.path); }
 * // script.loop
 * ```
 */
export class ScriptError extends ArenaError {
  readonly issues: readonly ConfigIssue[];
  constructor(yamlPath: string, issues: readonly ConfigIssue[]) {
    super('SCRIPT', describeIssues(yamlPath || 'script', 'invalid lifecycle script', issues));
    this.issues = issues;
  }
}

type ScriptKey = 'episode_start' | 'loop' | 'episode_end';

/**
 * Validate a lifecycle script (`simulation.params.script`) before any
 * environment or agent exists.
 *
 * Rules: `loop` is required and non-empty; each turn group names at least one
 * declared agent or environment, each at most once. A non-empty
 * `episode_start` selects the meta profile: exactly one agent in
 * `episode_start` (the meta agent), exactly one agent in `loop` (the operating
 * agent), two distinct names, and an empty `episode_end`. `every` (with
 * `learning`), written once on an `episode_start` group, opts into the
 * repeated meta loop. (That exactly one
 * environment proposes a non-empty definition needs live environments; the
 * controller checks it.)
 *
 * @throws {ScriptError} listing every problem at once.
 * @example
 * ```ts
 * parseLifecycleScript(
 *   { episode_start: [{ agents: ['meta'], environments: ['grid'] }],
 *     loop: [{ agents: ['operator'], environments: ['grid'] }] },
 *   { agents: ['meta', 'operator'], environments: ['grid'], yamlPath: 'script' },
 * );
 * // { profile: 'meta', metaAgent: 'meta', operatingAgent: 'operator',
 * //   episodeStart: [{ agents: ['meta'], environments: ['grid'] }],
 * //   loop: [{ agents: ['operator'], environments: ['grid'] }], episodeEnd: [] }
 * ```
 */
export function parseLifecycleScript(raw: unknown, context: ScriptContext): LifecycleScript {
  const prefix = parseYamlPath(context.yamlPath) ?? [context.yamlPath];
  const issues: PathIssue[] = [];
  const schema = lifecycleScriptSchema;
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (!parsed.success) {
    throw scriptError(context.yamlPath, issuesFromZod(parsed.error, schema, prefix));
  }
  const script = parsed.data;
  for (const key of ['episode_start', 'loop', 'episode_end'] as const) {
    issues.push(...checkGroups(script[key], [...prefix, key], context));
  }
  const profile = script.episode_start.length > 0 ? 'meta' : 'generic';
  let metaAgent: string | null = null;
  let operatingAgent: string | null = null;
  if (profile === 'meta') {
    metaAgent = soleAgent(script, 'episode_start', 'the meta agent', prefix, issues);
    operatingAgent = soleAgent(script, 'loop', 'the operating agent', prefix, issues);
    if (metaAgent !== null && metaAgent === operatingAgent) {
      issues.push({
        segments: [...prefix, 'loop'],
        message: `the meta agent ${JSON.stringify(metaAgent)} is also the operating agent: expected two distinct agents in episode_start and loop`,
      });
    }
    if (script.episode_end.length > 0) {
      issues.push({
        segments: [...prefix, 'episode_end'],
        message:
          'expected an empty episode_end: the meta profile (a non-empty episode_start) runs no end-of-episode turns',
      });
    }
  }
  const { every, learning } = metaLoopOf(script.episode_start, prefix, issues);
  if (issues.length > 0) throw scriptError(context.yamlPath, issues);
  return {
    profile,
    episodeStart: script.episode_start,
    loop: script.loop,
    episodeEnd: script.episode_end,
    metaAgent,
    operatingAgent,
    // the one-shot profile's script is exactly the seed's: no loop keys at all
    ...(every !== null ? { metaEvery: every, metaLearning: learning } : {}),
  };
}

/** The repeated meta loop's settings: `every` and `learning` are written once, on one group. */
function metaLoopOf(
  groups: readonly { readonly every?: number; readonly learning?: MetaLoopLearning }[],
  prefix: readonly PathSegment[],
  issues: PathIssue[],
): { every: number | null; learning: MetaLoopLearning } {
  let every: number | null = null;
  let learning: MetaLoopLearning = 'carry_over';
  let declaredAt: number | null = null;
  groups.forEach((group, index) => {
    if (group.every === undefined && group.learning === undefined) return;
    const groupPath = [...prefix, 'episode_start', index];
    if (declaredAt !== null) {
      issues.push({
        segments: [...groupPath, group.every !== undefined ? 'every' : 'learning'],
        message: `expected every and learning once, on one episode_start group; episode_start[${declaredAt}] already declares them`,
      });
      return;
    }
    declaredAt = index;
    if (group.every === undefined) {
      issues.push({
        segments: [...groupPath, 'learning'],
        message:
          'learning applies to the repeated meta loop only: expected every (a number of episodes) beside it',
      });
      return;
    }
    every = group.every;
    learning = group.learning ?? 'carry_over';
  });
  return { every, learning };
}

function checkGroups(
  groups: readonly TurnGroup[],
  path: readonly PathSegment[],
  context: ScriptContext,
): PathIssue[] {
  const issues: PathIssue[] = [];
  groups.forEach((group, index) => {
    const groupPath = [...path, index];
    if (group.agents.length === 0 && group.environments.length === 0) {
      issues.push({
        segments: groupPath,
        message: 'expected a turn group naming at least one agent or environment',
      });
    }
    issues.push(...checkNames(group.agents, [...groupPath, 'agents'], context.agents, 'agent'));
    issues.push(
      ...checkNames(
        group.environments,
        [...groupPath, 'environments'],
        context.environments,
        'environment',
      ),
    );
  });
  return issues;
}

function checkNames(
  names: readonly string[],
  path: readonly PathSegment[],
  declared: readonly string[],
  kind: 'agent' | 'environment',
): PathIssue[] {
  const issues: PathIssue[] = [];
  const seen = new Set<string>();
  names.forEach((name, index) => {
    if (!declared.includes(name)) {
      const known = declared.length > 0 ? declared.join(', ') : `no ${kind}s are declared`;
      issues.push({
        segments: [...path, index],
        message: `unknown ${kind} ${JSON.stringify(name)} (expected a declared ${kind}: ${known})`,
      });
    }
    if (seen.has(name)) {
      issues.push({
        segments: [...path, index],
        message: `${kind} ${JSON.stringify(name)} appears twice in this turn group`,
      });
    }
    seen.add(name);
  });
  return issues;
}

/** The one agent a meta-profile section names, or `null` after recording why not. */
function soleAgent(
  script: Readonly<Record<ScriptKey, readonly TurnGroup[]>>,
  key: 'episode_start' | 'loop',
  role: string,
  prefix: readonly PathSegment[],
  issues: PathIssue[],
): string | null {
  const names = [...new Set(script[key].flatMap((group) => group.agents))];
  if (names.length === 1) return names[0] ?? null;
  const found = names.length === 0 ? 'found none' : `found ${names.length}: ${names.join(', ')}`;
  issues.push({
    segments: [...prefix, key],
    message: `expected exactly one agent in ${key}, ${role}, because a non-empty episode_start selects the meta profile; ${found}`,
  });
  return null;
}

function scriptError(yamlPath: string, issues: readonly PathIssue[]): ScriptError {
  return new ScriptError(
    yamlPath,
    issues.map((issue) => ({
      path: formatYamlPath(issue.segments),
      message: issue.message,
      location: null,
    })),
  );
}
