/**
 * The request fields a chat-completions server may take the output cap in:
 * OpenAI's current `max_completion_tokens` (the default), or the older
 * `max_tokens` that some compatible servers know alone.
 *
 * @example
 * ```ts
 * TOKEN_PARAMETERS; // ['max_completion_tokens', 'max_tokens']
 * ```
 */
export const TOKEN_PARAMETERS = ['max_completion_tokens', 'max_tokens'] as const;

/** One of `TOKEN_PARAMETERS`. */
export type TokenParameter = (typeof TOKEN_PARAMETERS)[number];
