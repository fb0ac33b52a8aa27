import path from 'node:path';
import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { type JudgeConfig, type JudgeProfile, selectJudgeName } from '../../config/judgeConfig.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import {
  JudgeCancelledError,
  JudgeConfigurationError,
  JudgeResponseError,
} from '../../domain/judge/errors.js';
import { subjectPromptSha256 } from '../../domain/judge/pairwisePrompt.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import {
  type JudgeSettings,
  type JudgeSettingsInput,
  judgeSettings,
} from '../../domain/judge/settings.js';
import { checkAgentJudgePolicy, type ToolPolicy } from '../../domain/judge/toolPolicy.js';
import { createRng, deriveSeed } from '../../domain/shared/random.js';
import { type JudgeClock, judgeMachine, type ProviderCallInput } from '../../machines/judge.js';
import type { JudgeAgent } from '../../ports/judgeAgent.js';
import type { ModelProvider, ModelResponse } from '../../ports/model/modelProvider.js';
import { createOpenAIProvider } from '../../ports/model/openaiProvider.js';
import { createReplayProvider, loadReplayFile } from '../../ports/model/replayProvider.js';
import { systemClock } from '../../ports/runtime/clock.js';
import { type Logger, silentLogger } from '../../ports/runtime/logger.js';
import { judgementEvaluator } from './judgementActor.js';

/** A judge: evaluates one subject at a time, each in its own `judgeMachine` actor. */
export interface Judge {
  readonly settings: JudgeSettings;
  readonly model: string | null;
  /** Judge name, versions and evaluator identity: with the prompt hash, a cache key. */
  readonly identity: string;
  promptSha256(context: JudgeContext): string;
  /**
   * Judge one subject. Resolves with the result (status `error` for bounded
   * failures); rejects with `JudgeCancelledError` when `signal` aborts, and with
   * `JudgeConfigurationError` / `JudgeResponseError` for bad config or input.
   */
  evaluate(context: JudgeContext, options?: { signal?: AbortSignal }): Promise<JudgeResult>;
}

/** Sets and clears the machine's timers (the shape of xstate's actor `clock` option). */
export interface TimerClock {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(id: unknown): void;
}

/** What every judge takes besides its evaluator. */
export interface JudgeOptions extends JudgeSettingsInput {
  /** Default: the system clocks. */
  readonly clock?: JudgeClock;
  /** Seed of the backoff jitter; default 0. */
  readonly seed?: number;
  /**
   * Where the machine's timeouts and backoff delays are scheduled; default real
   * timers. Tests pass xstate's `SimulatedClock` (and a matching `clock`).
   */
  readonly timers?: TimerClock;
  /**
   * Where each verdict is logged (ids, status, error type, attempts: never the
   * model's text); default silent.
   */
  readonly logger?: Logger;
  /** XState's `inspect` for each judgement's actor (`arena judge --view`); default none. */
  readonly inspect?: Observer<InspectionEvent>;
}

type InvokeEvaluator = (input: ProviderCallInput, signal: AbortSignal) => Promise<ModelResponse>;

function createJudge(
  options: JudgeOptions,
  evaluator: {
    kind: string;
    model: string | null;
    invoke: InvokeEvaluator;
    /** Waited for before each attempt, outside its timeout (a fleet's pause of the model). */
    ready?: (signal: AbortSignal) => Promise<void>;
  },
  isSelfEvaluation: (context: JudgeContext) => boolean,
): Judge {
  const settings = judgeSettings(options);
  const clock = options.clock ?? systemClock;
  const rng = createRng(deriveSeed(options.seed ?? 0, settings.name));
  const logger = options.logger ?? silentLogger();
  const machine = judgeMachine.provide({
    actors: {
      invokeProvider: fromPromise<ModelResponse, ProviderCallInput>(({ input, signal }) =>
        evaluator.invoke(input, signal),
      ),
      waitForModel: fromPromise<void>(async ({ signal }) => evaluator.ready?.(signal)),
    },
  });
  return {
    settings,
    model: evaluator.model,
    identity: [
      settings.name,
      settings.judgeVersion,
      settings.rubricVersion,
      evaluator.kind,
      evaluator.model ?? '',
    ].join('\u0000'),
    promptSha256: (context) => subjectPromptSha256(settings.rubric, context),
    evaluate: judgementEvaluator(
      (context) =>
        createActor(machine, {
          input: {
            subject: context,
            settings,
            model: evaluator.model,
            selfEvaluation: isSelfEvaluation(context),
            clock,
            random: rng.next,
            waitsForModel: evaluator.ready !== undefined,
          },
          ...(options.timers ? { clock: options.timers } : {}),
          ...(options.inspect ? { inspect: options.inspect } : {}),
        }),
      (snapshot, context) => {
        const output = snapshot.output;
        if (!output) {
          logger.info({ judge: settings.name, caseId: context.caseId }, 'judgement cancelled');
          throw new JudgeCancelledError(context.caseId);
        }
        logVerdict(logger, output, snapshot.context.lastErrorDetail);
        return output;
      },
    ),
  };
}

