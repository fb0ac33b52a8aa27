import { z } from 'zod';
import { describeValue } from '../shared/describeValue.js';
import { closestName } from '../shared/suggest.js';
import { TerminationConfigError, type TerminationConfigIssue } from './errors.js';
import { type ConfigurationView, seedFingerprint } from './seedFingerprint.js';

export type { TerminationConfigIssue };

/** When an evaluation metric qualifies for success. */
export type SuccessDirection = 'greater_equal' | 'less_equal';
/** Which way a plateau metric improves. */
export type PlateauDirection = 'maximize' | 'minimize';

/** The seed's `success` rule, camelCased. */
export interface SuccessRule {
  readonly metric: string;
  readonly threshold: number;
  readonly direction: SuccessDirection;
  readonly consecutive: number;
  readonly minEvaluations: number;
}

/** The seed's `plateau` rule, camelCased. */
export interface PlateauRule {
  readonly metric: string;
  readonly direction: PlateauDirection;
  readonly minDelta: number;
  readonly patience: number;
  readonly minEvaluations: number;
  readonly window: number;
}

/** One agent's rules: at least one of the two is set. */
export interface AgentTerminationRules {
  readonly success: SuccessRule | null;
  readonly plateau: PlateauRule | null;
}

/** A parsed, validated rule set (plain JSON). */
export interface TerminationConfig {
  /** Agent names, sorted: the order the seed records outcomes in. */
  readonly agentNames: readonly string[];
  readonly agents: Readonly<Record<string, AgentTerminationRules>>;
}

const positiveInteger = z
  // the boolean note only where YAML's true/false was written (`consecutive: yes`)
  .number({
    error: (issue) =>
      typeof issue.input === 'boolean'
        ? 'must be a positive integer (booleans are not integers)'
        : 'must be a positive integer',
  })
  .int({ error: 'must be a positive integer' })
  .positive({ error: 'must be a positive integer' });
const metricName = z
  .string({ error: 'must be a non-empty string' })
  .min(1, { error: 'must be a non-empty string' });

const successSchema = z.strictObject(
  {
    metric: metricName,
    threshold: z.number({ error: 'must be a finite number' }),
    direction: z.enum(['greater_equal', 'less_equal'], {
      error: 'must be greater_equal or less_equal',
    }),
    consecutive: positiveInteger,
    min_evaluations: positiveInteger,
  },
  { error: 'must be a mapping' },
);

const plateauSchema = z.strictObject(
  {
    metric: metricName,
    direction: z.enum(['maximize', 'minimize'], { error: 'must be maximize or minimize' }),
    min_delta: z
      .number({ error: 'must be a non-negative finite number' })
      .nonnegative({ error: 'must be a non-negative finite number' }),
    patience: positiveInteger,
    min_evaluations: positiveInteger,
    window: positiveInteger,
  },
  { error: 'must be a mapping' },
);

const agentRulesSchema = z.strictObject(
  { success: successSchema.optional(), plateau: plateauSchema.optional() },
  { error: 'rules must be a mapping' },
);

/**
 * One agent's rules as a run file or rules YAML writes them: the seed's
 * snake_case keys, `success` and/or `plateau` (the input of the rule schema).
 *
 * @example
 * ```ts
 * const rules: AgentRulesInput = {
 *   success: { metric: 'objective', threshold: 0.8, direction: 'greater_equal', consecutive: 2, min_evaluations: 3 },
 * };
 * ```
 */
export type AgentRulesInput = z.input<typeof agentRulesSchema>;

/**
 * The seed-shaped `agents` mapping: agent name to its {@link AgentRulesInput}.
 *
 * @example
 * ```ts
 * const agents: TerminationAgentsInput = {
 *   SAC: { plateau: { metric: 'objective', direction: 'maximize', min_delta: 0.01, patience: 3, min_evaluations: 3, window: 1 } },
 * };
 * parseTerminationConfig({ agents }).agentNames; // ['SAC']
 * ```
 */
