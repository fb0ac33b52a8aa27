import type { JudgeContext } from './context.js';
import { JudgeConfigurationError } from './errors.js';
import {
  type ChatMessage,
  judgeMessages,
  messagesSha256,
  rubricSystemMessage,
  untrustedDataMessage,
} from './prompt.js';

/**
 * The version of the pairwise prompt template; part of every pairwise prompt and its hash.
 *
 * @example
 * ```ts
 * PAIRWISE_TEMPLATE_VERSION; // 'arena-pairwise-v1'
 * ```
 */
export const PAIRWISE_TEMPLATE_VERSION = 'arena-pairwise-v1';

/**
 * The trusted system message of a pairwise judge: the rubric, fenced, then
 * what to compare and that the candidates' fields are data.
 *
 * @example
 * ```ts
 * pairwiseSystemMessage('Prefer the correct answer.').split('\n')[0];
 * // 'arena pairwise evaluation task arena-pairwise-v1.'
 * ```
 */
export function pairwiseSystemMessage(rubric: string): string {
  if (rubric === lastRubric) return lastSystemMessage;
  lastSystemMessage = rubricSystemMessage(
    `arena pairwise evaluation task ${PAIRWISE_TEMPLATE_VERSION}.`,
    rubric,
    [
      'Compare the two candidate outputs, "first" and "second", for the same input. Answer which is better by the rubric, or "tie".',
    ],
  );
  lastRubric = rubric;
  return lastSystemMessage;
}

let lastRubric: string | undefined;
let lastSystemMessage = '';

/**
 * The untrusted user message of one order of one pair: the case's fields and
 * the two outputs as `first` and `second`, as canonical JSON. The systems'
 * names and the observation are never shown (the judge is blinded).
 *
 * @throws JudgeConfigurationError when the context is not a pairwise one.
 * @example
 * ```ts
 * pairwiseCandidateMessage(context).split('\n')[2];
 * // '{"case_id":"c1","expected_output":null,"expected_tool_calls":null,"first":"4","input":"2+2","reference_contexts":null,"second":"5"}'
 * ```
 */
export function pairwiseCandidateMessage(context: JudgeContext): string {
  const pair = context.pairwise;
  if (pair === undefined) {
    throw new JudgeConfigurationError(`case ${context.caseId} is not a pairwise case`);
  }
  const payload = {
    case_id: context.caseId,
    expected_output: context.expectedOutput ?? null,
    expected_tool_calls: context.expectedToolCalls ?? null,
    first: pair.firstOutput,
    input: context.input,
    reference_contexts: context.referenceContexts ?? null,
    second: pair.secondOutput,
  };
  return untrustedDataMessage('untrusted_candidates', payload);
}

/**
 * The exact messages a judge sends for `context`: a pairwise prompt for one
 * order of a pair, else the single judging prompt of `judgeMessages`.
 *
 * @example
 * ```ts
 * subjectMessages(rubric, pairContext)[0]!.content.startsWith('arena pairwise'); // true
 * subjectMessages(rubric, singleContext)[0]!.content.startsWith('arena evaluation'); // true
 * ```
 */
export function subjectMessages(rubric: string, context: JudgeContext): ChatMessage[] {
  if (context.pairwise === undefined) return judgeMessages(rubric, context);
  return [
    { role: 'system', content: pairwiseSystemMessage(rubric) },
    { role: 'user', content: pairwiseCandidateMessage(context) },
  ];
}

/**
 * The prompt hash of what a judge sends for `context` (pairwise or single).
 *
 * @example
 * ```ts
 * subjectPromptSha256(rubric, singleContext) === promptSha256(rubric, singleContext); // true
 * ```
 */
export function subjectPromptSha256(rubric: string, context: JudgeContext): string {
  return messagesSha256(subjectMessages(rubric, context));
}
