export {
  fleissKappa,
  pairwiseAgreement,
  type RatingAgreement,
  ratingAgreement,
} from './agreement.js';
export { type AnsweredAttempt, errorTypeOf, readAnsweredAttempt } from './attempt.js';
export {
  type CaseLineOutcome,
  judgeCaseLineSchema,
  type MalformedCaseLine,
  parseCaseLine,
} from './cases.js';
export type { JudgeContext, SubjectObservation } from './context.js';
export { checkJudgeSubject } from './context.js';
export {
  AgreementTableError,
  JudgeCancelledError,
  JudgeConfigurationError,
  JudgeResponseError,
  JudgeSubjectError,
  JudgeTimeoutError,
  PanelQuorumError,
  PanelTieError,
} from './errors.js';
export {
  checkPanelRule,
  defaultMinVotes,
  isPanelResult,
  type PanelJudgeResult,
  type PanelRecord,
  type PanelRule,
  type PanelRuleName,
  type PanelVerdict,
  type PanelVote,
  panelAgreement,
  panelMemberSummaries,
  panelRecord,
  panelVerdict,
} from './panel.js';
export {
  JUDGE_RESPONSE_FORMAT_NAME,
  type JudgePayload,
  judgePayloadJsonSchema,
  judgePayloadSchema,
  parseJudgePayload,
} from './payload.js';
export {
  type ChatMessage,
  candidateMessage,
  judgeInputJson,
  judgeMessages,
  messagesSha256,
  PROMPT_TEMPLATE_VERSION,
  promptSha256,
  systemMessage,
} from './prompt.js';
export {
  awareUtcTimestamp,
  type ClockReading,
  type ContentReference,
  evidenceReference,
  type JudgeResult,
  type JudgeStatus,
} from './result.js';
export {
  type BackoffSettings,
  type JudgeSettings,
  type JudgeSettingsInput,
  judgeSettings,
  MAX_TIMER_MS,
  retryDelayMs,
} from './settings.js';
export {
  failedGates,
  type JudgeGates,
  type JudgeSummary,
  judgeSummaryAccumulator,
  summarizeJudgeResults,
} from './summary.js';
export {
  type AgentJudgePolicyInput,
  checkAgentJudgePolicy,
  type ToolPolicy,
  toolIsSafe,
} from './toolPolicy.js';
export { type TrialJudgeResult, type TrialStability, trialStability } from './trials.js';
export {
  addUsage,
  costFromPrice,
  type ModelPrice,
  normaliseUsage,
  type ReportedUsage,
  responseCost,
  type TokenUsage,
} from './usage.js';
