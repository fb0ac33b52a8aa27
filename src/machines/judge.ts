import { assign, type ErrorActorEvent, fromPromise, setup } from 'xstate';
import { type AnsweredAttempt, errorTypeOf, readAnsweredAttempt } from '../domain/judge/attempt.js';
import type { JudgeContext } from '../domain/judge/context.js';
import { JudgeResponseError, JudgeTimeoutError } from '../domain/judge/errors.js';
import {
  JUDGE_RESPONSE_FORMAT_NAME,
  type JudgePayload,
  judgePayloadJsonSchema,
} from '../domain/judge/payload.js';
import { type ChatMessage, judgeMessages, messagesSha256 } from '../domain/judge/prompt.js';
import {
  awareUtcTimestamp,
  type ClockReading,
  evidenceReference,
  type JudgeResult,
  type JudgeStatus,
} from '../domain/judge/result.js';
import { type JudgeSettings, retryDelayMs } from '../domain/judge/settings.js';
import { addUsage, type TokenUsage } from '../domain/judge/usage.js';
import {
  ModelProviderError,
  type ModelResponse,
  type ResponseSchema,
} from '../ports/modelProvider.js';

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

interface Verdict {
  readonly status: JudgeStatus;
  readonly errorType: string | null;
  readonly payload: JudgePayload | null;
  readonly attemptCount: number;
}

/**
 * The judge's context. `clock` and `random` are functions: a judgement is never
 * persisted mid-flight (DESIGN.md: persist at quiet points), so they stay here.
 */
export interface JudgeMachineContext {
  readonly subject: JudgeContext;
  readonly settings: JudgeSettings;
  readonly model: string | null;
  readonly selfEvaluation: boolean;
  readonly clock: JudgeClock;
  readonly random: () => number;
  readonly messages: readonly ChatMessage[];
  readonly promptSha256: string;
  readonly startedAtMs: number;
  readonly attempt: number;
  /** Monotonic ms at which the attempt in flight times out. */
  readonly attemptDeadlineMs: number | null;
  /** Monotonic ms at which the next attempt starts (backoff only). */
  readonly retryAtMs: number | null;
  readonly usage: TokenUsage | null;
  readonly costUsd: number;
  readonly sawCost: boolean;
  readonly lastErrorType: string;
  readonly lastRetryAfterMs: number | null;
  readonly answered: AnsweredAttempt | null;
  readonly verdict: Verdict | null;
  readonly result: JudgeResult | null;
}

export type JudgeMachineEvent = { type: 'cancel' };

