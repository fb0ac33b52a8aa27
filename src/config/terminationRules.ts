import { ArenaError } from '../domain/shared/errors.js';
import { isPlainObject, type JsonObject } from '../domain/shared/json.js';
import { didYouMean } from '../domain/shared/suggest.js';
import { terminationConfigIssues } from '../domain/termination/config.js';
import { validatePhaseConfiguration } from '../domain/termination/phase.js';
import { type ConfigIssue, formatIssue, formatYamlPath } from './configIssue.js';
import type { ComponentRef, RunSpec } from './runSpec.js';

/**
 * The run file's termination condition or phases do not fit together.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'RUN_CONFIG'); // true when `error` is a RunConfigError
 * error instanceof RunConfigError && error.name; // 'RunConfigError'
 * ```
 */
export class RunConfigError extends ArenaError {
  /** Every problem, each with its YAML path. */
  readonly issues: readonly ConfigIssue[];

  constructor(message: string, options?: { issues?: readonly ConfigIssue[] }) {
    super('RUN_CONFIG', message);
    this.issues = options?.issues ?? [];
  }
}

const EVALUATION_CONDITION = /(^|[:.])AgentEvaluationObjectiveTerminationCondition$/;
const MAX_EPISODES_CONDITION = /(^|[:.])MaxEpisodesTerminationCondition$/;

/**
 * The evaluation-aware rules of a run (`{ agents }`), or `null` when the run
 * uses a plain episode cap. Every phase is checked against them here, before
 * anything is created (see {@link terminationIssues}).
 *
 * @throws RunConfigError listing every problem, each with its YAML path.
 * @example
 * ```ts
 * terminationRulesOf(spec); // { agents: { operator: { success: {...}, plateau: {...} } } }
 * ```
 */
export function terminationRulesOf(spec: RunSpec): JsonObject | null {
  const issues = terminationIssues(spec);
  if (issues.length > 0) {
    throw new RunConfigError(issues.map(formatIssue).join('; '), { issues });
  }
  const condition = spec.runCondition;
  if (condition === null || !EVALUATION_CONDITION.test(condition.name)) return null;
  return { agents: (condition.params.agents ?? condition.params) as JsonObject };
}

/**
 * Every problem of a run's termination condition and of its phases against
 * it, each with its YAML path (no line yet): an unknown condition, the rules'
 * own problems (all agents at once, unknown keys with a suggestion), a rule
 * for an agent a training phase does not have, a phase
 * configuration the rules cannot end (`validatePhaseConfiguration`), a
 * cap-free phase without rules, a worker count other than 1.
 *
 * @example
 * ```ts
 * terminationIssues(spec);
 * // [{ path: 'run_config.condition.params.agents.operator.success.min_evaluation',
 * //    message: 'unknown key; did you mean "min_evaluations"? (expected exactly ...)', location: null }]
 * ```
 */
export function terminationIssues(spec: RunSpec): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message, location: null });
  const condition = spec.runCondition;
  const evaluationRules = condition !== null && EVALUATION_CONDITION.test(condition.name);
  issues.push(...runConditionIssues(condition));
  if (evaluationRules && condition !== null) issues.push(...ruleAgentIssues(spec, condition));
  for (const phase of spec.phases) {
    const config = phase.phaseConfig;
    const at = `${phase.yamlPath}.phase_config`;
    if (config.worker !== 1) add(`${at}.worker`, `arena runs one worker, got ${config.worker}`);
    if (evaluationRules) {
      try {
        validatePhaseConfiguration({
          mode: config.mode,
          worker: 1,
          episodes: config.episodes,
          evaluate_every: config.evaluateEvery,
        });
      } catch (error) {
        // the message reads `phase.<field> <what>`: name the field in the path instead
        const match = /^phase\.(\w+) (.*)$/s.exec((error as Error).message);
        if (match === null) add(at, (error as Error).message);
        else add(`${at}.${match[1]}`, match[2] as string);
      }
    } else if (config.episodes === null) {
      add(
        `${at}.episodes`,
        'a cap-free phase needs run_config.condition: ' +
          'arena:AgentEvaluationObjectiveTerminationCondition with rules that can stop it',
      );
    }
  }
  return issues;
}

/**
 * The problems of a run's termination condition alone, without its phases:
 * an unknown condition, or the rules' own problems (all agents at once,
 * unknown keys with a suggestion). `validateRunFileText` also asks this of a
 * file whose phases are malformed.
 *
 * @example
 * ```ts
 * runConditionIssues({ name: 'arena:NoSuchCondition', params: {}, yamlPath: 'run_config.condition' });
 * // [{ path: 'run_config.condition.name', message: 'unknown termination condition "arena:NoSuchCondition" (...)', location: null }]
 * ```
 */
export function runConditionIssues(condition: ComponentRef | null): ConfigIssue[] {
  if (condition === null || MAX_EPISODES_CONDITION.test(condition.name)) return [];
  if (!EVALUATION_CONDITION.test(condition.name)) {
    return [
      {
        path: `${condition.yamlPath}.name`,
        message:
          `unknown termination condition "${condition.name}" ` +
          '(expected arena:AgentEvaluationObjectiveTerminationCondition or arena:MaxEpisodesTerminationCondition)',
        location: null,
      },
    ];
  }
  return terminationConfigIssues(condition.params).map((issue) => ({
    path: `${condition.yamlPath}.params${pathSuffix(issue.path)}`,
    message: issue.detail,
    location: null,
    ...(issue.suggestion !== undefined ? { suggestion: issue.suggestion } : {}),
    ...(issue.expected !== undefined ? { expected: issue.expected } : {}),
  }));
}

/**
 * A rule for an agent that a training phase does not have would leave every
 * checkpoint of that phase incomplete, so the rules could never end it.
 */
function ruleAgentIssues(spec: RunSpec, condition: ComponentRef): ConfigIssue[] {
  const { params } = condition;
  const wrapped = 'agents' in params;
  const agents = wrapped ? params.agents : params;
  if (!isPlainObject(agents)) return [];
  const issues: ConfigIssue[] = [];
  for (const name of Object.keys(agents)) {
    const lacking = spec.phases.filter(
      (phase) =>
        phase.phaseConfig.mode === 'train' && !phase.agents.some((agent) => agent.name === name),
    );
    const [first] = lacking;
    if (first === undefined) continue;
    const known = first.agents.map((agent) => agent.name);
    const phases = lacking.map((phase) => phase.yamlPath).join(', ');
    issues.push({
      path: `${condition.yamlPath}.params${wrapped ? '.agents' : ''}${pathSuffix([name])}`,
      message:
        `no agent ${JSON.stringify(name)} in training phase${lacking.length > 1 ? 's' : ''} ${phases} ` +
        `(its agents: ${known.join(', ')}), so its checkpoints could never be complete${didYouMean(name, known)}`,
      location: null,
    });
  }
  return issues;
}

/** `.agents.SAC.success` for `['agents', 'SAC', 'success']`, `''` for the root. */
function pathSuffix(segments: readonly (string | number)[]): string {
  const text = formatYamlPath(segments);
  return text === '' || text.startsWith('[') ? text : `.${text}`;
}