/**
 * Log the facts of a verdict: ids, status, error type, attempts, duration; never
 * model text. An error names its cause when a provider gave one (e.g. the URL
 * and ECONNREFUSED).
 */
function logVerdict(logger: Logger, result: JudgeResult, errorDetail: string | null): void {
  const fields = {
    judge: result.judge,
    caseId: result.caseId,
    subjectId: result.subjectId,
    status: result.status,
    errorType: result.errorType,
    attemptCount: result.attemptCount,
    durationMs: result.durationMs,
  };
  if (result.status === 'error') {
    logger.warn(
      errorDetail === null ? fields : { ...fields, errorDetail },
      'judgement ended in error',
    );
  } else logger.debug(fields, 'judgement done');
}

/** A direct model judge: a `ModelProvider` plus the judge's identity and bounds. */
export interface ModelJudgeOptions extends JudgeOptions {
  readonly provider: ModelProvider;
}

/**
 * A judge that calls a model directly. Deterministic by construction: every
 * request has temperature 0 and the judge owns retries (the provider's are off).
 * Evaluating the judge's own model on the same provider is self-evaluation.
 *
 * @example
 * ```ts
 * const judge = createModelJudge({ provider, name: 'accuracy', judgeVersion: '1', rubric, rubricVersion: '2026-01' });
 * const result = await judge.evaluate(context);
 * result.status; // 'passed'
 * ```
 */
export function createModelJudge(options: ModelJudgeOptions): Judge {
  const { provider } = options;
  return createJudge(
    options,
    {
      kind: `model:${provider.name}`,
      model: provider.model,
      invoke: (input, signal) => provider.invoke({ ...input, temperature: 0, signal }),
      ...(provider.ready
        ? { ready: (signal: AbortSignal) => provider.ready?.(signal) ?? Promise.resolve() }
        : {}),
    },
    (context) =>
      Boolean(provider.model) &&
      context.observation.model === provider.model &&
      (context.observation.provider == null || context.observation.provider === provider.name),
  );
}

/** An agent judge: an ordinary agent narrowed to evaluation-safe tools. */
export interface AgentJudgeOptions extends JudgeOptions {
  readonly agent: JudgeAgent;
  readonly allowedTools?: readonly string[];
  readonly toolPolicy?: ToolPolicy;
  readonly maxToolRounds?: number | null;
}

const agentQueues = new WeakMap<JudgeAgent, Promise<unknown>>();

/** Run `task` after every earlier task on the same agent has settled. */
function runExclusive<T>(agent: JudgeAgent, task: () => Promise<T>): Promise<T> {
  const previous = agentQueues.get(agent) ?? Promise.resolve();
  const run = previous.then(task, task);
  agentQueues.set(
    agent,
    run.catch(() => undefined),
  );
  return run;
}

/** Reject as soon as `signal` aborts, while `work` may still be settling. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A judge over an ordinary agent. Unknown tools, tools that are not read-only
 * (`read_only`, `readOnlyHint`, `read_only_hint`) or evaluation-safe under the
 * policy, and agents that persist state are rejected with
 * `JudgeConfigurationError`. One evaluation runs at a time per agent, and the
 * agent's conversation history is restored after each one, even on error.
 *
 * @example
 * ```ts
 * const judge = createAgentJudge({ agent, allowedTools: ['search'], name: 'review', judgeVersion: '1', rubric, rubricVersion: '1' });
 * createAgentJudge({ agent, allowedTools: ['delete_file'], ... });
 * // throws JudgeConfigurationError("tools are not evaluation-safe under evaluation_safe: delete_file")
 * ```
 */
