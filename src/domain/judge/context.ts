import type { JsonValue } from '../shared/json.js';

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
 * Every field except the ids reaches the judge as untrusted data.
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
