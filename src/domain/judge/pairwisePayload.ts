import { z } from 'zod';
import {
  evidenceSchema,
  explanationAndEvidenceJsonSchema,
  explanationSchema,
  type PayloadRead,
  readStrictPayload,
} from './payload.js';

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
  explanation: explanationSchema,
  evidence: evidenceSchema,
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
    ...explanationAndEvidenceJsonSchema,
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
export function readPairwisePayload(content: string): PayloadRead {
  const read = readStrictPayload(content, pairwisePayloadSchema, PAIRWISE_FIELD_RULES);
  if (read.problem !== null) return read;
  const { winner, explanation, evidence } = read.payload;
  return {
    payload: { status: 'passed', score: null, label: winner, explanation, evidence },
    problem: null,
  };
}
