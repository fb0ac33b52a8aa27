/**
 * `arena-runtime/judge`: LLM-as-a-judge. The judge domain (payloads, gates,
 * summaries), the judge machine, judges built from a config file, judging many
 * cases at once, and the model providers (OpenAI-compatible HTTP, replay).
 *
 * @example
 * ```ts
 * import { judgeFromConfig, judgeMany, loadJudgeConfig, summarizeJudgeResults } from 'arena-runtime/judge';
 * import { lastValueFrom, toArray } from 'rxjs';
 * const judge = await judgeFromConfig(loadJudgeConfig('examples/judge/local.yaml').config);
 * const results = await lastValueFrom(judgeMany(cases, judge, { concurrency: 2 }).pipe(toArray()));
 * summarizeJudgeResults(results).passRate; // 0.5 when one case of two passed
 * ```
 */

export type {
  SubmitEvaluationOptions,
  SubmittedEvaluation,
} from '../actors/judging/evaluationRuns.js';
export {
  cancelEvaluationRun,
  followEvaluationRun,
  storedVerdicts,
  submitEvaluationRun,
} from '../actors/judging/evaluationRuns.js';
export { loadJudgeAgent } from '../actors/judging/judgeAgentModule.js';
export { judgeCacheKey, verdictCacheEntryOf } from '../actors/judging/judgeCacheKey.js';
export type { CaseOutcome, JudgeCaseOptions } from '../actors/judging/judgeCase.js';
export { judgeCaseIntoStore } from '../actors/judging/judgeCase.js';
export { judgeFromConfig } from '../actors/judging/judgeFromConfig.js';
export { judgeIntoStore } from '../actors/judging/judgeIntoStore.js';
export type { JudgeManyOptions, JudgeResultCache } from '../actors/judging/judgeMany.js';
export { judgeMany } from '../actors/judging/judgeMany.js';
export type { JudgePanel, JudgePanelOptions } from '../actors/judging/judgePanel.js';
export { createJudgePanel, isJudgePanel, panelFromConfig } from '../actors/judging/judgePanel.js';
export type {
  AgentJudgeOptions,
  FromConfigOptions,
  Judge,
  JudgeOptions,
  ModelJudgeOptions,
  TimerClock,
} from '../actors/judging/judges.js';
export {
  agentJudgeFromConfig,
  createAgentJudge,
  createModelJudge,
  DEFAULT_MAX_OUTPUT_TOKENS,
  modelJudgeFromConfig,
  providerFromConfig,
} from '../actors/judging/judges.js';
export type { JudgeTrialsOptions } from '../actors/judging/judgeTrials.js';
export { judgeTrials } from '../actors/judging/judgeTrials.js';
export type {
  JudgeWorkerEvent,
  JudgeWorkerOptions,
  JudgeWorkerTally,
} from '../actors/judging/judgeWorker.js';
export { runJudgeWorker } from '../actors/judging/judgeWorker.js';
export type { ModelPauses } from '../actors/judging/modelPauses.js';
export { createModelPauses, pauseKeyOf, pausingProvider } from '../actors/judging/modelPauses.js';
export { judgeOfEvaluationRun } from '../actors/judging/storedJudge.js';
export type {
  JudgeAgentProfile,
  JudgeConfig,
  JudgePanelProfile,
  JudgeProfile,
  LoadedJudgeConfig,
  ModelProfile,
} from '../config/judgeConfig.js';
export {
  judgeConfigSchema,
  loadJudgeConfig,
  parseJudgeConfig,
  selectedPanelName,
  selectJudgeName,
} from '../config/judgeConfig.js';
export type { PairwiseSubject } from '../domain/judge/context.js';
export type {
  AgentJudgePolicyInput,
  CaseLineOutcome,
  ChatMessage,
  JudgeContext,
  JudgeGates,
  JudgePayload,
  JudgeResult,
  JudgeSettings,
  JudgeSettingsInput,
  JudgeStatus,
  JudgeSummary,
  MalformedCaseLine,
  ModelPrice,
  PanelJudgeResult,
  PanelRecord,
  PanelRule,
  PanelRuleName,
  PanelVerdict,
  PanelVote,
  RatingAgreement,
  SubjectObservation,
  TokenUsage,
  ToolPolicy,
  TrialJudgeResult,
  TrialStability,
} from '../domain/judge/index.js';
export {
  AgreementTableError,
  checkAgentJudgePolicy,
  checkJudgeSubject,
  failedGates,
  fleissKappa,
  isPanelResult,
  JudgeCancelledError,
  JudgeConfigurationError,
  JudgeResponseError,
  JudgeSubjectError,
  JudgeTimeoutError,
  judgeCaseLineSchema,
  judgePayloadJsonSchema,
  judgePayloadSchema,
  judgeSettings,
  judgeSummaryAccumulator,
  PanelQuorumError,
  PanelTieError,
  PROMPT_TEMPLATE_VERSION,
  pairwiseAgreement,
  panelAgreement,
  panelMemberSummaries,
  panelVerdict,
  parseCaseLine,
  parseJudgePayload,
  ratingAgreement,
  summarizeJudgeResults,
  toolIsSafe,
  trialStability,
} from '../domain/judge/index.js';
export { pairwiseCaseLineSchema, parsePairwiseCaseLine } from '../domain/judge/pairwiseCases.js';
export {
  PAIRWISE_RESPONSE_FORMAT_NAME,
  pairwisePayloadJsonSchema,
  pairwisePayloadSchema,
  readPairwisePayload,
} from '../domain/judge/pairwisePayload.js';
export {
  PAIRWISE_TEMPLATE_VERSION,
  pairwiseCandidateMessage,
  subjectMessages,
} from '../domain/judge/pairwisePrompt.js';
export {
  type PairTally,
  type PairwiseSummary,
  type PairwiseSummaryOptions,
  pairwiseAccumulator,
  type SystemRating,
} from '../domain/judge/pairwiseSummary.js';
export type { PairVerdict, PairWinner } from '../domain/judge/result.js';
export {
  type BradleyTerryFit,
  BradleyTerryInputError,
  bradleyTerry,
  ELO_PER_LOG_STRENGTH,
} from '../domain/stats/bradleyTerry.js';
export type {
  JudgeClock,
  JudgeJob,
  JudgeMachineContext,
  JudgeMachineEvent,
  JudgeMachineInput,
  ProviderCallInput,
} from '../machines/judge.js';
export { judgeMachine } from '../machines/judge.js';
export type {
  JudgePanelMachineContext,
  JudgePanelMachineEvent,
  JudgePanelMachineInput,
  PanelIdentity,
  PanelMemberInput,
} from '../machines/judgePanel.js';
export { judgePanelMachine } from '../machines/judgePanel.js';
export type { AgentGenerateOptions, AgentTool, JudgeAgent } from '../ports/judgeAgent.js';
export type {
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ResponseSchema,
} from '../ports/model/modelProvider.js';
export {
  ModelProviderError,
  ProviderAbortedError,
  ProviderConnectionError,
  ProviderHttpError,
  ProviderProtocolError,
  ProviderRateLimitError,
  ProviderResponseTooLargeError,
} from '../ports/model/modelProvider.js';
export type { OpenAIProviderOptions } from '../ports/model/openaiProvider.js';
export { createOpenAIProvider, DEFAULT_MAX_RESPONSE_BYTES } from '../ports/model/openaiProvider.js';
export type { ReplayProviderOptions, ReplayRecord } from '../ports/model/replayProvider.js';
export {
  createReplayProvider,
  loadReplayFile,
  parseReplayRecords,
  ReplayFileError,
  ReplayMissError,
  replayRecordSchema,
} from '../ports/model/replayProvider.js';
export type {
  JudgeQueue,
  JudgeSubmitReceipt,
  ModelPause,
  QueuedCase,
  QueuedCaseDelivery,
} from '../ports/queue/judgeQueue.js';
export { defaultJudgeAckWaitMs, defaultJudgeMaxInFlight } from '../ports/queue/judgeQueue.js';
export type {
  EvaluationRunRecord,
  EvaluationRunStatus,
  JudgeStore,
  NewEvaluationRun,
  NewVerdict,
  StoredVerdict,
  VerdictCacheEntry,
  VerdictRecording,
} from '../ports/store/judgeStore.js';
export { caseKeyOf, EvaluationRunNotFoundError } from '../ports/store/judgeStore.js';
export { openJudgeStore } from '../ports/store/judgeStoreUri.js';
export type { VerdictBatchOptions, VerdictWriter } from '../ports/store/verdictWriter.js';
export { batchingVerdictWriter, verdictWriterOf } from '../ports/store/verdictWriter.js';
