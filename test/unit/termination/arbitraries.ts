import fc from 'fast-check';
import type {
  CheckpointDecision,
  EvaluationOutcome,
  TerminationState,
} from '../../../src/domain/termination/index.js';

/** A seed-shaped rule set of 1-3 agents that all share the same categories. */
export const rawRulesArbitrary = fc
  .record({
    agentCount: fc.integer({ min: 1, max: 3 }),
    categories: fc.constantFrom('success', 'plateau', 'both'),
    success: fc.record({
      metric: fc.constant('objective'),
      threshold: fc.constantFrom(0.25, 0.5, 0.75),
      direction: fc.constantFrom('greater_equal', 'less_equal'),
      consecutive: fc.integer({ min: 1, max: 3 }),
      min_evaluations: fc.integer({ min: 1, max: 4 }),
    }),
    plateau: fc.record({
      metric: fc.constant('objective'),
      direction: fc.constantFrom('maximize', 'minimize'),
      min_delta: fc.constantFrom(0, 0.1, 0.3),
      patience: fc.integer({ min: 1, max: 3 }),
      min_evaluations: fc.integer({ min: 1, max: 4 }),
      window: fc.integer({ min: 1, max: 3 }),
    }),
  })
  .map(({ agentCount, categories, success, plateau }) => {
    const agents: Record<string, Record<string, unknown>> = {};
    for (let index = 0; index < agentCount; index++) {
      agents[`agent${index}`] = {
        ...(categories !== 'plateau' ? { success } : {}),
        ...(categories !== 'success' ? { plateau } : {}),
      };
    }
    return { agents };
  });

/** What one agent sends in one generated checkpoint. */
export type OutcomeKind =
  | 'valid'
  | 'invalid'
  | 'missingId'
  | 'duplicate'
  | 'conflict'
  | 'gap'
  | 'regress'
  | 'absent';

/** One agent's part of a generated checkpoint: resolved against the run so far. */
export interface OutcomeSpec {
  readonly kind: OutcomeKind;
  readonly value: number;
  readonly pick: number;
}

export const outcomeSpecArbitrary = fc.record({
  kind: fc.oneof(
    { weight: 8, arbitrary: fc.constant<OutcomeKind>('valid') },
    {
      weight: 1,
      arbitrary: fc.constantFrom<OutcomeKind>(
        'invalid',
        'missingId',
        'duplicate',
        'conflict',
        'gap',
        'regress',
        'absent',
      ),
    },
  ),
  value: fc.constantFrom(0, 0.25, 0.5, 0.75, 1),
  pick: fc.nat(),
});

/** One generated checkpoint: a spec per agent slot and a shuffle seed. */
export const checkpointSpecArbitrary = fc.record({
  specs: fc.array(outcomeSpecArbitrary, { minLength: 3, maxLength: 3 }),
  shuffle: fc.nat(),
});
export type CheckpointSpec = { specs: OutcomeSpec[]; shuffle: number };

/** Only valid and invalid outcomes in order: never rejected. */
export const acceptableCheckpointSpecArbitrary = fc.record({
  specs: fc.array(
    fc.record({
      kind: fc.constantFrom<OutcomeKind>('valid', 'valid', 'valid', 'invalid', 'missingId'),
      value: fc.constantFrom(0, 0.25, 0.5, 0.75, 1),
      pick: fc.nat(),
    }),
    { minLength: 3, maxLength: 3 },
  ),
  shuffle: fc.nat(),
});

/** What the driver remembers: the outcomes each agent had recorded. */
export interface RunMemory {
  readonly recorded: Map<string, EvaluationOutcome[]>;
  readonly firstEpisode: number;
}

export function newMemory(firstEpisode = 0): RunMemory {
  return { recorded: new Map(), firstEpisode };
}

/** Turn a checkpoint spec into concrete outcomes for `state`'s agents. */
export function materialize(
  state: TerminationState,
  memory: RunMemory,
  spec: CheckpointSpec,
): EvaluationOutcome[] {
  const outcomes: EvaluationOutcome[] = [];
  state.config.agentNames.forEach((agentName, slot) => {
    const one = spec.specs[slot] ?? { kind: 'valid', value: 0.5, pick: 0 };
    const last = state.agents[agentName]?.lastEvaluation ?? null;
    const next = last === null ? memory.firstEpisode : last + 1;
    const recorded = memory.recorded.get(agentName) ?? [];
    const fresh = (
      episode: number,
      value: unknown,
      id = `${agentName}-e${episode}`,
    ): EvaluationOutcome =>
      ({
        agentName,
        evaluationId: id,
        evaluationEpisode: episode,
        metrics: { objective: value },
      }) as EvaluationOutcome;
    const old = recorded.length === 0 ? undefined : recorded[one.pick % recorded.length];
    switch (one.kind) {
      case 'absent':
        return;
      case 'invalid':
        outcomes.push(fresh(next, [Number.NaN, true, undefined][one.pick % 3]));
        return;
      case 'missingId':
        outcomes.push(fresh(next, one.value, ''));
        return;
      case 'duplicate':
        outcomes.push(old ?? fresh(next, one.value));
        return;
      case 'conflict':
        outcomes.push(
          old === undefined ? fresh(next, one.value) : { ...old, metrics: { objective: 7 } },
        );
        return;
      case 'gap':
        outcomes.push(fresh(next + 1 + (one.pick % 3), one.value, `${agentName}-gap${one.pick}`));
        return;
      case 'regress':
        outcomes.push(fresh(next - 1 - (one.pick % 3), one.value, `${agentName}-back${one.pick}`));
        return;
      default:
        outcomes.push(fresh(next, one.value));
    }
  });
  const shift = outcomes.length === 0 ? 0 : spec.shuffle % outcomes.length;
  return [...outcomes.slice(shift), ...outcomes.slice(0, shift)];
}

/** Remember the outcomes a decision recorded. */
export function remember(
  memory: RunMemory,
  outcomes: readonly EvaluationOutcome[],
  decision: CheckpointDecision,
): void {
  for (const report of decision.report.agents) {
    if (report.status !== 'accepted' && report.status !== 'invalid') continue;
    if (report.evaluationId === null) continue;
    const sent = outcomes.find((item) => item.agentName === report.agentName);
    if (sent === undefined) continue;
    const list = memory.recorded.get(report.agentName) ?? [];
    list.push(sent);
    memory.recorded.set(report.agentName, list);
  }
}
