import { assign, type ErrorActorEvent, fromPromise, setup } from 'xstate';
import {
  type AnsweredAttempt,
  errorDetailOf,
  errorTypeOf,
  readAnsweredAttempt,
} from '../domain/judge/attempt.js';
import type { JudgeContext, PairwiseSubject } from '../domain/judge/context.js';
import { JudgeResponseError, JudgeTimeoutError } from '../domain/judge/errors.js';
import {
  PAIRWISE_RESPONSE_FORMAT_NAME,
  pairwisePayloadJsonSchema,
  readPairwisePayload,
} from '../domain/judge/pairwisePayload.js';
import { subjectMessages } from '../domain/judge/pairwisePrompt.js';
import {
  JUDGE_RESPONSE_FORMAT_NAME,
  type JudgePayload,
  judgePayloadJsonSchema,
  readJudgePayload,
} from '../domain/judge/payload.js';
import { type ChatMessage, messagesSha256 } from '../domain/judge/prompt.js';
import {
  awareUtcTimestamp,
  type ClockReading,
  evidenceReference,
  type JudgeResult,
  type JudgeStatus,
  type PairVerdict,
} from '../domain/judge/result.js';
import { type JudgeSettings, retryDelayMs, timerDelayMs } from '../domain/judge/settings.js';
import { addUsage, type TokenUsage } from '../domain/judge/usage.js';
import {
  ModelProviderError,
  type ModelResponse,
  type ResponseSchema,
} from '../ports/model/modelProvider.js';

/**
 * The judge's clocks: `now()` stamps `createdAt` (a `Date`, or an ISO string
 * that must carry a zone) and `monotonicMs()` measures durations and deadlines.
 */
export interface JudgeClock {
  now(): ClockReading;
  monotonicMs(): number;
}

/** What one judgement starts from. */
export interface JudgeMachineInput {
  readonly subject: JudgeContext;
  readonly settings: JudgeSettings;
  /** The judge's model identity, when known. */
  readonly model: string | null;
  /** Whether the judge would evaluate its own model or agent (decided by the judge). */
  readonly selfEvaluation: boolean;
  readonly clock: JudgeClock;
  /** Uniform in [0, 1), from a seeded rng: the backoff's jitter. */
  readonly random: () => number;
  /** Wait for the model (`waitForModel`, a fleet's pause) before each attempt; default no. */
  readonly waitsForModel?: boolean;
}

/** What the `invokeProvider` actor receives (plus xstate's AbortSignal). */
export interface ProviderCallInput {
  readonly attempt: number;
  readonly messages: readonly ChatMessage[];
  readonly responseSchema: ResponseSchema;
  readonly timeoutMs: number;
  readonly metadata: Readonly<Record<string, string | boolean>>;
}

/** The strict structured-output format every judge sends. */
export const judgeResponseSchema: ResponseSchema = {
  name: JUDGE_RESPONSE_FORMAT_NAME,
  strict: true,
  schema: judgePayloadJsonSchema,
};

/** The strict structured-output format of a pairwise judgement. */
export const pairwiseResponseSchema: ResponseSchema = {
  name: PAIRWISE_RESPONSE_FORMAT_NAME,
  strict: true,
  schema: pairwisePayloadJsonSchema,
};

interface Verdict {
  readonly status: JudgeStatus;
  readonly errorType: string | null;
  readonly detail: string | null;
  readonly payload: JudgePayload | null;
  readonly attemptCount: number;
}

/**
 * What one judgement is about, fixed for its lifetime. Kept as one object so
 * that each context update copies a handful of keys, not all of these.
 * `clock` and `random` are functions: a judgement is never persisted
 * mid-flight (DESIGN.md: persist at quiet points), so they stay here.
 */
export interface JudgeJob extends JudgeMachineInput {
  readonly messages: readonly ChatMessage[];
  readonly promptSha256: string;
  /** Sent with every attempt (it names no attempt, so it is built once). */
  readonly metadata: Readonly<Record<string, string | boolean>>;
  readonly startedAtMs: number;
}

/** The judge's context: the fixed job, then what changes from attempt to attempt. */
export interface JudgeMachineContext {
  readonly job: JudgeJob;
  readonly attempt: number;
  /** Monotonic ms at which the attempt in flight times out. */
  readonly attemptDeadlineMs: number | null;
  /** Monotonic ms at which the next attempt starts (backoff only). */
  readonly retryAtMs: number | null;
  readonly usage: TokenUsage | null;
  readonly costUsd: number;
  readonly sawCost: boolean;
  readonly lastErrorType: string;
  /** What the latest attempt's failure was, in one line of arena's own words (never model text). */
  readonly lastErrorDetail: string | null;
  readonly lastRetryAfterMs: number | null;
  readonly answered: AnsweredAttempt | null;
  /** Written once, by the action that decides the verdict. */
  readonly result: JudgeResult | null;
}