export function createAgentJudge(options: AgentJudgeOptions): Judge {
  const { agent } = options;
  const toolPolicy = options.toolPolicy ?? 'evaluation_safe';
  const allowedTools = [...(options.allowedTools ?? [])];
  const maxToolRounds = options.maxToolRounds ?? null;
  checkAgentJudgePolicy({
    tools: agent.tools,
    allowedTools,
    toolPolicy,
    maxToolRounds,
    persistState: agent.persistState,
  });
  const invoke: InvokeEvaluator = (input, signal) => {
    const [system, candidate] = input.messages;
    const work = runExclusive(agent, async () => {
      signal.throwIfAborted();
      const history = agent.conversationHistory;
      const original = [...history];
      try {
        return await agent.generate(candidate?.content ?? '', {
          responseSchema: input.responseSchema,
          timeoutMs: input.timeoutMs,
          metadata: input.metadata,
          maxToolRounds,
          allowedToolNames: allowedTools,
          additionalSystemMessage: system?.content ?? '',
          signal,
        });
      } finally {
        history.splice(0, history.length, ...original);
        agent.conversationHistory = history;
      }
    }).then((response) => {
      if (
        typeof response !== 'object' ||
        response === null ||
        typeof response.content !== 'string'
      ) {
        throw new JudgeResponseError('evaluator agent returned an invalid response');
      }
      return response;
    });
    return untilAborted(work, signal);
  };
  return createJudge(
    options,
    { kind: `agent:${agent.name}`, model: agent.model ?? null, invoke },
    (context) => context.observation.agentName === agent.name,
  );
}

/** What resolving a judge from config may need from the outside. */
export interface FromConfigOptions {
  /** Where relative paths (replay files) start; default the working directory. */
  readonly baseDir?: string;
  /** Environment variables (API keys); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly clock?: JudgeClock;
  readonly logger?: Logger;
  /** The most connections a model provider keeps open (e.g. the judgements in flight); default no limit. */
  readonly maxConnections?: number;
  /** Build a provider yourself (tests); default: the adapters of the config. */
  readonly providerFactory?: (profileName: string, config: JudgeConfig) => ModelProvider;
  /** Wrap the provider of model profile `profileName` for judge `judgeName` (e.g. to share 429 pauses across a fleet). */
  readonly wrapProvider?: (
    provider: ModelProvider,
    profileName: string,
    judgeName: string,
  ) => ModelProvider;
  /** The folders an agent's module may be imported from (by real path); default anywhere. */
  readonly moduleRoots?: readonly string[];
  /** XState's `inspect` for every judgement's actor (`arena judge --view`). */
  readonly inspect?: Observer<InspectionEvent>;
}

function judgeOptionsFrom(
  name: string,
  config: JudgeConfig,
  profile: JudgeProfile,
  clock?: JudgeClock,
): JudgeOptions {
  return {
    name,
    judgeVersion: profile.judge_version,
    rubric: config.rubric.text,
    rubricVersion: config.rubric.version,
    timeoutMs: profile.timeout_seconds * 1000,
    maxAttempts: profile.max_attempts,
    allowSelfEvaluation: profile.allow_self_evaluation,
    maxInputTokens: profile.max_input_tokens ?? null,
    maxCostUsd: profile.max_cost_usd ?? null,
    backoff: profile.backoff
      ? {
          initialMs: profile.backoff.initial_ms,
          maxMs: profile.backoff.max_ms,
          multiplier: profile.backoff.multiplier,
          jitter: profile.backoff.jitter,
        }
      : null,
    seed: profile.seed,
    ...(clock ? { clock } : {}),
  };
}

/**
 * The output cap of a model profile without `max_output_tokens`: the seed's `from_config` default.
 *
 * @example
 * ```ts
 * DEFAULT_MAX_OUTPUT_TOKENS; // 1000
 * ```
 */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1000;

/**
 * Build the provider of a model profile: the OpenAI-compatible adapter (API key
 * from the env var named by `api_key_env`, if any; output capped at
 * `max_output_tokens`, default 1000 as in the seed) or the replay provider.
 *
 * @example
 * ```ts
 * const { config, baseDir } = loadJudgeConfig('examples/judge/replay.yaml');
 * const provider = providerFromConfig(Object.keys(config.models)[0]!, config, { baseDir });
 * provider.name; // 'replay' (the profile in replay.yaml replays recorded answers)
 * ```
 */