export type TerminationAgentsInput = Readonly<Record<string, AgentRulesInput>>;

const expectedKeys = {
  success: 'metric, threshold, direction, consecutive, min_evaluations',
  plateau: 'metric, direction, min_delta, patience, min_evaluations, window',
} as const;

/**
 * Every problem of a seed-shaped rule set at once, for every agent (an empty
 * list when {@link parseTerminationConfig} accepts it). An unknown key names
 * the key and the accepted key it most likely meant.
 *
 * @example
 * ```ts
 * terminationConfigIssues({ agents: { SAC: { success: { ...rule, min_evaluation: 3 } } } });
 * // [{ path: ['agents', 'SAC', 'success', 'min_evaluation'],
 * //    detail: 'unknown key; did you mean "min_evaluations"? (expected exactly metric, threshold, direction, consecutive, min_evaluations)',
 * //    message: 'agent "SAC": success has unknown key "min_evaluation" (did you mean "min_evaluations"?); expected exactly metric, threshold, direction, consecutive, min_evaluations' },
 * //  { path: ['agents', 'SAC', 'success', 'min_evaluations'], ... 'success.min_evaluations is missing; ...' }]
 * ```
 */
export function terminationConfigIssues(raw: unknown): TerminationConfigIssue[] {
  return checkTerminationConfig(raw).issues;
}

/**
 * Parse the seed-shaped `agents` mapping (snake_case keys, exactly the seed's
 * rules) into a {@link TerminationConfig}. Accepts either `{ agents }` or the
 * `agents` mapping itself.
 *
 * @throws TerminationConfigError naming every agent, field and what was
 * expected (its `issues` list them one by one).
 * @example
 * ```ts
 * parseTerminationConfig({ agents: { SAC: { success: {
 *   metric: 'objective', threshold: 0.8, direction: 'greater_equal', consecutive: 2, min_evaluations: 3,
 * } } } });
 * // { agentNames: ['SAC'], agents: { SAC: { success: { metric: 'objective', threshold: 0.8,
 * //   direction: 'greater_equal', consecutive: 2, minEvaluations: 3 }, plateau: null } } }
 * ```
 */
export function parseTerminationConfig(raw: unknown): TerminationConfig {
  const { config, issues } = checkTerminationConfig(raw);
  if (config === null || issues.length > 0) {
    throw new TerminationConfigError(issues.map((issue) => issue.message).join('; '), { issues });
  }
  return config;
}

/**
 * The rules as a rule file writes them, or already parsed: `{ agents }`, the
 * `agents` mapping itself (the seed's snake_case keys), or a
 * {@link TerminationConfig} from {@link parseTerminationConfig}.
 */
export type TerminationRulesInput =
  | TerminationConfig
  | { readonly agents: TerminationAgentsInput }
  | TerminationAgentsInput;

/**
 * A {@link TerminationConfig} from rules as a YAML file writes them (parsed
 * with {@link parseTerminationConfig}, with its errors), or the config itself
 * when it is one already: what every function that takes rules from
 * JavaScript (`createTerminationState`, `fuzzTermination`) reads them with.
 *
 * @throws TerminationConfigError naming every agent and field that is wrong.
 * @example
 * ```ts
 * const config = terminationConfigOf({ agents: { SAC: { success: {
 *   metric: 'objective', threshold: 0.8, direction: 'greater_equal', consecutive: 1, min_evaluations: 1,
 * } } } });
 * config.agents.SAC?.success?.minEvaluations; // 1
 * terminationConfigOf(config) === config; // true
 * ```
 */
export function terminationConfigOf(rules: TerminationRulesInput | unknown): TerminationConfig {
  return isParsedConfig(rules) ? rules : parseTerminationConfig(rules);
}