/** The one event the judge machine takes: `cancel` (the output is then `null`). */
export type JudgeMachineEvent = { type: 'cancel' };

/**
 * One judgement of one subject, as DESIGN.md draws it:
 * `checkingSelfEvaluation -> (waitingForModel ->) attempting -> accounting -> validating -> done`,
 * `attemptFailed -> (backingOff ->) (waitingForModel ->) attempting` while attempts remain, then
 * `exhausted`; `budgetExceeded`, `rejected` and `cancelled` end early.
 * The output is the `JudgeResult`, or `null` when cancelled. Supply the
 * provider call with `judgeMachine.provide({ actors: { invokeProvider } })`, and
 * a wait for the model (a fleet's pause) with `waitForModel`.
 *
 * @example
 * ```ts
 * const machine = judgeMachine.provide({
 *   actors: { invokeProvider: fromPromise(async ({ input, signal }) => provider.invoke({ ...input, temperature: 0, signal })) },
 * });
 * const actor = createActor(machine, { input });
 * actor.subscribe({ complete: () => console.log(actor.getSnapshot().output?.status), error: console.error });
 * actor.start(); // logs 'passed'
 * ```
 */
export const judgeMachine = setup({
  types: {
    context: {} as JudgeMachineContext,
    input: {} as JudgeMachineInput,
    events: {} as JudgeMachineEvent,
    output: {} as JudgeResult | null,
  },
  actors: {
    invokeProvider: fromPromise<ModelResponse, ProviderCallInput>(async () => {
      throw new Error('judgeMachine needs an invokeProvider actor: use judgeMachine.provide()');
    }),
    // a fleet's pause of the model, waited out before an attempt starts: never counted against its timeout
    waitForModel: fromPromise<void>(async () => undefined),
  },
  delays: {
    attemptTimeout: ({ context }) =>
      timerDelayMs((context.attemptDeadlineMs ?? 0) - context.job.clock.monotonicMs()),
    retryDelay: ({ context }) =>
      timerDelayMs((context.retryAtMs ?? 0) - context.job.clock.monotonicMs()),
  },
  guards: {
    isRejectedSelfEvaluation: ({ context }) =>
      context.job.selfEvaluation && !context.job.settings.allowSelfEvaluation,
    accountingInvalid: ({ context }) => context.answered?.accountingInvalid === true,
    inputTokenBudgetExceeded: ({ context }) =>
      context.job.settings.maxInputTokens !== null &&
      context.usage !== null &&
      context.usage.inputTokens > context.job.settings.maxInputTokens,
    costBudgetExceeded: ({ context }) =>
      context.job.settings.maxCostUsd !== null && context.costUsd > context.job.settings.maxCostUsd,
    payloadValid: ({ context }) => context.answered?.payload != null,
    attemptsExhausted: ({ context }) => context.attempt >= context.job.settings.maxAttempts,
    backoffEnabled: ({ context }) => context.job.settings.backoff !== null,
    waitsForModel: ({ context }) => context.job.waitsForModel === true,
  },
  actions: {
    rejectSelfEvaluation: assign({
      result: ({ context }) =>
        judgeResultOf(context, errorVerdict('SelfEvaluationRejected', 1, SELF_EVALUATION_DETAIL)),
    }),
    startAttempt: assign(({ context }) => ({
      attempt: context.attempt + 1,
      attemptDeadlineMs: context.job.clock.monotonicMs() + context.job.settings.timeoutMs,
      retryAtMs: null,
      answered: null,
      // The detail describes the latest attempt only, so a later verdict never shows an older cause.
      lastErrorDetail: null,
    })),
    /** Read the answer once, then add its usage and cost to the totals. */
    recordAnswer: assign(({ context }, response: ModelResponse) => {
      const answered = readAnsweredAttempt(
        response,
        context.job.subject.pairwise === undefined ? readJudgePayload : readPairwisePayload,
      );
      const counted = !answered.accountingInvalid && answered.costUsd !== null;
      return {
        answered,
        attemptDeadlineMs: null,
        usage: addUsage(context.usage, answered.usage),
        costUsd: counted ? context.costUsd + (answered.costUsd ?? 0) : context.costUsd,
        sawCost: context.sawCost || counted,
      };
    }),
    recordInvalidResponse: assign({
      lastErrorType: JudgeResponseError.name,
      lastErrorDetail: ({ context }) => context.answered?.problem ?? null,
      lastRetryAfterMs: null,
    }),
    recordTimeout: assign({
      lastErrorType: JudgeTimeoutError.name,
      lastErrorDetail: ({ context }) =>
        new JudgeTimeoutError(context.job.settings.timeoutMs).message,
      lastRetryAfterMs: null,
      attemptDeadlineMs: null,
    }),
    recordProviderError: assign((_, error: unknown) => ({
      lastErrorType: errorTypeOf(error),
      lastErrorDetail: errorDetailOf(error),
      lastRetryAfterMs: error instanceof ModelProviderError ? error.retryAfterMs : null,
      attemptDeadlineMs: null,
    })),
    scheduleRetry: assign({
      retryAtMs: ({ context }) =>
        context.job.settings.backoff === null
          ? context.job.clock.monotonicMs()
          : context.job.clock.monotonicMs() +
            retryDelayMs(
              context.job.settings.backoff,
              context.attempt,
              context.job.random,
              context.lastRetryAfterMs,
            ),
    }),
    recordInputTokenLimitExceeded: assign({
      result: ({ context }) =>
        judgeResultOf(
          context,
          errorVerdict(
            'JudgeInputTokenLimitExceeded',
            context.attempt,
            `input tokens ${context.usage?.inputTokens} exceed max_input_tokens ${context.job.settings.maxInputTokens}`,
          ),
        ),
    }),
    recordCostLimitExceeded: assign({
      result: ({ context }) =>
        judgeResultOf(
          context,
          errorVerdict(
            'JudgeCostLimitExceeded',
            context.attempt,
            `cost $${context.costUsd} exceeds max_cost_usd ${context.job.settings.maxCostUsd}`,
          ),
        ),
    }),
    recordPassOrFail: assign({
      result: ({ context }) =>
        judgeResultOf(context, {
          status: context.answered?.payload?.status ?? 'error',
          errorType: null,
          detail: null,
          payload: context.answered?.payload ?? null,
          attemptCount: context.attempt,
        }),
    }),
    recordExhausted: assign({
      result: ({ context }) =>
        judgeResultOf(
          context,
          errorVerdict(
            context.lastErrorType,
            context.job.settings.maxAttempts,
            exhaustedDetail(context),
          ),
        ),
    }),
  },
}).createMachine({
  id: 'judge',
  context: ({ input }) => ({
    job: judgeJobOf(input),
    attempt: 0,
    attemptDeadlineMs: null,
    retryAtMs: null,
    usage: null,
    costUsd: 0,
    sawCost: false,
    lastErrorType: 'JudgeInvocationError',
    lastErrorDetail: null,
    lastRetryAfterMs: null,
    answered: null,
    result: null,
  }),
  initial: 'checkingSelfEvaluation',
  on: { cancel: '.cancelled' },
  states: {
    checkingSelfEvaluation: {
      always: [
        { guard: 'isRejectedSelfEvaluation', target: 'rejected', actions: 'rejectSelfEvaluation' },
        { guard: 'waitsForModel', target: 'waitingForModel' },
        { target: 'attempting' },
      ],
    },
    waitingForModel: {
      invoke: {
        src: 'waitForModel',
        onDone: { target: 'attempting' },
        // a wait that failed is no reason to skip the attempt
        onError: { target: 'attempting' },
      },
    },
    attempting: {
      entry: 'startAttempt',
      invoke: {
        src: 'invokeProvider',
        input: ({ context }) => ({
          attempt: context.attempt,
          messages: context.job.messages,
          responseSchema:
            context.job.subject.pairwise === undefined
              ? judgeResponseSchema
              : pairwiseResponseSchema,
          timeoutMs: context.job.settings.timeoutMs,
          metadata: context.job.metadata,
        }),
        onDone: {
          target: 'accounting',
          actions: { type: 'recordAnswer', params: ({ event }) => event.output },
        },
        onError: {
          target: 'attemptFailed',
          actions: {
            type: 'recordProviderError',
            params: ({ event }: { event: ErrorActorEvent }) => event.error,
          },
        },
      },
      after: { attemptTimeout: { target: 'attemptFailed', actions: 'recordTimeout' } },
    },
    accounting: {
      always: [
        { guard: 'accountingInvalid', target: 'attemptFailed', actions: 'recordInvalidResponse' },
        {
          guard: 'inputTokenBudgetExceeded',
          target: 'budgetExceeded',
          actions: 'recordInputTokenLimitExceeded',
        },
        {
          guard: 'costBudgetExceeded',
          target: 'budgetExceeded',
          actions: 'recordCostLimitExceeded',
        },
        { target: 'validating' },
      ],
    },
    validating: {
      always: [
        { guard: 'payloadValid', target: 'done', actions: 'recordPassOrFail' },
        { target: 'attemptFailed', actions: 'recordInvalidResponse' },
      ],
    },
    attemptFailed: {
      always: [
        { guard: 'attemptsExhausted', target: 'exhausted', actions: 'recordExhausted' },
        { guard: 'backoffEnabled', target: 'backingOff', actions: 'scheduleRetry' },
        { guard: 'waitsForModel', target: 'waitingForModel' },
        { target: 'attempting' },
      ],
    },
    backingOff: {
      after: {
        retryDelay: [
          { guard: 'waitsForModel', target: 'waitingForModel' },
          { target: 'attempting' },
        ],
      },
    },
    done: { type: 'final' },
    exhausted: { type: 'final' },
    budgetExceeded: { type: 'final' },
    rejected: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => context.result,
});

function errorVerdict(errorType: string, attemptCount: number, detail: string): Verdict {
  return { status: 'error', errorType, detail, payload: null, attemptCount };
}

/** The last attempt's failure, and that it was the last: `... (the last of 2 attempts)`. */
function exhaustedDetail(context: JudgeMachineContext): string {
  const cause = context.lastErrorDetail ?? context.lastErrorType;
  const attempts = context.job.settings.maxAttempts;
  return attempts === 1 ? cause : `${cause} (the last of ${attempts} attempts)`;
}

const SELF_EVALUATION_DETAIL =
  "the candidate was produced by the judge's own model or agent; set allow_self_evaluation: true to judge it anyway";

/** Build the judgement's fixed part: the messages, their hash and metadata, once. */
function judgeJobOf(input: JudgeMachineInput): JudgeJob {
  const { subject, settings } = input;
  const messages = subjectMessages(settings.rubric, subject);
  const promptSha256 = messagesSha256(messages);
  return {
    subject,
    settings,
    model: input.model,
    selfEvaluation: input.selfEvaluation,
    clock: input.clock,
    random: input.random,
    waitsForModel: input.waitsForModel === true,
    messages,
    promptSha256,
    metadata: {
      'arena.evaluation': true,
      'arena.evaluation.judge': settings.name,
      'arena.evaluation.judge_version': settings.judgeVersion,
      'arena.evaluation.rubric_version': settings.rubricVersion,
      'arena.evaluation.case_id': subject.caseId,
      'arena.evaluation.prompt_sha256': promptSha256,
    },
    startedAtMs: input.clock.monotonicMs(),
  };
}

function judgeResultOf(context: JudgeMachineContext, verdict: Verdict): JudgeResult {
  const { job } = context;
  const payload = verdict.payload;
  return {
    evaluationRunId: job.subject.evaluationRunId,
    caseId: job.subject.caseId,
    subjectId: job.subject.subjectId,
    judge: job.settings.name,
    judgeVersion: job.settings.judgeVersion,
    promptSha256: job.promptSha256,
    rubricVersion: job.settings.rubricVersion,
    status: verdict.status,
    score: payload?.score ?? null,
    label: payload?.label ?? null,
    evidence: (payload?.evidence ?? []).map(evidenceReference),
    model: job.model,
    usage: context.usage,
    costUsd: context.sawCost ? context.costUsd : null,
    // whole milliseconds: a monotonic clock's fractions are noise in a stored result (66.94137799999999)
    durationMs: Math.max(0, Math.round(job.clock.monotonicMs() - job.startedAtMs)),
    attemptCount: verdict.attemptCount,
    errorType: verdict.errorType,
    detail: verdict.detail,
    createdAt: awareUtcTimestamp(job.clock.now()),
    ...(job.subject.pairwise ? { pair: pairVerdictOf(job.subject.pairwise, verdict) } : {}),
  };
}

/** A pairwise result's pair, order and answer (the answer only when the judge gave one). */
function pairVerdictOf(pair: PairwiseSubject, verdict: Verdict): PairVerdict {
  const winner = verdict.payload?.label;
  return {
    systems: pair.first < pair.second ? [pair.first, pair.second] : [pair.second, pair.first],
    first: pair.first,
    second: pair.second,
    winner: winner === 'first' || winner === 'second' || winner === 'tie' ? winner : null,
    candidates: pair.candidates,
  };
}
