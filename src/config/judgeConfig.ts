import path from 'node:path';
import { z } from 'zod';
import { JudgeConfigurationError } from '../domain/judge/errors.js';
import { MAX_TIMER_MS } from '../domain/judge/settings.js';
import { TOKEN_PARAMETERS } from '../domain/judge/tokenParameter.js';
import { ArenaError } from '../domain/shared/errors.js';
import { cannotReadFile } from '../ports/runtime/unreadableFile.js';
import { readInputText } from './inputFile.js';
import { parseYamlWithKeyOrder } from './orderedYaml.js';
import { sequentialGateIssues } from './sequentialGateConfig.js';
import { expecting } from './zodIssues.js';

const nonEmpty = z.string().trim().min(1);

const TIMER_LIMIT = 'the longest a timer can wait, about 24.8 days';

/** Milliseconds a timer can hold: a longer one would fire at once. */
const timerMs = z
  .number()
  .positive()
  .max(MAX_TIMER_MS, { error: expecting(`at most ${MAX_TIMER_MS} ms (${TIMER_LIMIT})`) });

const modelProfileSchema = z.strictObject({
  /** `openai` (any OpenAI-compatible server) or `replay` (recorded responses). */
  provider: z.enum(['openai', 'replay']),
  /** The provider identity used in results and self-evaluation checks (e.g. `ollama`). */
  provider_name: nonEmpty.optional(),
  model: nonEmpty,
  base_url: z.url().optional(),
  /** The environment variable holding the API key; omit for local servers. */
  api_key_env: nonEmpty.optional(),
  /** Sent as `token_parameter`; default 1000, as the seed's `from_config`. */
  max_output_tokens: z.number().int().positive().optional(),
  /**
   * The request field that carries `max_output_tokens`: `max_completion_tokens`
   * (OpenAI's, the default) or `max_tokens`, for servers that know only the older one.
   */
  token_parameter: z.enum(TOKEN_PARAMETERS).optional(),
  /** The largest response body read per attempt (default 4 MiB); over it, the attempt fails. */
  max_response_bytes: z.number().int().positive().optional(),
  /** For `replay`: a JSONL file, relative to the config file. */
  replay_file: nonEmpty.optional(),
});

const priceSchema = z.strictObject({
  input_per_million: z.number().finite().nonnegative(),
  output_per_million: z.number().finite().nonnegative(),
});

/** `[lo, hi]`, lo below hi: the scores a judge gives. */
const scoreRangeSchema = z
  .tuple([z.number().finite(), z.number().finite()])
  .refine(([lo, hi]) => lo < hi, { message: 'expected [lo, hi] with lo below hi' });

const judgeProfileSchema = z
  .strictObject({
    model: nonEmpty.optional(),
    agent: nonEmpty.optional(),
    judge_version: nonEmpty.default('1'),
    timeout_seconds: z
      .number()
      .positive()
      .max(MAX_TIMER_MS / 1000, {
        error: expecting(`at most ${MAX_TIMER_MS / 1000} seconds (${TIMER_LIMIT})`),
      })
      .default(60),
    max_attempts: z.number().int().min(1).max(100).default(2),
    allow_self_evaluation: z.boolean().default(false),
    max_input_tokens: z.number().int().positive().optional(),
    max_cost_usd: z.number().positive().optional(),
    allowed_tools: z.array(nonEmpty).default([]),
    tool_policy: z.enum(['evaluation_safe', 'read_only']).default('evaluation_safe'),
    backoff: z
      .strictObject({
        initial_ms: timerMs,
        max_ms: timerMs,
        multiplier: z.number().min(1).default(2),
        jitter: z.number().min(0).max(1).default(0.2),
      })
      .refine((backoff) => backoff.max_ms >= backoff.initial_ms, {
        path: ['max_ms'],
        message: 'expected at least initial_ms',
      })
      .optional(),
    seed: z.number().int().nonnegative().default(0),
    /** The scores this judge gives, `[lo, hi]`: a sequential `min_mean_score` gate needs it. */
    score_range: scoreRangeSchema.optional(),
  })
  .refine((judge) => (judge.model === undefined) !== (judge.agent === undefined), {
    message: 'a judge references exactly one of model or agent',
  });

const judgeAgentProfileSchema = z.strictObject({
  /**
   * The agent's module, as run files name components: `./path.js:ExportName`,
   * relative to the config file. A class is constructed with `new X(params)`, a
   * function is called as `X(params)`. Omit it when the agent comes from a
   * registry (`agentJudgeFromConfig`).
   */
  module: nonEmpty.optional(),
  /** Passed to the agent's class or factory. */
  params: z.record(z.string(), z.json()).default({}),
  max_tool_rounds: z.number().int().min(1).max(1000).optional(),
});

