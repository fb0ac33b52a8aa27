import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ArenaError, arenaErrorClass } from '../../domain/shared/errors.js';
import { cannotReadFile } from '../runtime/unreadableFile.js';
import type { ModelProvider, ModelRequest, ModelResponse } from './modelProvider.js';

/**
 * The replay file could not be read or a line is malformed.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'REPLAY_FILE'); // true when `error` is a ReplayFileError
 * error instanceof ReplayFileError && error.name; // 'ReplayFileError'
 * ```
 */
export class ReplayFileError extends arenaErrorClass('REPLAY_FILE') {}

/**
 * No recorded response matches a request.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'REPLAY_MISS'); // true when `error` is a ReplayMissError
 * error instanceof ReplayMissError && error.name; // 'ReplayMissError'
 * ```
 */
export class ReplayMissError extends ArenaError {
  constructor(message: string) {
    super('REPLAY_MISS', message);
  }
}

const usageSchema = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  reasoning_tokens: z.number().int().nonnegative().optional(),
  cache_read_tokens: z.number().int().nonnegative().optional(),
  cache_write_tokens: z.number().int().nonnegative().optional(),
  total_tokens: z.number().int().nonnegative().optional(),
});

/**
 * One recorded response. It matches a request by `prompt_sha256` (the exact
 * prompt) or, failing that, by `case_id`. `content` is the raw model text.
 *
 * @example
 * ```ts
 * replayRecordSchema.safeParse({}).success; // false: a record needs prompt_sha256 or case_id
 * ```
 */
export const replayRecordSchema = z
  .strictObject({
    prompt_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    case_id: z.string().min(1).optional(),
    content: z.string(),
    usage: usageSchema.optional(),
    cost_usd: z.number().finite().nonnegative().optional(),
  })
  .refine((record) => record.prompt_sha256 !== undefined || record.case_id !== undefined, {
    message: 'a record needs prompt_sha256 or case_id',
  });

/** One parsed replay line: a recorded response, keyed by prompt hash or case id. */
export type ReplayRecord = z.output<typeof replayRecordSchema>;

/**
 * Parse replay JSONL text; blank lines are skipped, and an error names the line.
 *
 * @example
 * ```ts
 * parseReplayRecords('{"case_id":"c1","content":"{\\"status\\":\\"skipped\\"}"}\n').length; // 1
 * ```
 */
export function parseReplayRecords(text: string, source = 'replay file'): ReplayRecord[] {
  const records: ReplayRecord[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new ReplayFileError(`${source}:${index + 1}: not valid JSON`, { cause: error });
    }
    const parsed = replayRecordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ReplayFileError(
        `${source}:${index + 1}: ${issue?.path.join('.') || '(record)'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    records.push(parsed.data);
  });
  return records;
}

/**
 * Read and parse a replay JSONL file.
 *
 * @example
 * ```ts
 * loadReplayFile('examples/judge/replay.jsonl').length; // one record per non-blank line
 * ```
 */
export function loadReplayFile(path: string): ReplayRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ReplayFileError(`replay file: ${cannotReadFile(path, error)}`, { cause: error });
  }
  return parseReplayRecords(text, path);
}

/** Options of a replay provider: its recorded identity and responses. */
export interface ReplayProviderOptions {
  readonly records: readonly ReplayRecord[];
  readonly model: string;
  readonly providerName?: string;
}

/**
 * A `ModelProvider` that plays recorded responses, for offline demos and tests.
 * A record is found by the request's prompt hash (`metadata['arena.evaluation.prompt_sha256']`)
 * or case id (`metadata['arena.evaluation.case_id']`); repeated requests get the same record.
 *
 * @example
 * ```ts
 * const provider = createReplayProvider({ model: 'recorded', records: loadReplayFile('replay.jsonl') });
 * ```
 */
export function createReplayProvider(options: ReplayProviderOptions): ModelProvider {
  const byPrompt = new Map<string, ReplayRecord>();
  const byCase = new Map<string, ReplayRecord>();
  for (const record of options.records) {
    if (record.prompt_sha256 !== undefined) byPrompt.set(record.prompt_sha256, record);
    if (record.case_id !== undefined) byCase.set(record.case_id, record);
  }
  return {
    name: options.providerName ?? 'replay',
    model: options.model,
    async invoke(request: ModelRequest): Promise<ModelResponse> {
      request.signal.throwIfAborted();
      const prompt = String(request.metadata['arena.evaluation.prompt_sha256'] ?? '');
      const caseId = String(request.metadata['arena.evaluation.case_id'] ?? '');
      const record = byPrompt.get(prompt) ?? byCase.get(caseId);
      if (!record) {
        throw new ReplayMissError(
          `no recorded response for case ${caseId} (prompt ${prompt.slice(0, 12)})`,
        );
      }
      return {
        content: record.content,
        costUsd: record.cost_usd ?? null,
        usage: record.usage
          ? {
              inputTokens: record.usage.input_tokens,
              outputTokens: record.usage.output_tokens,
              reasoningTokens: record.usage.reasoning_tokens ?? 0,
              cacheReadTokens: record.usage.cache_read_tokens ?? 0,
              cacheWriteTokens: record.usage.cache_write_tokens ?? 0,
              totalTokens: record.usage.total_tokens ?? 0,
            }
          : null,
      };
    },
  };
}
