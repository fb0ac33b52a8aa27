import { z } from 'zod';
import type { JsonValue } from '../shared/json.js';
import type { JudgeContext } from './context.js';

const json: z.ZodType<JsonValue> = z.json();

/** What a case line may give its judge to compare against, in single and pairwise files alike. */
export const caseExpectationsShape = {
  expected_output: json.optional(),
  reference_contexts: z.array(json).optional(),
  expected_tool_calls: z.array(json).optional(),
};

/**
 * One line of a cases JSONL file, in snake_case as users write it.
 *
 * @example
 * ```ts
 * judgeCaseLineSchema.safeParse({ case_id: 'c1', input: 'hi', candidate_output: 'hello' }).success; // true
 * ```
 */
export const judgeCaseLineSchema = z.strictObject({
  case_id: z.string().trim().min(1),
  subject_id: z.string().trim().min(1).optional(),
  evaluation_run_id: z.string().trim().min(1).optional(),
  input: json,
  candidate_output: json,
  ...caseExpectationsShape,
  observation: z
    .strictObject({
      model: z.string().nullable().optional(),
      provider: z.string().nullable().optional(),
      agent_name: z.string().nullable().optional(),
      details: z.record(z.string(), json).optional(),
    })
    .default({}),
});

/** A case line that could not be used, with its 1-based line number. */
export interface MalformedCaseLine {
  readonly line: number;
  readonly message: string;
}

/**
 * The outcome of reading one line: a context, a pairwise case's judgements
 * (every order of every pair), a problem, or nothing (blank line).
 */
export type CaseLineOutcome =
  | { readonly kind: 'case'; readonly context: JudgeContext }
  | {
      readonly kind: 'pairwise';
      readonly caseId: string;
      readonly contexts: readonly JudgeContext[];
    }
  | { readonly kind: 'malformed'; readonly problem: MalformedCaseLine }
  | { readonly kind: 'blank' };

/**
 * Read one line of a cases file into a `JudgeContext`. `subject_id` defaults to
 * the case id, `evaluation_run_id` to `defaultRunId`.
 *
 * @example
 * ```ts
 * parseCaseLine('{"case_id":"c1","input":"2+2","candidate_output":"4"}', 1, 'run').kind; // 'case'
 * parseCaseLine('{"case_id":""}', 2, 'run');
 * // { kind: 'malformed', problem: { line: 2, message: 'case_id: Too small: expected string to have >=1 characters; input: Invalid input...' } }
 * ```
 */
export function parseCaseLine(text: string, line: number, defaultRunId: string): CaseLineOutcome {
  const read = readCaseLine(text, line, judgeCaseLineSchema);
  if (read.kind !== 'read') return read;
  const data = read.data;
  return {
    kind: 'case',
    context: {
      evaluationRunId: data.evaluation_run_id ?? defaultRunId,
      caseId: data.case_id,
      subjectId: data.subject_id ?? data.case_id,
      input: data.input,
      candidateOutput: data.candidate_output,
      ...caseExpectations(data),
      observation: {
        model: data.observation.model ?? null,
        provider: data.observation.provider ?? null,
        agentName: data.observation.agent_name ?? null,
        ...(data.observation.details ? { details: data.observation.details } : {}),
      },
    },
  };
}

/**
 * Read one line of a cases file as `schema` says: nothing for a blank line,
 * the data, or a problem (not JSON, what `textProblem` finds in the text, or
 * each field the schema refuses).
 */
export function readCaseLine<T>(
  text: string,
  line: number,
  schema: z.ZodType<T>,
  textProblem: (text: string) => string | null = () => null,
):
  | { readonly kind: 'read'; readonly data: T }
  | { readonly kind: 'malformed'; readonly problem: MalformedCaseLine }
  | { readonly kind: 'blank' } {
  if (text.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'malformed', problem: { line, message: 'not valid JSON' } };
  }
  const problem = textProblem(text);
  if (problem !== null) return { kind: 'malformed', problem: { line, message: problem } };
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(line)'}: ${issue.message}`)
      .join('; ');
    return { kind: 'malformed', problem: { line, message } };
  }
  return { kind: 'read', data: parsed.data };
}

/** The context fields of a line's expectations, each only when the line gives it. */
export function caseExpectations(
  data: z.output<z.ZodObject<typeof caseExpectationsShape>>,
): Pick<JudgeContext, 'expectedOutput' | 'referenceContexts' | 'expectedToolCalls'> {
  return {
    ...(data.expected_output !== undefined ? { expectedOutput: data.expected_output } : {}),
    ...(data.reference_contexts ? { referenceContexts: data.reference_contexts } : {}),
    ...(data.expected_tool_calls ? { expectedToolCalls: data.expected_tool_calls } : {}),
  };
}

/**
 * The judgements of a line: its one context, a pairwise case's every order of
 * every pair, or none (a blank or malformed line).
 *
 * @example
 * ```ts
 * contextsOfLine(parseCaseLine('{"case_id":"c1","input":"x","candidate_output":"y"}', 1, 'run')).length; // 1
 * ```
 */
export function contextsOfLine(outcome: CaseLineOutcome): readonly JudgeContext[] {
  if (outcome.kind === 'case') return [outcome.context];
  if (outcome.kind === 'pairwise') return outcome.contexts;
  return [];
}