/**
 * A panel: several judges of `judges` judging each case independently, and the
 * rule that turns their verdicts into the panel's.
 */
const panelSchema = z.strictObject({
  /** Judge profiles of `judges`, each with its own attempts, timeouts, budgets and self-evaluation check. */
  members: z.array(nonEmpty).min(2, { error: expecting('a list of at least two judges') }),
  rule: z.enum(['majority', 'unanimous', 'mean_score']),
  /** The fewest votes a verdict needs (members that err or skip do not vote); default a majority of the members. */
  min_votes: z.number().int().min(1).optional(),
  /** `mean_score` only: the panel passes when the voters' mean score reaches it. */
  threshold: z.number().finite().optional(),
  judge_version: nonEmpty.default('1'),
  /** The scores the panel's verdicts carry, `[lo, hi]`: a sequential `min_mean_score` gate needs it. */
  score_range: scoreRangeSchema.optional(),
});

/**
 * The judge config file: models, prices, judges, panels, agents, the rubric and the gates.
 *
 * @example
 * ```ts
 * judgeConfigSchema.safeParse(parseYamlWithKeyOrder(readFileSync('examples/judge/local.yaml', 'utf8')).value).success; // true
 * ```
 */
export const judgeConfigSchema = z
  .strictObject({
    /** The judge or panel `arena judge` uses; default: the only judge. */
    judge: nonEmpty.optional(),
    rubric: z.strictObject({ version: nonEmpty, text: nonEmpty }),
    models: z.record(z.string(), modelProfileSchema).default({}),
    /** USD per 1M tokens, by model name. */
    prices: z.record(z.string(), priceSchema).default({}),
    judges: z.record(z.string(), judgeProfileSchema),
    agents: z.record(z.string(), judgeAgentProfileSchema).default({}),
    /** Panels of judges, by name; `judge: <panel>` selects one. */
    panels: z.record(z.string(), panelSchema).default({}),
    gates: z
      .strictObject({
        min_pass_rate: z.number().min(0).max(1).optional(),
        min_mean_score: z.number().finite().optional(),
        max_errors: z.number().int().nonnegative().optional(),
        /** The least Fleiss' kappa of a panel's members (and of `--trials`) that passes. */
        min_agreement: z.number().min(-1).max(1).optional(),
        /**
         * Decide `min_pass_rate` (and `min_mean_score`) by an anytime-valid
         * betting test over the cases in a seeded random order, and stop
         * judging once it is settled: a wrong decision has probability at most `alpha`.
         */
        sequential: z
          .strictObject({
            alpha: z
              .number()
              .gt(0, { error: expecting('a probability strictly between 0 and 1') })
              .lt(1, { error: expecting('a probability strictly between 0 and 1') }),
          })
          .optional(),
      })
      .default({}),
  })
  .superRefine((config, issues) => {
    for (const [name, judge] of Object.entries(config.judges)) {
      if (judge.model !== undefined && !(judge.model in config.models)) {
        issues.addIssue({
          code: 'custom',
          path: ['judges', name, 'model'],
          message: `unknown model profile '${judge.model}' (known: ${Object.keys(config.models).join(', ') || 'none'})`,
        });
      }
    }
    for (const [name, panel] of Object.entries(config.panels)) {
      for (const issue of panelIssues(name, panel, config.judges)) issues.addIssue(issue);
    }
    for (const issue of sequentialGateIssues(config.gates)) issues.addIssue(issue);
    if (
      config.judge !== undefined &&
      !(config.judge in config.judges) &&
      !(config.judge in config.panels)
    ) {
      issues.addIssue({
        code: 'custom',
        path: ['judge'],
        message: `unknown judge or panel '${config.judge}'`,
      });
    }
  });

/** What is wrong with one panel, each issue at its YAML path under `panels.<name>`. */
function panelIssues(
  name: string,
  panel: z.output<typeof panelSchema>,
  judges: Readonly<Record<string, unknown>>,
): { code: 'custom'; path: (string | number)[]; message: string }[] {
  const at = (...rest: (string | number)[]) => ['panels', name, ...rest];
  const found: { code: 'custom'; path: (string | number)[]; message: string }[] = [];
  if (name in judges) {
    found.push({
      code: 'custom',
      path: at(),
      message: `a panel cannot share its name with judge '${name}'`,
    });
  }
  panel.members.forEach((member, index) => {
    if (!(member in judges)) {
      found.push({
        code: 'custom',
        path: at('members', index),
        message: `unknown judge '${member}' (known: ${Object.keys(judges).join(', ') || 'none'})`,
      });
    } else if (panel.members.indexOf(member) !== index) {
      found.push({
        code: 'custom',
        path: at('members', index),
        message: `judge '${member}' is already a member: each member votes once`,
      });
    }
  });
  if (panel.min_votes !== undefined && panel.min_votes > panel.members.length) {
    found.push({
      code: 'custom',
      path: at('min_votes'),
      message: `expected at most the ${panel.members.length} members, got ${panel.min_votes}`,
    });
  }
  if (panel.rule === 'mean_score' && panel.threshold === undefined) {
    found.push({
      code: 'custom',
      path: at('threshold'),
      message: 'required: the mean_score rule passes a case when the mean score reaches it',
    });
  }
  if (panel.rule !== 'mean_score' && panel.threshold !== undefined) {
    found.push({
      code: 'custom',
      path: at('threshold'),
      message: `only the mean_score rule takes a threshold, not ${panel.rule}`,
    });
  }
  return found;
}

