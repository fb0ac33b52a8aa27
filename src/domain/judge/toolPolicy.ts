import { JudgeConfigurationError } from './errors.js';

/** Which tools an agent judge may call: read-only ones, or also evaluation-safe ones. */
export type ToolPolicy = 'evaluation_safe' | 'read_only';

/** What an agent judge is checked against. */
export interface AgentJudgePolicyInput {
  /** The agent's tools by name, each with its metadata. */
  readonly tools: Readonly<
    Record<string, { readonly metadata?: Readonly<Record<string, unknown>> | null }>
  >;
  readonly allowedTools: readonly string[];
  readonly toolPolicy: ToolPolicy;
  readonly maxToolRounds: number | null;
  readonly persistState: boolean;
}

/**
 * Whether a tool is safe for an evaluation under `policy`: read-only (any of
 * `read_only`, `readOnlyHint`, `read_only_hint`), or under `evaluation_safe`
 * also a tool marked `evaluation_safe`.
 *
 * @example
 * ```ts
 * toolIsSafe({ readOnlyHint: true }, 'read_only'); // true
 * toolIsSafe({ evaluation_safe: true }, 'read_only'); // false
 * ```
 */
export function toolIsSafe(
  metadata: Readonly<Record<string, unknown>> | null | undefined,
  policy: ToolPolicy,
): boolean {
  const readOnly = Boolean(
    metadata?.read_only || metadata?.readOnlyHint || metadata?.read_only_hint,
  );
  return policy === 'read_only' ? readOnly : readOnly || Boolean(metadata?.evaluation_safe);
}

/**
 * The seed's checks of an agent judge: a known policy, 1–1000 tool rounds, only
 * known and safe tools, and no persisted state.
 *
 * @throws JudgeConfigurationError naming the rule and the offending tools.
 * @example
 * ```ts
 * checkAgentJudgePolicy({ tools: { rm: {} }, allowedTools: ['rm'], toolPolicy: 'read_only', maxToolRounds: null, persistState: false });
 * // throws JudgeConfigurationError('tools are not evaluation-safe under read_only: rm')
 * ```
 */
export function checkAgentJudgePolicy(input: AgentJudgePolicyInput): void {
  const { tools, allowedTools, toolPolicy, maxToolRounds } = input;
  if (toolPolicy !== 'evaluation_safe' && toolPolicy !== 'read_only') {
    throw new JudgeConfigurationError(`unknown evaluator tool policy: ${String(toolPolicy)}`);
  }
  if (
    maxToolRounds !== null &&
    !(Number.isInteger(maxToolRounds) && maxToolRounds >= 1 && maxToolRounds <= 1000)
  ) {
    throw new JudgeConfigurationError(
      `maxToolRounds must be between 1 and 1000, got ${String(maxToolRounds)}`,
    );
  }
  const unknown = allowedTools.filter((name) => !Object.hasOwn(tools, name)).sort();
  if (unknown.length > 0) throw new JudgeConfigurationError(`unknown tools: ${unknown.join(', ')}`);
  const unsafe = allowedTools
    .filter((name) => !toolIsSafe(tools[name]?.metadata, toolPolicy))
    .sort();
  if (unsafe.length > 0) {
    throw new JudgeConfigurationError(
      `tools are not evaluation-safe under ${toolPolicy}: ${unsafe.join(', ')}`,
    );
  }
  if (input.persistState) {
    throw new JudgeConfigurationError(
      'evaluator agents must not persist ephemeral conversation history',
    );
  }
}