/** Whether `value` has the shape `parseTerminationConfig` returns (camelCased rules under `agentNames`). */
function isParsedConfig(value: unknown): value is TerminationConfig {
  if (!isRecord(value) || !Array.isArray(value.agentNames) || !isRecord(value.agents)) return false;
  const agents = value.agents;
  return value.agentNames.every((name) => {
    const rules = typeof name === 'string' ? agents[name] : undefined;
    return isRecord(rules) && 'success' in rules && 'plateau' in rules;
  });
}

function checkTerminationConfig(raw: unknown): {
  config: TerminationConfig | null;
  issues: TerminationConfigIssue[];
} {
  const wrapped = isRecord(raw) && 'agents' in raw;
  const agentsInput = wrapped ? raw.agents : raw;
  const prefix = wrapped ? ['agents'] : [];
  if (!isRecord(agentsInput) || Object.keys(agentsInput).length === 0) {
    const detail = `expected a non-empty mapping of agent name to rules, got ${describeValue(agentsInput)}`;
    const message = `agents must be a non-empty mapping of agent name to rules, got ${describeValue(agentsInput)}`;
    return { config: null, issues: [{ path: prefix, detail, message }] };
  }
  const agentNames = Object.keys(agentsInput).sort();
  const agents: Record<string, AgentTerminationRules> = {};
  const issues: TerminationConfigIssue[] = [];
  for (const agentName of agentNames) {
    if (agentName.length === 0) {
      const message = 'agent names must be non-empty strings';
      issues.push({ path: [...prefix, agentName], detail: message, message });
      continue;
    }
    const parsed = parseAgentRules(agentName, agentsInput[agentName], [...prefix, agentName]);
    if (parsed.rules !== null) agents[agentName] = parsed.rules;
    issues.push(...parsed.issues);
  }
  // which rules an agent declares is known from its mapping even when a rule is malformed
  const declared = agentNames.filter((name) => name !== '' && isRecord(agentsInput[name]));
  const declares = (name: string, category: string) =>
    (agentsInput[name] as Record<string, unknown>)[category] !== undefined;
  issues.push(...everyAgentOrNone('success', declared, declares, prefix));
  issues.push(...everyAgentOrNone('plateau', declared, declares, prefix));
  return { config: issues.length === 0 ? { agentNames, agents } : null, issues };
}

function parseAgentRules(
  agentName: string,
  raw: unknown,
  path: readonly (string | number)[],
): { rules: AgentTerminationRules | null; issues: TerminationConfigIssue[] } {
  const agent = `agent ${JSON.stringify(agentName)}`;
  const result = agentRulesSchema.safeParse(raw, { reportInput: true });
  if (!result.success) {
    const issues = result.error.issues.flatMap((issue) => explain(issue, agent, path));
    return { rules: null, issues };
  }
  const { success, plateau } = result.data;
  if (success === undefined && plateau === undefined) {
    const detail = 'needs a success and/or plateau rule';
    return { rules: null, issues: [{ path, detail, message: `${agent}: ${detail}` }] };
  }
  return {
    issues: [],
    rules: {
      success:
        success === undefined
          ? null
          : {
              metric: success.metric,
              threshold: success.threshold,
              direction: success.direction,
              consecutive: success.consecutive,
              minEvaluations: success.min_evaluations,
            },
      plateau:
        plateau === undefined
          ? null
          : {
              metric: plateau.metric,
              direction: plateau.direction,
              minDelta: plateau.min_delta,
              patience: plateau.patience,
              minEvaluations: plateau.min_evaluations,
              window: plateau.window,
            },
    },
  };
}

