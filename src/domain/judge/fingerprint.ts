import { canonicalJson, sha256Hex } from '../shared/canonicalJson.js';
import type { JsonValue } from '../shared/json.js';
import { PAIRWISE_RESPONSE_FORMAT_NAME, pairwisePayloadJsonSchema } from './pairwisePayload.js';
import {
  PAIRWISE_TEMPLATE_VERSION,
  pairwiseCandidateMessage,
  pairwiseSystemMessage,
} from './pairwisePrompt.js';
import { JUDGE_RESPONSE_FORMAT_NAME, judgePayloadJsonSchema } from './payload.js';
import { candidateMessage, PROMPT_TEMPLATE_VERSION, systemMessage } from './prompt.js';

/** Who gives the verdicts: a model behind a provider, or an agent. Never a key, never a URL. */
export type FingerprintEvaluator =
  | {
      readonly kind: 'model';
      /** The adapter (`openai`, `replay`) and the provider's name (`ollama`). */
      readonly provider: { readonly adapter: string; readonly name: string };
      readonly model: string;
    }
  | {
      readonly kind: 'agent';
      readonly agent: string;
      readonly module: string | null;
      readonly params: JsonValue;
      readonly allowedTools: readonly string[];
      readonly toolPolicy: string;
      readonly maxToolRounds: number | null;
    };

/**
 * What decides a verdict, each part by itself so a later comparison can say
 * which one changed. A panel's parts are its rule and its members' digests.
 */
export interface JudgeFingerprintParts {
  readonly evaluator: FingerprintEvaluator | null;
  readonly rubric: { readonly version: string; readonly text: string };
  readonly judgeVersion: string;
  /** The messages arena builds around the rubric and the case, with placeholders. */
  readonly promptTemplate: {
    readonly version: string;
    readonly system: string;
    readonly candidate: string;
  };
  /** The structured-output format sent to the provider. */
  readonly responseFormat: JsonValue;
  /** `0` for a model judge (arena always sends it), `null` when arena does not set it (an agent). */
  readonly temperature: number | null;
  /** The most output tokens asked for, `null` when arena does not cap it (an agent). */
  readonly outputCap: number | null;
  /** For a panel: its rule and least votes, and each member's fingerprint digest by name. */
  readonly panel: {
    readonly rule: string;
    readonly minVotes: number | null;
    readonly threshold: number | null;
    readonly members: Readonly<Record<string, string>>;
  } | null;
}

/** A judge's identity: its name, the SHA-256 of its parts and the parts. */
export interface JudgeFingerprint {
  readonly judgeName: string;
  /** SHA-256 (hex) of the canonical JSON of `parts`. */
  readonly digest: string;
  /** `<judge name>@<first 12 hex of the digest>`, as arena prints it. */
  readonly label: string;
  readonly parts: JudgeFingerprintParts;
}

const rubricPlaceholder = '{{rubric}}';

/**
 * The prompt template part: the system message around a placeholder rubric
 * and the candidate message around placeholder fields, so a change to either
 * wrapper (not only to its version) changes the fingerprint; a pairwise
 * judge's is its own template, so its calibration is never a single judge's.
 *
 * @example
 * ```ts
 * promptTemplatePart().version; // 'arena-judge-v1'
 * promptTemplatePart('pairwise').version; // 'arena-pairwise-v1'
 * ```
 */
export function promptTemplatePart(
  mode: 'single' | 'pairwise' = 'single',
): JudgeFingerprintParts['promptTemplate'] {
  if (mode === 'pairwise') {
    return {
      version: PAIRWISE_TEMPLATE_VERSION,
      system: pairwiseSystemMessage(rubricPlaceholder),
      candidate: pairwiseCandidateMessage({
        evaluationRunId: '{{evaluation_run_id}}',
        caseId: '{{case_id}}',
        subjectId: '{{subject_id}}',
        input: '{{input}}',
        candidateOutput: null,
        observation: {},
        pairwise: {
          first: '{{first_system}}',
          second: '{{second_system}}',
          firstOutput: '{{first}}',
          secondOutput: '{{second}}',
          candidates: 2,
        },
      }),
    };
  }
  return {
    version: PROMPT_TEMPLATE_VERSION,
    system: systemMessage(rubricPlaceholder),
    candidate: candidateMessage({
      evaluationRunId: '{{evaluation_run_id}}',
      caseId: '{{case_id}}',
      subjectId: '{{subject_id}}',
      input: '{{input}}',
      candidateOutput: '{{candidate_output}}',
      observation: {},
    }),
  };
}

