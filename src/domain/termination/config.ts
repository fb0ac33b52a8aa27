import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../shared/canonicalJson.js';
import { describeValue } from './describeValue.js';
import { TerminationConfigError } from './errors.js';

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
  .number({ error: 'must be a positive integer (booleans are not integers)' })
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

const expectedKeys = {
  success: 'metric, threshold, direction, consecutive, min_evaluations',
  plateau: 'metric, direction, min_delta, patience, min_evaluations, window',
} as const;

/**
 * Parse the seed-shaped `agents` mapping (snake_case keys, exactly the seed's
 * rules) into a {@link TerminationConfig}. Accepts either `{ agents }` or the
 * `agents` mapping itself.
 *
 * @throws TerminationConfigError naming the agent, the field and what was expected.
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
  const agentsInput = isRecord(raw) && 'agents' in raw ? raw.agents : raw;
  if (!isRecord(agentsInput) || Object.keys(agentsInput).length === 0) {
    throw new TerminationConfigError(
      `agents must be a non-empty mapping of agent name to rules, got ${describeValue(agentsInput)}`,
    );
  }
  const agentNames = Object.keys(agentsInput).sort();
  const agents: Record<string, AgentTerminationRules> = {};
  for (const agentName of agentNames) {
    if (agentName.length === 0) {
      throw new TerminationConfigError('agent names must be non-empty strings');
    }
    agents[agentName] = parseAgentRules(agentName, agentsInput[agentName]);
  }
  requireEveryAgentOrNone('success', agentNames, agents);
  requireEveryAgentOrNone('plateau', agentNames, agents);
  return { agentNames, agents };
}

function parseAgentRules(agentName: string, raw: unknown): AgentTerminationRules {
  const result = agentRulesSchema.safeParse(raw, { reportInput: true });
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new TerminationConfigError(`agent ${JSON.stringify(agentName)}: ${explain(issue)}`);
  }
  const { success, plateau } = result.data;
  if (success === undefined && plateau === undefined) {
    throw new TerminationConfigError(
      `agent ${JSON.stringify(agentName)}: needs a success and/or plateau rule`,
    );
  }
  return {
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
  };
}

function explain(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'invalid rules';
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    if (field === '') return `unknown rule ${unknown}; expected success and/or plateau`;
    const rule = field as keyof typeof expectedKeys;
    return `${field} has unknown key ${unknown}; expected exactly ${expectedKeys[rule] ?? 'the seed keys'}`;
  }
  if (field === '') return `${issue.message}, got ${describeValue(issue.input)}`;
  if (issue.input === undefined) return `${field} is missing; it ${issue.message}`;
  return `${field} ${issue.message}, got ${describeValue(issue.input)}`;
}

function requireEveryAgentOrNone(
  category: 'success' | 'plateau',
  agentNames: readonly string[],
  agents: Record<string, AgentTerminationRules>,
): void {
  const missing = agentNames.filter((name) => agents[name]?.[category] === null);
  if (missing.length > 0 && missing.length < agentNames.length) {
    throw new TerminationConfigError(
      `agent ${JSON.stringify(missing[0])}: ${category} is missing; a ${category} rule must be configured for every agent or no agent`,
    );
  }
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
export function configurationView(config: TerminationConfig): {
  success: Record<string, Record<string, string | number> | null>;
  plateau: Record<string, Record<string, string | number> | null>;
} {
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
 * sha256 (hex) of the canonical JSON of {@link configurationView}: equal rules
 * give equal fingerprints whatever the key order of the input.
 *
 * @example
 * ```ts
 * // SAC with only the success rule of the parseTerminationConfig example:
 * configurationFingerprint(config);
 * // '0bbd678882ec8b21d1738ba4e94ce178c666d54d98232f1145d5ee6e1b9884e8'
 * ```
 */
export function configurationFingerprint(config: TerminationConfig): string {
  return sha256Hex(canonicalJson(configurationView(config)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
