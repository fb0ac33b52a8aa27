import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import { JudgeCancelledError, JudgeConfigurationError } from '../../domain/judge/errors.js';
import {
  checkPanelRule,
  defaultMinVotes,
  type PanelJudgeResult,
  type PanelRule,
} from '../../domain/judge/panel.js';
import type { JudgeResult } from '../../domain/judge/result.js';
import { judgeSettings } from '../../domain/judge/settings.js';
import type { JudgeClock } from '../../machines/judge.js';
import { judgePanelMachine, type PanelMemberInput } from '../../machines/judgePanel.js';
import { systemClock } from '../../ports/runtime/clock.js';
import { type Logger, silentLogger } from '../../ports/runtime/logger.js';
import { judgementEvaluator } from './judgementActor.js';
import type { Judge } from './judges.js';

/** A panel of judges: a `Judge` whose results are `PanelJudgeResult`s. */
export interface JudgePanel extends Judge {
  readonly members: readonly Judge[];
  readonly rule: PanelRule;
  evaluate(context: JudgeContext, options?: { signal?: AbortSignal }): Promise<PanelJudgeResult>;
}

/** What a panel is made of. */
export interface JudgePanelOptions {
  readonly name: string;
  /** Default `'1'`. */
  readonly judgeVersion?: string;
  /** At least two judges with distinct names and the same rubric. */
  readonly members: readonly Judge[];
  readonly rule: PanelRule;
  /** Stamps the panel's `createdAt` and measures its duration; default the system clocks. */
  readonly clock?: JudgeClock;
  /** Where each panel verdict is logged (ids, status, the vote); default silent. */
  readonly logger?: Logger;
  /** XState's `inspect` for each panel judgement's actor (`arena judge --view`). */
  readonly inspect?: Observer<InspectionEvent>;
}

/**
 * A panel: every member judges each case independently (in its own child
 * actor of a `judgePanelMachine`, with its own attempts, timeouts, budgets and
 * self-evaluation check), then the rule decides. Its `settings` carry the
 * panel's identity and its members' loosest bounds (the longest timeout, the
 * most attempts, the sum of the cost caps when every member has one); each
 * member enforces its own. Aborting `signal` cancels every member.
 *
 * @throws JudgeConfigurationError for fewer than two members, a repeated
 * member, members with different rubrics, or a bad rule.
 * @example
 * ```ts
 * const panel = createJudgePanel({ name: 'trio', members: [strict, lenient, pedantic], rule: { rule: 'majority', minVotes: 2, threshold: null } });
 * const result = await panel.evaluate(context);
 * result.status; // 'passed' when two of three passed
 * result.panel.vote; // { votes: 3, passed: 2, failed: 1, skipped: 0, errors: 0 }
 * ```
 */
export function createJudgePanel(options: JudgePanelOptions): JudgePanel {
  const { members } = options;
  const byName = membersByName(members);
  const rule = checkPanelRule(options.rule, members.length);
  const first = members[0]!;
  const caps = members.map((member) => member.settings.maxCostUsd);
  const settings = judgeSettings({
    name: options.name,
    judgeVersion: options.judgeVersion ?? '1',
    rubric: first.settings.rubric,
    rubricVersion: first.settings.rubricVersion,
    timeoutMs: Math.max(...members.map((member) => member.settings.timeoutMs)),
    maxAttempts: Math.max(...members.map((member) => member.settings.maxAttempts)),
    allowSelfEvaluation: members.every((member) => member.settings.allowSelfEvaluation),
    maxCostUsd: caps.every((cap) => cap !== null)
      ? caps.reduce((sum, cap) => sum + (cap ?? 0), 0)
      : null,
  });
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger();
  const machine = judgePanelMachine.provide({
    actors: {
      member: fromPromise<JudgeResult, PanelMemberInput>(({ input, signal }) =>
        byName.get(input.member)!.evaluate(input.subject, { signal }),
      ),
    },
  });
  return {
    settings,
    model: null,
    members,
    rule,
    identity: [
      'panel',
      settings.name,
      settings.judgeVersion,
      rule.rule,
      rule.minVotes,
      rule.threshold ?? '',
      ...members.map((member) => member.identity),
    ].join('\u0001'),
    promptSha256: (context) => first.promptSha256(context),
    evaluate: judgementEvaluator(
      (context) =>
        createActor(machine, {
          input: {
            subject: context,
            panel: {
              name: settings.name,
              judgeVersion: settings.judgeVersion,
              rubricVersion: settings.rubricVersion,
              promptSha256: first.promptSha256(context),
            },
            members: members.map((member) => member.settings.name),
            rule,
            clock,
          },
          ...(options.inspect ? { inspect: options.inspect } : {}),
        }),
      (snapshot, context) => {
        if (snapshot.output) {
          const { status, errorType, panel } = snapshot.output;
          logger.debug(
            { judge: settings.name, caseId: context.caseId, status, errorType, vote: panel.vote },
            'panel verdict',
          );
          return snapshot.output;
        }
        if (snapshot.value === 'failed') throw snapshot.context.failure;
        throw new JudgeCancelledError(context.caseId);
      },
    ),
  };
}