/**
 * The response format part: the strict structured-output format the judge
 * sends (a pairwise judge's asks for a winner).
 *
 * @example
 * ```ts
 * (responseFormatPart() as { name: string }).name; // 'arena_judge_result'
 * (responseFormatPart('pairwise') as { name: string }).name; // 'arena_pairwise_result'
 * ```
 */
export function responseFormatPart(mode: 'single' | 'pairwise' = 'single'): JsonValue {
  if (mode === 'pairwise') {
    return {
      name: PAIRWISE_RESPONSE_FORMAT_NAME,
      strict: true,
      schema: pairwisePayloadJsonSchema as unknown as JsonValue,
    };
  }
  return {
    name: JUDGE_RESPONSE_FORMAT_NAME,
    strict: true,
    schema: judgePayloadJsonSchema as unknown as JsonValue,
  };
}

/**
 * The fingerprint of a judge: the SHA-256 of the canonical JSON of what
 * decides its verdicts (the name is not hashed: renaming a judge changes no
 * verdict, and the name is shown beside the digest).
 *
 * @example
 * ```ts
 * judgeFingerprint('strict', parts).label; // 'strict@9f0e11c2a4b7' (the first 12 hex of the digest)
 * ```
 */
export function judgeFingerprint(
  judgeName: string,
  parts: JudgeFingerprintParts,
): JudgeFingerprint {
  const digest = sha256Hex(canonicalJson(parts as unknown as JsonValue));
  return { judgeName, digest, label: fingerprintLabel(judgeName, digest), parts };
}

/**
 * How arena prints a fingerprint: `<judge name>@<12 hex>`.
 *
 * @example
 * ```ts
 * fingerprintLabel('strict', '9f0e11c2a4b7d3…'); // 'strict@9f0e11c2a4b7'
 * ```
 */
export function fingerprintLabel(judgeName: string, digest: string): string {
  return `${judgeName}@${digest.slice(0, 12)}`;
}

/** The parts a person names, in the order arena names them. */
const partNames: readonly [string, (parts: JudgeFingerprintParts) => unknown][] = [
  [
    'the provider',
    (parts) => (parts.evaluator?.kind === 'model' ? parts.evaluator.provider : null),
  ],
  ['the model', (parts) => (parts.evaluator?.kind === 'model' ? parts.evaluator.model : null)],
  ['the agent', (parts) => (parts.evaluator?.kind === 'agent' ? parts.evaluator : null)],
  ['the rubric', (parts) => parts.rubric],
  ['the judge version', (parts) => parts.judgeVersion],
  ['the prompt template', (parts) => parts.promptTemplate],
  ['the response format', (parts) => parts.responseFormat],
  ['the temperature', (parts) => parts.temperature],
  ['the output cap', (parts) => parts.outputCap],
  ['the panel rule', (parts) => (parts.panel === null ? null : { ...parts.panel, members: null })],
  ['the panel members', (parts) => parts.panel?.members ?? null],
];

/**
 * Which parts of a fingerprint differ from an older one, as a person names
 * them (`the rubric`, `the model`); empty when the parts are the same.
 *
 * @example
 * ```ts
 * changedParts(calibrated.parts, current.parts); // ['the rubric']
 * ```
 */
export function changedParts(
  before: JudgeFingerprintParts,
  after: JudgeFingerprintParts,
): string[] {
  const same = (a: unknown, b: unknown): boolean =>
    canonicalJson(a ?? null) === canonicalJson(b ?? null);
  return partNames.filter(([, part]) => !same(part(before), part(after))).map(([name]) => name);
}

/**
 * A list of changed parts as a sentence's subject: `the rubric`, `the rubric
 * and the model`, `the provider, the model and the rubric`.
 *
 * @example
 * ```ts
 * joinParts(['the rubric', 'the model']); // 'the rubric and the model'
 * ```
 */
export function joinParts(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? 'nothing';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
