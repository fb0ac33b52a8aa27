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
  /**
   * Set for one order of one pair of a pairwise case: the model sees the two
   * outputs as `first` and `second`, never the systems' names (`candidateOutput` is then `null`).
   */
  readonly pairwise?: PairwiseSubject;
}

/** One order of one pair of systems of a pairwise case. */
export interface PairwiseSubject {
  /** The system whose output is shown first. */
  readonly first: string;
  readonly second: string;
  readonly firstOutput: string;
  readonly secondOutput: string;
  /** How many systems the case compares: it has `n (n - 1) / 2` pairs. */
  readonly candidates: number;
}
