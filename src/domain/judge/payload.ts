import { z } from 'zod';
import { JudgeResponseError } from './errors.js';

const MAX_EVIDENCE_BYTES = 8192;

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
    explanation: z.string().max(8192).nullable().default(null),
    evidence: z
      .array(
        z
          .string()
          .refine(
            (value) => value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_EVIDENCE_BYTES,
            'evidence values must be non-empty and at most 8192 UTF-8 bytes',
          ),
      )
      .max(64)
      // Absent is no evidence; null is invalid, as the seed's tuple is never None.
      .default([]),
  })
  .refine(
    (payload) => payload.status === 'skipped' || (payload.score !== null && payload.label !== null),
    { message: 'passed and failed responses require score and label', path: ['status'] },
  );

/** A validated judge payload (ephemeral: only its digest reaches a result). */
export type JudgePayload = z.output<typeof judgePayloadSchema>;

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
    explanation: { type: ['string', 'null'], maxLength: 8192 },
    evidence: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      maxItems: 64,
    },
  },
  required: ['status', 'score', 'label', 'explanation', 'evidence'],
  additionalProperties: false,
} as const;

/** The name of the structured-output format sent to providers. */
export const JUDGE_RESPONSE_FORMAT_NAME = 'arena_judge_result';

/**
 * Parse and validate raw model output. The error says what was wrong (paths and
 * rules) but never repeats the raw text, which may hold untrusted data.
 *
 * @example
 * ```ts
 * parseJudgePayload('{"status":"passed","score":1,"label":"ok"}');
 * // { status: 'passed', score: 1, label: 'ok', explanation: null, evidence: [] }
 * parseJudgePayload('{"status":"passed"}');
 * // throws JudgeResponseError('judge response failed validation: status: passed and failed responses require score and label')
 * ```
 */
export function parseJudgePayload(content: string): JudgePayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new JudgeResponseError('judge response failed validation: not valid JSON');
  }
  const result = judgePayloadSchema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${describeIssue(issue)}`)
      .join('; ');
    throw new JudgeResponseError(`judge response failed validation: ${issues}`);
  }
  return result.data;
}

/** An issue's message, except that unexpected keys are counted, not named (they are model output). */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `${issue.keys.length} unexpected key(s)`;
  return issue.message;
}
