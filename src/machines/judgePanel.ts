import {
  type AnyActorRef,
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  enqueueActions,
  fromPromise,
  setup,
} from 'xstate';
import type { JudgeContext } from '../domain/judge/context.js';
import {
  type PanelJudgeResult,
  type PanelRule,
  panelRecord,
  panelVerdict,
} from '../domain/judge/panel.js';
import { awareUtcTimestamp, type JudgeResult } from '../domain/judge/result.js';
import { addUsage, type TokenUsage } from '../domain/judge/usage.js';
import type { JudgeClock } from './judge.js';

/** What each member actor receives: its judge profile's name and the case. */
export interface PanelMemberInput {
  readonly member: string;
  readonly subject: JudgeContext;
}

/** Who the panel is: what its result names, besides its members'. */
export interface PanelIdentity {
  readonly name: string;
  readonly judgeVersion: string;
  readonly rubricVersion: string;
  /** The prompt every member sends (they share the rubric). */
  readonly promptSha256: string;
}

/** What one panel judgement starts from. */
export interface JudgePanelMachineInput {
  readonly subject: JudgeContext;
  readonly panel: PanelIdentity;
  /** The members' judge profile names, in order; each is spawned as a `member` actor. */
  readonly members: readonly string[];
  readonly rule: PanelRule;
  readonly clock: JudgeClock;
}

/** The panel's context: the fixed job, the members' actors and what they reported. */
export interface JudgePanelMachineContext {
  readonly job: JudgePanelMachineInput & { readonly startedAtMs: number };
  readonly memberRefs: readonly AnyActorRef[];
  /** Each member's result, by member name, as it arrives. */
  readonly results: Readonly<Record<string, JudgeResult>>;
  /** What a member rejected with (bad config or input): the panel fails with it. */
  readonly failure: unknown;
  /** Written once, by the vote. */
  readonly result: PanelJudgeResult | null;
}

/** The panel's events: `cancel` from outside (the output is then `null`), and each member's done or error. */
export type JudgePanelMachineEvent =
  | { type: 'cancel' }
  | DoneActorEvent<JudgeResult, `member.${string}`>
  | ErrorActorEvent<unknown, `member.${string}`>;

const MEMBER_PREFIX = 'member.';

/**
 * One panel judgement of one case: every member judges it independently as its
 * own child actor (`member`, spawned by key, one per member), then the vote
 * applies the panel's rule to their verdicts:
 * `judging -> voting -> decided`. A member that rejects (bad config or input)
 * fails the panel; `cancel` stops every member and ends without a verdict.
 * The output is the `PanelJudgeResult`, or `null` when cancelled or failed.
 * Supply the members with `judgePanelMachine.provide({ actors: { member } })`.
 *
 * @example
 * ```ts
 * const machine = judgePanelMachine.provide({
 *   actors: { member: fromPromise(({ input, signal }) => judges[input.member].evaluate(input.subject, { signal })) },
 * });
 * const actor = createActor(machine, { input });
 * actor.subscribe({ complete: () => console.log(actor.getSnapshot().output?.status) });
 * actor.start(); // logs 'passed' when most members passed
 * ```
 */
export const judgePanelMachine = setup({
  types: {
    context: {} as JudgePanelMachineContext,
    input: {} as JudgePanelMachineInput,
    events: {} as JudgePanelMachineEvent,
    output: {} as PanelJudgeResult | null,
  },
  actors: {
    member: fromPromise<JudgeResult, PanelMemberInput>(async () => {
      throw new Error('judgePanelMachine needs a member actor: use judgePanelMachine.provide()');
    }),
  },
  guards: {
    everyMemberReported: ({ context }) =>
      context.job.members.every((member) => member in context.results),
  },
  actions: {
    conveneMembers: assign({
      memberRefs: ({ context, spawn }) =>
        context.job.members.map((member) =>
          spawn('member', {
            id: `${MEMBER_PREFIX}${member}`,
            input: { member, subject: context.job.subject },
          }),
        ),
    }),
    recordMemberResult: assign({
      results: ({ context }, event: DoneActorEvent<JudgeResult>) => ({
        ...context.results,
        [event.actorId?.slice(MEMBER_PREFIX.length) ?? '']: event.output,
      }),
    }),
    recordMemberFailure: assign({ failure: (_, error: unknown) => error }),
    castVote: assign({ result: ({ context }) => panelResultOf(context) }),
    stopMembers: enqueueActions(({ context, enqueue }) => {
      for (const ref of context.memberRefs) enqueue.stopChild(ref);
    }),
  },
}).createMachine({
  id: 'judgePanel',
  context: ({ input }) => ({
    job: { ...input, startedAtMs: input.clock.monotonicMs() },
    memberRefs: [],
    results: {},
    failure: null,
    result: null,
  }),
  initial: 'judging',
  on: { cancel: '.cancelled' },
  states: {
    judging: {
      entry: 'conveneMembers',
      on: {
        'xstate.done.actor.member.*': {
          actions: {
            type: 'recordMemberResult',
            params: ({ event }: { event: DoneActorEvent<JudgeResult> }) => event,
          },
        },
        'xstate.error.actor.member.*': {
          target: 'failed',
          actions: {
            type: 'recordMemberFailure',
            params: ({ event }: { event: ErrorActorEvent }) => event.error,
          },
        },
      },
      always: { guard: 'everyMemberReported', target: 'voting' },
    },
    voting: {
      entry: 'castVote',
      always: { target: 'decided' },
    },
    decided: { type: 'final' },
    failed: { type: 'final', entry: 'stopMembers' },
    cancelled: { type: 'final', entry: 'stopMembers' },
  },
  output: ({ context }) => context.result,
});

/** The vote: the rule over the members' verdicts, in member order, with their totals. */
function panelResultOf(context: JudgePanelMachineContext): PanelJudgeResult {
  const { job } = context;
  const members = job.members.map((member) => context.results[member]!);
  const verdict = panelVerdict(job.rule, members);
  const costs = members.flatMap((member) => (member.costUsd === null ? [] : [member.costUsd]));
  return {
    evaluationRunId: job.subject.evaluationRunId,
    caseId: job.subject.caseId,
    subjectId: job.subject.subjectId,
    judge: job.panel.name,
    judgeVersion: job.panel.judgeVersion,
    promptSha256: job.panel.promptSha256,
    rubricVersion: job.panel.rubricVersion,
    status: verdict.status,
    score: verdict.score,
    label: null,
    evidence: [],
    model: null,
    usage: members.reduce<TokenUsage | null>(
      (total, member) => addUsage(total, member.usage),
      null,
    ),
    costUsd: costs.length > 0 ? costs.reduce((sum, cost) => sum + cost, 0) : null,
    // whole milliseconds: a monotonic clock's fractions are noise in a stored result (66.94137799999999)
    durationMs: Math.max(0, Math.round(job.clock.monotonicMs() - job.startedAtMs)),
    attemptCount: members.reduce((sum, member) => sum + member.attemptCount, 0),
    errorType: verdict.errorType,
    detail: verdict.detail,
    createdAt: awareUtcTimestamp(job.clock.now()),
    panel: panelRecord(job.rule, verdict.vote, members),
  };
}
