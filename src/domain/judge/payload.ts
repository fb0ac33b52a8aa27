import { z } from 'zod';
import { JudgeResponseError } from './errors.js';
import { EVIDENCE_VALUE_RULE, payloadIssuesLine } from './payloadIssues.js';

const MAX_EVIDENCE_BYTES = 8192;

/** A verdict's explanation, in single and pairwise judging alike. */
export const explanationSchema = z.string().max(8192).nullable().default(null);

/** A verdict's evidence, in single and pairwise judging alike. */
export const evidenceSchema = z
  .array(
    z
      .string()
      .refine(
        (value) => value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_EVIDENCE_BYTES,
        EVIDENCE_VALUE_RULE,
      ),
  )
  .max(64)
  // Absent is no evidence; null is invalid, as the seed's tuple is never None.
  .default([]);

/** The JSON Schema of `explanationSchema` and `evidenceSchema`, as strict structured output says them. */
export const explanationAndEvidenceJsonSchema = {
  explanation: { type: ['string', 'null'], maxLength: 8192 },
  evidence: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    maxItems: 64,
  },
} as const;

/**
 * The strict payload a judge model or agent must return. No extra keys; a
 * finite score; `passed` and `failed` need both a score and a label; evidence is
 * at most 64 non-empty strings of at most 8192 UTF-8 bytes each (absent is
 * none; `null` is invalid).
 *
 * @example
 * ```ts
 * judgePayloadSchema.parse({ status: 'skipped' }).score; // null (the default)
 * ```
 */
export const judgePayloadSchema = z
  .strictObject({
    status: z.enum(['passed', 'failed', 'skipped']),
    score: z.number().finite().nullable().default(null),
    label: z.string().min(1).max(128).nullable().default(null),
    explanation: explanationSchema,
    evidence: evidenceSchema,
  })
  .superRefine((payload, context) => {
    if (payload.status === 'skipped') return;
    if (payload.score === null) {
      context.addIssue({
        code: 'custom',
        path: ['score'],
        message: `a finite number when status is ${payload.status}`,
      });
    }
    if (payload.label === null) {
      context.addIssue({
        code: 'custom',
        path: ['label'],
        message: `a string of 1 to 128 characters when status is ${payload.status}`,
      });
    }
  });

/** A validated judge payload (ephemeral: only its digest reaches a result). */
export type JudgePayload = z.output<typeof judgePayloadSchema>;

/** Raw model output read without throwing: the value, or one line saying what was wrong. */
export type PayloadRead<T = JudgePayload> =
  | { payload: T; problem: null }
  | { payload: null; problem: string };

/**
 * The JSON Schema sent as the strict structured-output format: every property
 * is required, no other property is allowed, and every property but `status`
 * and `evidence` is nullable (strict mode's way to say optional); evidence is
 * an array, empty when there is none.
 *
 * @example
 * ```ts
 * judgePayloadJsonSchema.properties.status.enum; // ['passed', 'failed', 'skipped']
 * ```
 */
export const judgePayloadJsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['passed', 'failed', 'skipped'] },
    score: { type: ['number', 'null'] },
    label: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
    ...explanationAndEvidenceJsonSchema,
  },
  required: ['status', 'score', 'label', 'explanation', 'evidence'],
  additionalProperties: false,
} as const;

/** The name of the structured-output format sent to providers. */
export const JUDGE_RESPONSE_FORMAT_NAME = 'arena_judge_result';

/**
 * Read raw model output without throwing: the validated payload, or one line
 * saying what was wrong (each field, its rule, what came instead), which never
 * repeats the raw text: it may hold untrusted data (see `payloadIssuesLine`).
 *
 * @example
 * ```ts
 * readJudgePayload('{"status":"pass","score":1}');
 * // { payload: null, problem: 'status: expected passed, failed or skipped, got "pass"' }
 * ```
 */
export function readJudgePayload(content: string): PayloadRead {
  return readStrictPayload(content, judgePayloadSchema);
}

/**
 * Read raw model output as JSON that `schema` accepts, without throwing: the
 * parsed value, or one line saying what was wrong, in the words of `rules`
 * (see `payloadIssuesLine`); single and pairwise judging read alike.
 */
export function readStrictPayload<T>(
  content: string,
  schema: z.ZodType<T>,
  rules?: Readonly<Record<string, string>>,
): PayloadRead<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { payload: null, problem: `not valid JSON (${[...content].length} characters)` };
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    return { payload: null, problem: payloadIssuesLine(parsed, result.error.issues, rules) };
  }
  return { payload: result.data, problem: null };
}

/**
 * Parse and validate raw model output, as `readJudgePayload`, throwing what it finds wrong.
 *
 * @example
 * ```ts
 * parseJudgePayload('{"status":"passed","score":1,"label":"ok"}');
 * // { status: 'passed', score: 1, label: 'ok', explanation: null, evidence: [] }
 * parseJudgePayload('{"status":"passed"}');
 * // throws JudgeResponseError('judge response failed validation: score: expected a finite number when status is passed, got null; ...')
 * ```
 */
export function parseJudgePayload(content: string): JudgePayload {
  const read = readJudgePayload(content);
  if (read.problem !== null) {
    throw new JudgeResponseError(`judge response failed validation: ${read.problem}`);
  }
  return read.payload;
}