/**
 * One judgement of one subject, as DESIGN.md draws it:
 * `checkingSelfEvaluation -> attempting -> accounting -> validating -> done`,
 * `attemptFailed -> (backingOff ->) attempting` while attempts remain, then
 * `exhausted`; `budgetExceeded`, `rejected` and `cancelled` end early.
 * The output is the `JudgeResult`, or `null` when cancelled. Supply the
 * provider call with `judgeMachine.provide({ actors: { invokeProvider } })`.
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
  },
  delays: {
    attemptTimeout: ({ context }) =>
      Math.max(0, (context.attemptDeadlineMs ?? 0) - context.clock.monotonicMs()),
    retryDelay: ({ context }) =>
      Math.max(0, (context.retryAtMs ?? 0) - context.clock.monotonicMs()),
  },
  guards: {
    isRejectedSelfEvaluation: ({ context }) =>
      context.selfEvaluation && !context.settings.allowSelfEvaluation,
    accountingInvalid: ({ context }) => context.answered?.accountingInvalid === true,
    inputTokenBudgetExceeded: ({ context }) =>
      context.settings.maxInputTokens !== null &&
      context.usage !== null &&
      context.usage.inputTokens > context.settings.maxInputTokens,
    costBudgetExceeded: ({ context }) =>
      context.settings.maxCostUsd !== null && context.costUsd > context.settings.maxCostUsd,
    payloadValid: ({ context }) => context.answered?.payload != null,
    attemptsExhausted: ({ context }) => context.attempt >= context.settings.maxAttempts,
    backoffEnabled: ({ context }) => context.settings.backoff !== null,
  },
  actions: {
    rejectSelfEvaluation: assign({
      verdict: () => ({
        status: 'error',
        errorType: 'SelfEvaluationRejected',
        payload: null,
        attemptCount: 1,
      }),
    }),
    startAttempt: assign({
      attempt: ({ context }) => context.attempt + 1,
      attemptDeadlineMs: ({ context }) => context.clock.monotonicMs() + context.settings.timeoutMs,
      retryAtMs: null,
      answered: null,
    }),
    recordAnswer: assign({
      answered: (_, response: ModelResponse) => readAnsweredAttempt(response),
      attemptDeadlineMs: null,
    }),
    accumulateUsageAndCost: assign(({ context }) => {
      const answered = context.answered;
      if (!answered) return {};
      const counted = !answered.accountingInvalid && answered.costUsd !== null;
      return {
        usage: addUsage(context.usage, answered.usage),
        costUsd: counted ? context.costUsd + (answered.costUsd ?? 0) : context.costUsd,
        sawCost: context.sawCost || counted,
      };
    }),
    recordInvalidResponse: assign({
      lastErrorType: JudgeResponseError.name,
      lastRetryAfterMs: null,
    }),
    recordTimeout: assign({
      lastErrorType: JudgeTimeoutError.name,
      lastRetryAfterMs: null,
      attemptDeadlineMs: null,
    }),
    recordProviderError: assign({
      lastErrorType: (_, error: unknown) => errorTypeOf(error),
      lastRetryAfterMs: (_, error: unknown) =>
        error instanceof ModelProviderError ? error.retryAfterMs : null,
      attemptDeadlineMs: null,
    }),
    scheduleRetry: assign({
      retryAtMs: ({ context }) =>
        context.settings.backoff === null
          ? context.clock.monotonicMs()
          : context.clock.monotonicMs() +
            retryDelayMs(
              context.settings.backoff,
              context.attempt,
              context.random,
              context.lastRetryAfterMs,
            ),
    }),
    recordInputTokenLimitExceeded: assign({
      verdict: ({ context }) => errorVerdict('JudgeInputTokenLimitExceeded', context.attempt),
    }),
    recordCostLimitExceeded: assign({
      verdict: ({ context }) => errorVerdict('JudgeCostLimitExceeded', context.attempt),
    }),
    recordPassOrFail: assign({
      verdict: ({ context }) => ({
        status: context.answered?.payload?.status ?? 'error',
        errorType: null,
        payload: context.answered?.payload ?? null,
        attemptCount: context.attempt,
      }),
    }),
    recordExhausted: assign({
      verdict: ({ context }) => errorVerdict(context.lastErrorType, context.settings.maxAttempts),
    }),
    writeResult: assign({ result: ({ context }) => judgeResultOf(context) }),
  },
}).createMachine({
  id: 'judge',
  context: ({ input }) => {
    const messages = judgeMessages(input.settings.rubric, input.subject);
    return {
      subject: input.subject,
      settings: input.settings,
      model: input.model,
      selfEvaluation: input.selfEvaluation,
      clock: input.clock,
      random: input.random,
      messages,
      promptSha256: messagesSha256(messages),
      startedAtMs: input.clock.monotonicMs(),
      attempt: 0,
      attemptDeadlineMs: null,
      retryAtMs: null,
      usage: null,
      costUsd: 0,
      sawCost: false,
      lastErrorType: 'JudgeInvocationError',
      lastRetryAfterMs: null,
      answered: null,
      verdict: null,
      result: null,
    };
  },
  initial: 'checkingSelfEvaluation',
  on: { cancel: '.cancelled' },
  states: {
    checkingSelfEvaluation: {
      always: [
        { guard: 'isRejectedSelfEvaluation', target: 'rejected', actions: 'rejectSelfEvaluation' },
        { target: 'attempting' },
      ],
    },
    attempting: {
      entry: 'startAttempt',
      invoke: {
        src: 'invokeProvider',
        input: ({ context }) => ({
          attempt: context.attempt,
          messages: context.messages,
          responseSchema: judgeResponseSchema,
          timeoutMs: context.settings.timeoutMs,
          metadata: evaluationMetadata(context),
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
      entry: 'accumulateUsageAndCost',
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
        { target: 'attempting' },
      ],
    },
    backingOff: {
      after: { retryDelay: { target: 'attempting' } },
    },
    done: { type: 'final', entry: 'writeResult' },
    exhausted: { type: 'final', entry: 'writeResult' },
    budgetExceeded: { type: 'final', entry: 'writeResult' },
    rejected: { type: 'final', entry: 'writeResult' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => context.result,
});

function errorVerdict(errorType: string, attemptCount: number): Verdict {
  return { status: 'error', errorType, payload: null, attemptCount };
}

function evaluationMetadata(context: JudgeMachineContext): Record<string, string | boolean> {
  return {
    'arena.evaluation': true,
    'arena.evaluation.judge': context.settings.name,
    'arena.evaluation.judge_version': context.settings.judgeVersion,
    'arena.evaluation.rubric_version': context.settings.rubricVersion,
    'arena.evaluation.case_id': context.subject.caseId,
    'arena.evaluation.prompt_sha256': context.promptSha256,
  };
}

function judgeResultOf(context: JudgeMachineContext): JudgeResult {
  const verdict = context.verdict ?? errorVerdict(context.lastErrorType, context.attempt);
  const payload = verdict.payload;
  return {
    evaluationRunId: context.subject.evaluationRunId,
    caseId: context.subject.caseId,
    subjectId: context.subject.subjectId,
    judge: context.settings.name,
    judgeVersion: context.settings.judgeVersion,
    promptSha256: context.promptSha256,
    rubricVersion: context.settings.rubricVersion,
    status: verdict.status,
    score: payload?.score ?? null,
    label: payload?.label ?? null,
    evidence: (payload?.evidence ?? []).map(evidenceReference),
    model: context.model,
    usage: context.usage,
    costUsd: context.sawCost ? context.costUsd : null,
    durationMs: Math.max(0, context.clock.monotonicMs() - context.startedAtMs),
    attemptCount: verdict.attemptCount,
    errorType: verdict.errorType,
    createdAt: awareUtcTimestamp(context.clock.now()),
  };
}
