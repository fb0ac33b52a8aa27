import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createJudgePanel } from '../../src/actors/judging/judgePanel.js';
import { createModelJudge, type Judge } from '../../src/actors/judging/judges.js';
import { JudgeCancelledError } from '../../src/domain/judge/errors.js';
import {
  type PanelJudgeResult,
  type PanelRule,
  panelVerdict,
} from '../../src/domain/judge/panel.js';
import type { JudgeResult, JudgeStatus } from '../../src/domain/judge/result.js';
import type { ModelProvider, ModelRequest } from '../../src/ports/model/modelProvider.js';
import { ProviderHttpError } from '../../src/ports/model/modelProvider.js';
import { runToQuiet } from '../support/scheduler.js';
import { subject } from '../unit/judge/fixtures.js';

/** What one member will conclude: a verdict its model returns, or an error (its one attempt fails). */
type Outcome =
  | { kind: 'passed' | 'failed'; score: number }
  | { kind: 'skipped'; score: number | null }
  | { kind: 'error' };

const scoreArbitrary = fc.double({ min: 0, max: 1, noNaN: true });
const outcomeArbitrary: fc.Arbitrary<Outcome> = fc.oneof(
  fc.record({ kind: fc.constantFrom('passed' as const, 'failed' as const), score: scoreArbitrary }),
  fc.record({ kind: fc.constant('skipped' as const), score: fc.option(scoreArbitrary) }),
  fc.record({ kind: fc.constant('error' as const) }),
);

const ruleArbitrary = (members: number): fc.Arbitrary<PanelRule> =>
  fc.oneof(
    fc.record({
      rule: fc.constantFrom('majority' as const, 'unanimous' as const),
      minVotes: fc.integer({ min: 1, max: members }),
      threshold: fc.constant(null),
    }),
    fc.record({
      rule: fc.constant('mean_score' as const),
      minVotes: fc.integer({ min: 1, max: members }),
      threshold: scoreArbitrary,
    }),
  );

const panelArbitrary = fc
  .array(outcomeArbitrary, { minLength: 2, maxLength: 5 })
  .chain((outcomes) =>
    fc.record({ outcomes: fc.constant(outcomes), rule: ruleArbitrary(outcomes.length) }),
  );

/**
 * The rule written out from its definition, apart from the code under test:
 * who votes, whether there are enough votes, then what the votes say.
 */
function expectedVerdict(
  rule: PanelRule,
  outcomes: readonly Outcome[],
): { status: JudgeStatus; errorType: string | null } {
  const votes = outcomes.filter(
    (outcome): outcome is Extract<Outcome, { kind: 'passed' | 'failed' }> =>
      outcome.kind === 'passed' || outcome.kind === 'failed',
  );
  if (votes.length < rule.minVotes) {
    const skips = outcomes.filter((outcome) => outcome.kind === 'skipped').length;
    return skips >= rule.minVotes
      ? { status: 'skipped', errorType: null }
      : { status: 'error', errorType: 'PanelQuorumError' };
  }
  const balance = votes.reduce((sum, vote) => sum + (vote.kind === 'passed' ? 1 : -1), 0);
  if (rule.rule === 'majority') {
    if (balance === 0) return { status: 'error', errorType: 'PanelTieError' };
    return { status: balance > 0 ? 'passed' : 'failed', errorType: null };
  }
  if (rule.rule === 'unanimous') {
    return { status: balance === votes.length ? 'passed' : 'failed', errorType: null };
  }
  const mean = votes.reduce((sum, vote) => sum + vote.score, 0) / votes.length;
  return { status: mean >= (rule.threshold ?? 0) ? 'passed' : 'failed', errorType: null };
}

interface Member {
  judge: Judge;
  readonly requests: ModelRequest[];
  /** Requests whose answer was delivered before any abort. */
  answered: number;
}

/**
 * A model judge of one attempt whose provider answers `outcome` when the
 * scheduler releases it, or never (until aborted) when `hang`.
 */
function member(
  name: string,
  outcome: Outcome | 'hang',
  scheduler: fc.Scheduler | null,
  timers: SimulatedClock,
): Member {
  const requests: ModelRequest[] = [];
  const state: Member = { judge: undefined as unknown as Judge, requests, answered: 0 };
  const aborted = (request: ModelRequest) =>
    new Promise<never>((_, reject) =>
      request.signal.addEventListener('abort', () => reject(request.signal.reason), {
        once: true,
      }),
    );
  const provider: ModelProvider = {
    name: 'openai',
    model: `model-${name}`,
    invoke: (request) => {
      requests.push(request);
      if (outcome === 'hang') return aborted(request);
      const delivered = scheduler
        ? scheduler.schedule(Promise.resolve(outcome), `${name}: ${outcome.kind}`)
        : Promise.resolve(outcome);
      return Promise.race([
        aborted(request),
        delivered.then((value) => {
          if (request.signal.aborted) throw request.signal.reason;
          state.answered++;
          if (value.kind === 'error') throw new ProviderHttpError('scripted', { status: 500 });
          return {
            content: JSON.stringify({
              status: value.kind,
              score: value.score,
              label: value.kind === 'skipped' ? null : value.kind,
              explanation: null,
              evidence: [],
            }),
          };
        }),
      ]);
    },
  };
  state.judge = createModelJudge({
    name,
    judgeVersion: '1',
    rubric: 'Be strict.',
    rubricVersion: '1',
    provider,
    maxAttempts: 1,
    timeoutMs: 1000,
    clock: { now: () => new Date(0), monotonicMs: () => timers.now() },
    timers,
  });
  return state;
}

function panelOf(members: readonly Member[], rule: PanelRule) {
  return createJudgePanel({
    name: 'panel',
    members: members.map((entry) => entry.judge),
    rule,
    clock: { now: () => new Date(0), monotonicMs: () => 0 },
  });
}

