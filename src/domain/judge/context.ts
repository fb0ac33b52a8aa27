import { describeValue } from '../shared/describeValue.js';
import type { JsonValue } from '../shared/json.js';
import { closestName } from '../shared/suggest.js';
import { JudgeSubjectError } from './errors.js';

/** Who produced the output being judged: used for self-evaluation checks. */
export interface SubjectObservation {
  /** The model that produced the candidate output, when known. */
  readonly model?: string | null;
  /** The provider that served that model, when known. */
  readonly provider?: string | null;
  /** The agent that produced the candidate output, when known. */
  readonly agentName?: string | null;
  /** Anything else worth showing the judge (as untrusted data). */
  readonly details?: { readonly [key: string]: JsonValue };
}

/**
 * One subject to judge: a case, the candidate's output and who produced it.
 * Every field except the ids reaches the judge as untrusted data. A judge
 * checks it with {@link checkJudgeSubject}: from JavaScript, `subjectId` may
 * be left out (it is the case id) and so may `observation` (nothing known), as
 * in a cases file.
 */
export interface JudgeContext {
  readonly evaluationRunId: string;
  readonly caseId: string;
  readonly subjectId: string;
  readonly input: JsonValue;
  readonly candidateOutput: JsonValue;
  readonly expectedOutput?: JsonValue;
  readonly referenceContexts?: readonly JsonValue[];
  readonly expectedToolCalls?: readonly JsonValue[];
  readonly observation: SubjectObservation;
}

const subjectKeys = [
  'evaluationRunId',
  'caseId',
  'subjectId',
  'input',
  'candidateOutput',
  'expectedOutput',
  'referenceContexts',
  'expectedToolCalls',
  'observation',
] as const;
const observationKeys = ['model', 'provider', 'agentName', 'details'] as const;
/** Subjects already checked (and completed): a judge checks each once, however often it is handed on. */
const checkedSubjects = new WeakSet<object>();

/**
 * A subject as a judge reads it, checked as a cases file's line is: the ids are
 * non-empty strings (`subjectId` defaults to `caseId`), `input` and
 * `candidateOutput` are present, the lists are lists, and `observation` (who
 * produced the output; default: nothing known, as a line without one) holds
 * only its own keys. Every problem is named with its field and what was
 * expected, and a snake_case key (`candidate_output`, from a cases file) names
 * its camelCase spelling. Every judge and `judgeMany` checks its subjects with
 * it, so JavaScript gets the errors a cases file gets, never a `TypeError`.
 *
 * @throws JudgeSubjectError listing every problem of the subject.
 * @example
 * ```ts
 * checkJudgeSubject({ evaluationRunId: 'r1', caseId: 'c1', input: '2+2', candidateOutput: '4' });
 * // { evaluationRunId: 'r1', caseId: 'c1', subjectId: 'c1', input: '2+2', candidateOutput: '4', observation: {} }
 * checkJudgeSubject({ evaluationRunId: 'r1', caseId: 'c1', input: '2+2', candidate_output: '4' });
 * // throws JudgeSubjectError('judge subject "c1": candidateOutput is missing (the output to judge);
 * //   unknown key "candidate_output" (did you mean "candidateOutput"?)')
 * ```
 */
export function checkJudgeSubject(subject: unknown): JudgeContext {
  if (typeof subject === 'object' && subject !== null && checkedSubjects.has(subject)) {
    return subject as JudgeContext;
  }
  if (typeof subject !== 'object' || subject === null || Array.isArray(subject)) {
    throw new JudgeSubjectError(
      `a judge subject must be an object ({ evaluationRunId, caseId, input, candidateOutput, observation? }), got ${describeValue(subject)}`,
    );
  }
  const fields = subject as Record<string, unknown>;
  const problems: string[] = [];
  const text = (key: string, optional: boolean) => {
    const value = fields[key];
    if (value === undefined && optional) return;
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${key} must be a non-empty string, got ${describeValue(value)}`);
    }
  };
  text('evaluationRunId', false);
  text('caseId', false);
  text('subjectId', true);
  if (fields.input === undefined)
    problems.push('input is missing (the case given to the candidate)');
  if (fields.candidateOutput === undefined) {
    problems.push('candidateOutput is missing (the output to judge)');
  }
  for (const key of ['referenceContexts', 'expectedToolCalls']) {
    if (fields[key] !== undefined && !Array.isArray(fields[key])) {
      problems.push(`${key} must be a list, got ${describeValue(fields[key])}`);
    }
  }
  problems.push(...unknownKeys(fields, subjectKeys, ''));
  const observation = fields.observation;
  if (observation !== undefined && observation !== null) {
    if (typeof observation !== 'object' || Array.isArray(observation)) {
      problems.push(
        `observation must be an object ({ model?, provider?, agentName?, details? }), got ${describeValue(observation)}`,
      );
    } else {
      const seen = observation as Record<string, unknown>;
      for (const key of ['model', 'provider', 'agentName']) {
        if (seen[key] != null && typeof seen[key] !== 'string') {
          problems.push(
            `observation.${key} must be a string or null, got ${describeValue(seen[key])}`,
          );
        }
      }
      if (
        seen.details !== undefined &&
        (typeof seen.details !== 'object' || seen.details === null || Array.isArray(seen.details))
      ) {
        problems.push(`observation.details must be an object, got ${describeValue(seen.details)}`);
      }
      problems.push(...unknownKeys(seen, observationKeys, 'observation.'));
    }
  }
  if (problems.length > 0) {
    const caseId = typeof fields.caseId === 'string' ? ` ${JSON.stringify(fields.caseId)}` : '';
    throw new JudgeSubjectError(`judge subject${caseId}: ${problems.join('; ')}`);
  }
  const checked: JudgeContext = {
    ...(fields as unknown as JudgeContext),
    subjectId: (fields.subjectId as string | undefined) ?? (fields.caseId as string),
    observation: (observation ?? {}) as SubjectObservation,
  };
  checkedSubjects.add(checked);
  return checked;
}

/** One problem per key of `fields` not in `known`, naming the key it most likely meant. */
function unknownKeys(
  fields: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
): string[] {
  return Object.keys(fields)
    .filter((key) => !known.includes(key))
    .map((key) => {
      // a cases file's snake_case (candidate_output) first, then a typo
      const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const meant = known.includes(camel) ? camel : closestName(key, known);
      return meant === null
        ? `unknown key ${JSON.stringify(prefix + key)} (expected ${known.join(', ')})`
        : `unknown key ${JSON.stringify(prefix + key)} (did you mean ${JSON.stringify(prefix + meant)}?)`;
    });
}