export function providerFromConfig(
  profileName: string,
  config: JudgeConfig,
  options: Pick<FromConfigOptions, 'baseDir' | 'env' | 'maxConnections'> = {},
): ModelProvider {
  const profile = config.models[profileName];
  if (!profile) throw new JudgeConfigurationError(`unknown model profile: ${profileName}`);
  const price = config.prices[profile.model];
  const modelPrice = price
    ? { inputPerMillion: price.input_per_million, outputPerMillion: price.output_per_million }
    : null;
  if (profile.provider === 'replay') {
    if (!profile.replay_file) {
      throw new JudgeConfigurationError(
        `models.${profileName}.replay_file is required for the replay provider`,
      );
    }
    return createReplayProvider({
      model: profile.model,
      providerName: profile.provider_name ?? 'replay',
      price: modelPrice,
      records: loadReplayFile(path.resolve(options.baseDir ?? process.cwd(), profile.replay_file)),
    });
  }
  if (!profile.base_url) {
    throw new JudgeConfigurationError(
      `models.${profileName}.base_url is required for the openai provider`,
    );
  }
  let apiKey: string | null = null;
  if (profile.api_key_env) {
    apiKey = (options.env ?? process.env)[profile.api_key_env] ?? null;
    if (!apiKey) {
      throw new JudgeConfigurationError(
        `models.${profileName}.api_key_env names ${profile.api_key_env}, which is not set`,
      );
    }
  }
  return createOpenAIProvider({
    baseURL: profile.base_url,
    model: profile.model,
    apiKey,
    providerName: profile.provider_name ?? 'openai',
    price: modelPrice,
    maxOutputTokens: profile.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...(profile.token_parameter ? { tokenParameter: profile.token_parameter } : {}),
    ...(profile.max_response_bytes ? { maxResponseBytes: profile.max_response_bytes } : {}),
    ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
  });
}

/**
 * A direct model judge from a judge config's profile `name` (default: the
 * config's `judge`, or its only judge).
 *
 * @example
 * ```ts
 * const { config, baseDir } = loadJudgeConfig('examples/judge/replay.yaml');
 * const judge = modelJudgeFromConfig(config, { baseDir });
 * judge.settings.name; // 'strict'
 * ```
 */
export function modelJudgeFromConfig(
  config: JudgeConfig,
  options: FromConfigOptions & { name?: string } = {},
): Judge {
  const name = selectJudgeName(config, options.name);
  const profile = config.judges[name]!;
  if (profile.model === undefined) {
    throw new JudgeConfigurationError(`judge profile ${name} does not reference a model`);
  }
  const built = options.providerFactory
    ? options.providerFactory(profile.model, config)
    : providerFromConfig(profile.model, config, options);
  const provider = options.wrapProvider ? options.wrapProvider(built, profile.model, name) : built;
  return createModelJudge({
    ...judgeOptionsFrom(name, config, profile, options.clock),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    provider,
  });
}

/**
 * An agent judge from a judge config's profile, with the agent looked up by name
 * in `registry`.
 *
 * @example
 * ```ts
 * const judge = agentJudgeFromConfig(config, { name: 'review', registry: (name) => agents.get(name) });
 * ```
 */
export function agentJudgeFromConfig(
  config: JudgeConfig,
  options: {
    name?: string;
    registry: (agentName: string) => JudgeAgent | undefined;
    clock?: JudgeClock;
    logger?: Logger;
    inspect?: Observer<InspectionEvent>;
  },
): Judge {
  const name = selectJudgeName(config, options.name);
  const profile = config.judges[name]!;
  if (profile.agent === undefined) {
    throw new JudgeConfigurationError(`judge profile ${name} does not reference an agent`);
  }
  const agent = options.registry(profile.agent);
  if (!agent)
    throw new JudgeConfigurationError(`evaluator agent is not registered: ${profile.agent}`);
  return createAgentJudge({
    ...judgeOptionsFrom(name, config, profile, options.clock),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
    agent,
    allowedTools: profile.allowed_tools,
    toolPolicy: profile.tool_policy,
    maxToolRounds: config.agents[profile.agent]?.max_tool_rounds ?? null,
  });
}