/** A parsed judge config file (see `judgeConfigSchema`). */
export type JudgeConfig = z.output<typeof judgeConfigSchema>;

/** One model profile of a judge config's `models`. */
export type ModelProfile = z.output<typeof modelProfileSchema>;

/** One judge of a judge config's `judges`: a model, a rubric and gates. */
export type JudgeProfile = z.output<typeof judgeProfileSchema>;

/** One panel of a judge config's `panels`. */
export type JudgePanelProfile = z.output<typeof panelSchema>;

/** One agent judge of a judge config's `agents`. */
export type JudgeAgentProfile = z.output<typeof judgeAgentProfileSchema>;

/** A parsed judge config and the directory its relative paths start from. */
export interface LoadedJudgeConfig {
  readonly config: JudgeConfig;
  readonly baseDir: string;
}

/**
 * Validate a judge config object; every error names its path and what was expected.
 *
 * @example
 * ```ts
 * parseJudgeConfig({ rubric: { version: '1', text: 'r' }, judges: { j: { model: 'm', timeout_seconds: 0 } } });
 * // throws JudgeConfigurationError('judge config: judges.j.timeout_seconds: Too small: expected number to be >0; ...')
 * ```
 */
export function parseJudgeConfig(value: unknown, source = 'judge config'): JudgeConfig {
  const result = judgeConfigSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new JudgeConfigurationError(`${source}: ${issues}`);
  }
  return result.data;
}

/**
 * Read and validate a YAML (or JSON) judge config file.
 *
 * @example
 * ```ts
 * const { config } = loadJudgeConfig('examples/judge/replay.yaml');
 * Object.keys(config.judges); // ['strict']
 * ```
 */
export function loadJudgeConfig(file: string): LoadedJudgeConfig {
  let text: string;
  try {
    text = readInputText(file);
  } catch (error) {
    if (ArenaError.is(error)) throw error;
    throw new JudgeConfigurationError(`judge config: ${cannotReadFile(file, error)}`, {
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = parseYamlWithKeyOrder(text).value;
  } catch (error) {
    throw new JudgeConfigurationError(`${file}: not valid YAML (${(error as Error).message})`, {
      cause: error,
    });
  }
  return { config: parseJudgeConfig(value, file), baseDir: path.dirname(path.resolve(file)) };
}

/**
 * The judge profile to use: the named one, else `config.judge`, else the only one.
 *
 * @example
 * ```ts
 * selectJudgeName(config); // the only judge, or config.judge
 * selectJudgeName(config, 'lenient'); // 'lenient' if config.judges has it, else a JudgeConfigurationError
 * ```
 */
export function selectJudgeName(config: JudgeConfig, name?: string): string {
  const chosen = name ?? config.judge;
  if (chosen !== undefined) {
    if (chosen in (config.panels ?? {})) {
      throw new JudgeConfigurationError(
        `${chosen} is a panel, not a judge profile: build it with judgeFromConfig`,
      );
    }
    if (!(chosen in config.judges))
      throw new JudgeConfigurationError(`unknown judge profile: ${chosen}`);
    return chosen;
  }
  const names = Object.keys(config.judges);
  if (names.length !== 1) {
    throw new JudgeConfigurationError(
      `judge config has ${names.length} judges: name one with 'judge:'`,
    );
  }
  return names[0]!;
}

/**
 * Whether the judge `arena judge` would use (the named one, else
 * `config.judge`) is a panel of `panels`.
 *
 * @example
 * ```ts
 * selectedPanelName(loadJudgeConfig('examples/judge/panel.yaml').config); // 'trio'
 * selectedPanelName(loadJudgeConfig('examples/judge/replay.yaml').config); // undefined
 * ```
 */
export function selectedPanelName(config: JudgeConfig, name?: string): string | undefined {
  const chosen = name ?? config.judge;
  return chosen !== undefined && chosen in (config.panels ?? {}) ? chosen : undefined;
}