function explain(
  issue: z.core.$ZodIssue,
  agent: string,
  agentPath: readonly (string | number)[],
): TerminationConfigIssue[] {
  const issuePath = issue.path.map((part) => (typeof part === 'number' ? part : String(part)));
  const path = [...agentPath, ...issuePath];
  const field = issuePath.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const rule = field as keyof typeof expectedKeys;
    const known = field === '' ? ['success', 'plateau'] : (expectedKeys[rule]?.split(', ') ?? []);
    const expected =
      field === '' ? 'success and/or plateau' : `exactly ${expectedKeys[rule] ?? 'the seed keys'}`;
    return issue.keys.map((key) => {
      const suggestion = closestName(key, known);
      const hint = suggestion === null ? '' : ` (did you mean ${JSON.stringify(suggestion)}?)`;
      const what = field === '' ? 'rule' : 'key';
      const message =
        field === ''
          ? `${agent}: unknown rule ${JSON.stringify(key)}${hint}; expected ${expected}`
          : `${agent}: ${field} has unknown key ${JSON.stringify(key)}${hint}; expected ${expected}`;
      const didYou = suggestion === null ? '' : `; did you mean ${JSON.stringify(suggestion)}?`;
      return {
        path: [...path, key],
        detail: `unknown ${what}${didYou} (expected ${expected})`,
        message,
        expected,
        ...(suggestion !== null ? { suggestion } : {}),
      };
    });
  }
  if (field === '') {
    const detail = `${issue.message}, got ${describeValue(issue.input)}`;
    return [{ path, detail, message: `${agent}: ${detail}` }];
  }
  if (issue.input === undefined) {
    const detail = `missing; it ${issue.message}`;
    return [{ path, detail, message: `${agent}: ${field} is ${detail}` }];
  }
  const detail = `${issue.message}, got ${describeValue(issue.input)}`;
  return [{ path, detail, message: `${agent}: ${field} ${detail}` }];
}

function everyAgentOrNone(
  category: 'success' | 'plateau',
  agentNames: readonly string[],
  declares: (name: string, category: string) => boolean,
  prefix: readonly string[],
): TerminationConfigIssue[] {
  const missing = agentNames.filter((name) => !declares(name, category));
  if (missing.length === 0 || missing.length === agentNames.length) return [];
  const detail = `${category} is missing; a ${category} rule must be configured for every agent or no agent`;
  return missing.map((name) => ({
    path: [...prefix, name],
    detail,
    message: `agent ${JSON.stringify(name)}: ${detail}`,
  }));
}

/**
 * The seed's configuration view (snake_case, `null` for an absent rule), the
 * data that the fingerprint and a state dict's `configuration` hold.
 *
 * @example
 * ```ts
 * configurationView(config);
 * // { success: { SAC: { metric: 'objective', threshold: 0.8, direction: 'greater_equal',
 * //   consecutive: 2, min_evaluations: 3 } }, plateau: { SAC: null } }
 * ```
 */
export function configurationView(config: TerminationConfig): ConfigurationView {
  const success: Record<string, Record<string, string | number> | null> = {};
  const plateau: Record<string, Record<string, string | number> | null> = {};
  for (const name of config.agentNames) {
    const rules = config.agents[name];
    const s = rules?.success ?? null;
    const p = rules?.plateau ?? null;
    success[name] =
      s === null
        ? null
        : {
            metric: s.metric,
            threshold: s.threshold,
            direction: s.direction,
            consecutive: s.consecutive,
            min_evaluations: s.minEvaluations,
          };
    plateau[name] =
      p === null
        ? null
        : {
            metric: p.metric,
            direction: p.direction,
            min_delta: p.minDelta,
            patience: p.patience,
            min_evaluations: p.minEvaluations,
            window: p.window,
          };
  }
  return { success, plateau };
}

/**
 * The seed's fingerprint of {@link configurationView}: sha256 (hex) of the
 * JSON Python's `json.dumps(sort_keys=True)` writes (`"threshold":1.0`), so
 * equal rules give the seed's fingerprint whatever the key order of the input.
 *
 * @example
 * ```ts
 * // SAC with only a success rule: objective ≥ 1, consecutive 2, min_evaluations 3
 * configurationFingerprint(config);
 * // '45332db3c52499e49a83421f9f6fee21cb0e19889293665dc488e8e59ff8a22f' (the seed's)
 * ```
 */
export function configurationFingerprint(config: TerminationConfig): string {
  return seedFingerprint(configurationView(config));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