/**
 * The panel `name` of a judge config's `panels`, each member built by
 * `buildMember` (`judgeFromConfig` of the member's profile). `min_votes`
 * defaults to a majority of the members.
 *
 * @throws JudgeConfigurationError naming `panels.<name>` and what is wrong.
 * @example
 * ```ts
 * const { config, baseDir } = loadJudgeConfig('examples/judge/panel.yaml');
 * const panel = await panelFromConfig(config, 'trio', (member) => judgeFromConfig(config, { baseDir, name: member }));
 * panel.members.map((member) => member.settings.name); // ['strict', 'lenient', 'pedantic']
 * ```
 */
export async function panelFromConfig(
  config: JudgeConfig,
  name: string,
  buildMember: (member: string) => Promise<Judge>,
  options: { clock?: JudgeClock; logger?: Logger; inspect?: Observer<InspectionEvent> } = {},
): Promise<JudgePanel> {
  const profile = config.panels[name];
  if (profile === undefined) throw new JudgeConfigurationError(`unknown panel: ${name}`);
  const members: Judge[] = [];
  for (const member of profile.members) members.push(await buildMember(member));
  try {
    return createJudgePanel({
      name,
      judgeVersion: profile.judge_version,
      members,
      rule: {
        rule: profile.rule,
        minVotes: profile.min_votes ?? defaultMinVotes(members.length),
        threshold: profile.threshold ?? null,
      },
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
  } catch (error) {
    if (!(error instanceof JudgeConfigurationError)) throw error;
    throw new JudgeConfigurationError(`panels.${name}: ${error.message}`, { cause: error });
  }
}

function membersByName(members: readonly Judge[]): ReadonlyMap<string, Judge> {
  if (members.length < 2) {
    throw new JudgeConfigurationError(`a panel needs at least two members, got ${members.length}`);
  }
  const byName = new Map<string, Judge>();
  const { rubric, rubricVersion } = members[0]!.settings;
  for (const member of members) {
    const memberName = member.settings.name;
    if (byName.has(memberName)) {
      throw new JudgeConfigurationError(`judge '${memberName}' is a member twice`);
    }
    if (member.settings.rubric !== rubric || member.settings.rubricVersion !== rubricVersion) {
      throw new JudgeConfigurationError(
        `every member must judge by the same rubric: '${memberName}' has another`,
      );
    }
    byName.set(memberName, member);
  }
  return byName;
}

/**
 * Whether a judge is a panel.
 *
 * @example
 * ```ts
 * isJudgePanel(await judgeFromConfig(loadJudgeConfig('examples/judge/panel.yaml').config)); // true
 * ```
 */
export function isJudgePanel(judge: Judge): judge is JudgePanel {
  return Array.isArray((judge as Partial<JudgePanel>).members);
}
