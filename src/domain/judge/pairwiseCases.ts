import { z } from 'zod';
import type { JsonValue } from '../shared/json.js';
import {
  type CaseLineOutcome,
  caseExpectations,
  caseExpectationsShape,
  readCaseLine,
} from './cases.js';
import type { JudgeContext } from './context.js';
import { repeatedKeyIn } from './repeatedKey.js';

const json: z.ZodType<JsonValue> = z.json();

/**
 * One line of a pairwise cases file: the case and its `candidates`, one output
 * (a string) per system, two systems or more.
 *
 * @example
 * ```ts
 * pairwiseCaseLineSchema.safeParse({ case_id: 'c1', input: '2+2', candidates: { a: '4', b: '5' } }).success; // true
 * ```
 */
export const pairwiseCaseLineSchema = z.strictObject({
  case_id: z.string().trim().min(1),
  evaluation_run_id: z.string().trim().min(1).optional(),
  input: json,
  candidates: z
    .record(z.string(), z.unknown(), {
      error: (issue) =>
        issue.input === undefined
          ? 'missing: a pairwise judge needs candidates, an object of two or more systems and their outputs'
          : 'expected an object of two or more systems and their outputs',
    })
    .superRefine((candidates, context) => {
      const systems = Object.keys(candidates);
      if (systems.length < 2) {
        context.addIssue({
          code: 'custom',
          message: `expected two or more systems, got ${systems.length}`,
        });
      }
      for (const system of systems) {
        if (system.trim() === '') {
          context.addIssue({ code: 'custom', path: [system], message: 'a system needs a name' });
        } else if (typeof candidates[system] !== 'string') {
          context.addIssue({
            code: 'custom',
            path: [system],
            message: `expected the system's output as a string, got ${typeName(candidates[system])}`,
          });
        }
      }
    }),
  ...caseExpectationsShape,
});

/**
 * Read one line of a pairwise cases file into its judgements: for every pair
 * of systems (names sorted), the order with the first system first, then the
 * other order. Each judgement's `subjectId` is `["<first>","<second>"]`.
 *
 * @example
 * ```ts
 * const outcome = parsePairwiseCaseLine('{"case_id":"c1","input":"2+2","candidates":{"a":"4","b":"5"}}', 1, 'run');
 * outcome.kind === 'pairwise' && outcome.contexts.map((context) => context.subjectId);
 * // ['["a","b"]', '["b","a"]']
 * parsePairwiseCaseLine('{"case_id":"c1","input":"x","candidates":{"a":"4","a":"5"}}', 3, 'run');
 * // { kind: 'malformed', problem: { line: 3, message: 'candidates.a: system "a" is named twice' } }
 * ```
 */
export function parsePairwiseCaseLine(
  text: string,
  line: number,
  defaultRunId: string,
): CaseLineOutcome {
  const read = readCaseLine(text, line, pairwiseCaseLineSchema, systemNamedTwice);
  if (read.kind !== 'read') return read;
  const data = read.data;
  const candidates = data.candidates as Record<string, string>;
  const systems = Object.keys(candidates).sort();
  const base = {
    evaluationRunId: data.evaluation_run_id ?? defaultRunId,
    caseId: data.case_id,
    input: data.input,
    candidateOutput: null,
    ...caseExpectations(data),
    observation: {},
  };
  const contexts: JudgeContext[] = [];
  const order = (first: string, second: string): JudgeContext => ({
    ...base,
    subjectId: JSON.stringify([first, second]),
    pairwise: {
      first,
      second,
      firstOutput: candidates[first]!,
      secondOutput: candidates[second]!,
      candidates: systems.length,
    },
  });
  for (let i = 0; i < systems.length; i++) {
    for (let j = i + 1; j < systems.length; j++) {
      contexts.push(order(systems[i]!, systems[j]!), order(systems[j]!, systems[i]!));
    }
  }
  return { kind: 'pairwise', caseId: data.case_id, contexts };
}

// JSON.parse keeps the last of two equal keys: look at the text first
function systemNamedTwice(text: string): string | null {
  const repeated = repeatedKeyIn(text, 'candidates');
  if (repeated === null) return null;
  return `candidates.${repeated}: system ${JSON.stringify(repeated)} is named twice`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