describe('a judge panel under any completion order of its members and any timeouts', () => {
  it("gives the rule applied to the members' verdicts, and keeps every member's result in member order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        panelArbitrary,
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        async (scheduler, { outcomes, rule }, hangs) => {
          const timers = new SimulatedClock();
          // A member that never answers times out: its one attempt fails, so it is an error.
          const script = outcomes.map((outcome, index) => (hangs[index] ? 'hang' : outcome));
          const concluded = script.map(
            (step): Outcome => (step === 'hang' ? { kind: 'error' } : step),
          );
          const members = script.map((step, index) => member(`m${index}`, step, scheduler, timers));
          let result: PanelJudgeResult | null = null;
          panelOf(members, rule)
            .evaluate(subject())
            .then((value) => {
              result = value;
            });
          await runToQuiet(scheduler);
          while (result === null) {
            timers.increment(1000);
            await runToQuiet(scheduler);
          }
          const final = result as PanelJudgeResult;
          expect({ status: final.status, errorType: final.errorType }).toEqual(
            expectedVerdict(rule, concluded),
          );
          expect(final.panel.members.map((entry) => entry.judge)).toEqual(
            outcomes.map((_, index) => `m${index}`),
          );
          expect(final.panel.members.map((entry) => entry.status)).toEqual(
            concluded.map((outcome) => outcome.kind),
          );
          script.forEach((step, index) => {
            if (step === 'hang') {
              expect(final.panel.members[index]!.errorType).toBe('JudgeTimeoutError');
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('cancelling a judge panel', () => {
  it('cancels every member still judging, sends nothing after, and yields no verdict', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.oneof(outcomeArbitrary, fc.constant('hang' as const)), {
          minLength: 2,
          maxLength: 5,
        }),
        async (scheduler, outcomes) => {
          const timers = new SimulatedClock();
          const members = outcomes.map((outcome, index) =>
            member(`m${index}`, outcome, scheduler, timers),
          );
          const controller = new AbortController();
          let outcome: { result: JudgeResult } | { error: unknown } | null = null;
          panelOf(members, { rule: 'majority', minVotes: 1, threshold: null })
            .evaluate(subject(), { signal: controller.signal })
            .then(
              (result) => {
                outcome = { result };
              },
              (error: unknown) => {
                outcome = { error };
              },
            );
          let cancelledBeforeEnd = false;
          let requestsAtCancel = 0;
          scheduler.schedule(Promise.resolve(), 'cancel').then(() => {
            cancelledBeforeEnd = outcome === null;
            requestsAtCancel = members.reduce((sum, entry) => sum + entry.requests.length, 0);
            controller.abort();
          });
          await runToQuiet(scheduler);
          const final = outcome as { result: JudgeResult } | { error: unknown } | null;
          expect(final).not.toBeNull();
          if (!cancelledBeforeEnd) {
            expect(outcomes).not.toContain('hang');
            return;
          }
          expect(final).toEqual({ error: expect.any(JudgeCancelledError) });
          const requests = members.flatMap((entry) => entry.requests);
          expect(requests).toHaveLength(requestsAtCancel);
          const answered = members.reduce((sum, entry) => sum + entry.answered, 0);
          const aborted = requests.filter((request) => request.signal.aborted).length;
          // Every request is either answered before the cancel or aborted by it.
          expect(answered + aborted).toBe(requests.length);
          members.forEach((entry, index) => {
            if (outcomes[index] === 'hang') {
              expect(entry.requests.every((request) => request.signal.aborted)).toBe(true);
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("a member's error", () => {
  it('never counts as a vote: adding erring members changes neither the verdict nor the score', () => {
    fc.assert(
      fc.property(
        panelArbitrary,
        fc.array(fc.option(scoreArbitrary), { minLength: 1, maxLength: 3 }),
        ({ outcomes, rule }, errorScores) => {
          const results = outcomes.map(
            (outcome): Pick<JudgeResult, 'status' | 'score'> =>
              outcome.kind === 'error'
                ? { status: 'error', score: null }
                : { status: outcome.kind, score: outcome.score },
          );
          // An error result never has a score from a judge; one that did must still not vote.
          const errors = errorScores.map((score) => ({ status: 'error' as const, score }));
          const without = panelVerdict(rule, results);
          const withErrors = panelVerdict(rule, [...errors, ...results]);
          expect(withErrors.status).toBe(without.status);
          expect(withErrors.errorType).toBe(without.errorType);
          expect(withErrors.score).toBe(without.score);
          expect(withErrors.vote.votes).toBe(without.vote.votes);
          expect(withErrors.vote.errors).toBe(without.vote.errors + errors.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never counts as a vote in a running panel: an erring member is as if absent', async () => {
    await fc.assert(
      fc.asyncProperty(panelArbitrary, fc.nat(5), async ({ outcomes, rule }, position) => {
        const timers = new SimulatedClock();
        const build = (list: readonly Outcome[]) =>
          list.map((outcome, index) => member(`m${index}`, outcome, null, timers));
        const withError = [...outcomes];
        withError.splice(position % (outcomes.length + 1), 0, { kind: 'error' });
        const plain = await panelOf(build(outcomes), rule).evaluate(subject());
        const erring = await panelOf(build(withError), rule).evaluate(subject());
        expect(erring.status).toBe(plain.status);
        expect(erring.errorType).toBe(plain.errorType);
        expect(erring.score).toBe(plain.score);
        expect(erring.panel.vote.votes).toBe(plain.panel.vote.votes);
        expect(erring.panel.vote.errors).toBe(plain.panel.vote.errors + 1);
      }),
      { numRuns: 100 },
    );
  });
});
