import type { ModelRequest, ModelResponse, ResponseSchema } from './model/modelProvider.js';

/** A tool an agent offers, described by its metadata (e.g. `read_only: true`). */
export interface AgentTool {
  readonly metadata?: Readonly<Record<string, unknown>> | null;
}

/** What an agent judge passes to one generation. */
export interface AgentGenerateOptions {
  readonly responseSchema: ResponseSchema;
  readonly timeoutMs: number;
  readonly metadata: ModelRequest['metadata'];
  readonly maxToolRounds: number | null;
  /** Only these tools may be called during the evaluation. */
  readonly allowedToolNames: readonly string[];
  /** The trusted rubric, as an extra system message. */
  readonly additionalSystemMessage: string;
  readonly signal: AbortSignal;
}

/**
 * An ordinary agent used as a judge. `conversationHistory` is mutable and is
 * restored by the judge after every evaluation; an agent that persists state
 * cannot be a judge.
 *
 * @example
 * ```ts
 * const agent: JudgeAgent = {
 *   name: 'reviewer', model: 'gpt-4o-mini', tools: { search: { metadata: { read_only: true } } },
 *   persistState: false, conversationHistory: [],
 *   generate: async () => ({ content: '{"status":"skipped"}' }),
 * };
 * ```
 */
export interface JudgeAgent {
  readonly name: string;
  readonly model?: string | null;
  readonly tools: Readonly<Record<string, AgentTool>>;
  readonly persistState: boolean;
  conversationHistory: unknown[];
  generate(message: string, options: AgentGenerateOptions): Promise<ModelResponse>;
}
