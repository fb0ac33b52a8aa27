import { z } from 'zod';
import type { JudgePayload } from './payload.js';
import { EVIDENCE_VALUE_RULE, payloadIssuesLine } from './payloadIssues.js';

const MAX_EVIDENCE_BYTES = 8192;

/** What each field of a pairwise verdict must be, in the words a detail line uses. */
const PAIRWISE_FIELD_RULES: Readonly<Record<string, string>> = {
  winner: 'first, second or tie',
  explanation: 'a string of at most 8192 characters, or null',
  evidence: 'a list of at most 64 strings (absent is none)',
};

/**
 * The strict payload a pairwise judge must return: which slot is better
 * (`first`, `second` or `tie`), an explanation and evidence under the rules of
 * single judging. No extra keys.
 *
 * @example
 * ```ts
 * pairwisePayloadSchema.parse({ winner: 'tie' });
 * // { winner: 'tie', explanation: null, evidence: [] }
 * ```
 */
export const pairwisePayloadSchema = z.strictObject({
  winner: z.enum(['first', 'second', 'tie']),
  explanation: z.string().max(8192).nullable().default(null),
  evidence: z
    .array(
      z
        .string()
        .refine(
          (value) => value.length > 0 && Buffer.byteLength(value, 'utf8') <= MAX_EVIDENCE_BYTES,
          EVIDENCE_VALUE_RULE,
        ),
    )
    .max(64)
    .default([]),
});

/**
 * The JSON Schema sent as the strict structured-output format of a pairwise judge.
 *
 * @example
 * ```ts
 * pairwisePayloadJsonSchema.properties.winner.enum; // ['first', 'second', 'tie']
 * ```
 */
export const pairwisePayloadJsonSchema = {
  type: 'object',
  properties: {
    winner: { type: 'string', enum: ['first', 'second', 'tie'] },
    explanation: { type: ['string', 'null'], maxLength: 8192 },
    evidence: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 64 },
  },
  required: ['winner', 'explanation', 'evidence'],
  additionalProperties: false,
} as const;

/**
 * The name of the pairwise structured-output format sent to providers.
 *
 * @example
 * ```ts
 * PAIRWISE_RESPONSE_FORMAT_NAME; // 'arena_pairwise_result'
 * ```
 */
export const PAIRWISE_RESPONSE_FORMAT_NAME = 'arena_pairwise_result';

/**
 * Read a pairwise judge's raw output without throwing, as `readJudgePayload`
 * reads a single judge's: the verdict as a payload (status `passed`, the
 * winner as its `label`, no score), or one line saying what was wrong, which
 * never repeats model text.
 *
 * @example
 * ```ts
 * readPairwisePayload('{"winner":"first","explanation":"more precise","evidence":["4"]}').payload;
 * // { status: 'passed', score: null, label: 'first', explanation: 'more precise', evidence: ['4'] }
 * readPairwisePayload('{"winner":"A"}');
 * // { payload: null, problem: 'winner: expected first, second or tie, got "A"' }
 * ```
 */
export function readPairwisePayload(
  content: string,
): { payload: JudgePayload; problem: null } | { payload: null; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { payload: null, problem: `not valid JSON (${[...content].length} characters)` };
  }
  const result = pairwisePayloadSchema.safeParse(parsed);
  if (!result.success) {
    return {
      payload: null,
      problem: payloadIssuesLine(parsed, result.error.issues, PAIRWISE_FIELD_RULES),
    };
  }
  const { winner, explanation, evidence } = result.data;
  return {
    payload: { status: 'passed', score: null, label: winner, explanation, evidence },
    problem: null,
  };
}
