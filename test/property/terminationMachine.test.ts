import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { type AnyActorRef, createActor } from 'xstate';
import type {
  EvaluationOutcome,
  TerminationAgentsInput,
} from '../../src/domain/termination/index.js';
import {
  type EvaluationTerminationEmitted,
  type EvaluationTerminationEvent,
  type EvaluationTerminationInput,
  evaluationTerminationMachine,
} from '../../src/machines/evaluationTermination.js';
import {
  checkpointSpecArbitrary,
  type OutcomeSpec,
  rawRulesArbitrary,
} from '../unit/termination/arbitraries.js';

type Raw = Record<string, Record<string, number | string> | undefined>;
type Flow = { control: 'CONTINUE' | 'RESTART' | 'STOP_PHASE'; reason: string | null };

/**
 * The seed, written the obvious way: full history per agent, canonical JSON
 * strings for duplicate detection, and a copy of everything before a checkpoint
 * so that a rejection can put it back.
 */
class ReferenceModel {
  reason: string | null = null;
  agents = new Map<
    string,
    {
      last: number | null;
      seen: Map<string, string>;
      history: number[];
      streak: number;
      patience: number;
      best: number | null;
      sent: Record<string, unknown>[];
    }
  >();

  constructor(
    readonly rules: Record<string, Raw>,
    readonly cap: number | null,
  ) {
    for (const name of Object.keys(rules).sort()) {
      this.agents.set(name, {
        last: null,
        seen: new Map(),
        history: [],
        streak: 0,
        patience: 0,
        best: null,
        sent: [],
      });
    }
  }

  checkpoint(outcomes: Record<string, unknown>[]): { emitted: string[]; flow: Flow } {
    const byAgent = new Map<string, Record<string, unknown>>();
    for (const outcome of outcomes) {
      const name = outcome.agentName as string;
      if (!this.agents.has(name)) continue;
      if (byAgent.has(name)) return this.rejected();
      byAgent.set(name, outcome);
    }
    if (byAgent.size !== this.agents.size) {
      for (const [name, agent] of this.agents) if (!byAgent.has(name)) agent.streak = 0;
      return {
        emitted: ['checkpoint.ignored', 'flow'],
        flow: { control: 'CONTINUE', reason: null },
      };
    }
    const saved = structuredClone(this.agents);
    try {
      for (const [name, agent] of this.agents) this.record(name, agent, byAgent.get(name)!);
    } catch {
      this.agents = saved;
      return this.rejected();
    }
    if (
      this.every(
        'success',
        (rule, agent) =>
          agent.history.length >= (rule.min_evaluations as number) &&
          agent.streak >= (rule.consecutive as number),
      )
    ) {
      this.reason = 'success';
    } else if (
      this.every('plateau', (rule, agent) => agent.patience >= (rule.patience as number))
    ) {
      this.reason = 'plateau';
    }
    return {
      emitted: ['checkpoint.accepted', 'flow'],
      flow:
        this.reason === null
          ? { control: 'CONTINUE', reason: null }
          : { control: 'STOP_PHASE', reason: this.reason },
    };
  }

  episode(mode: string, completedEpisodes: number, environmentDone: boolean): Flow {
    if (this.cap !== null && completedEpisodes >= this.cap) {
      this.reason = 'max_episodes';
      return { control: 'STOP_PHASE', reason: 'max_episodes' };
    }
    if (mode === 'evaluate' && this.cap === null && environmentDone)
      return { control: 'RESTART', reason: null };
    return { control: environmentDone ? 'RESTART' : 'CONTINUE', reason: null };
  }

  private rejected() {
    return {
      emitted: ['checkpoint.rejected', 'flow'],
      flow: { control: 'CONTINUE' as const, reason: null },
    };
  }

  private every(
    category: 'success' | 'plateau',
    test: (
      rule: Record<string, number | string>,
      agent: ReturnType<ReferenceModel['agent']>,
    ) => boolean,
  ): boolean {
    return [...this.agents].every(([name, agent]) => {
      const rule = this.rules[name]?.[category];
      return rule !== undefined && test(rule, agent);
    });
  }

  agent(name: string) {
    return this.agents.get(name)!;
  }

  private record(
    name: string,
    agent: ReturnType<ReferenceModel['agent']>,
    outcome: Record<string, unknown>,
  ): void {
    const id = outcome.evaluationId;
    if (typeof id !== 'string' || id === '') {
      agent.streak = 0;
      return;
    }
    const metrics = outcome.metrics as Record<string, unknown>;
    const canonical = JSON.stringify([
      id,
      outcome.evaluationEpisode,
      null,
      null,
      Object.keys(metrics)
        .sort()
        .map((key) => [key, tag(metrics[key])]),
    ]);
    const previous = agent.seen.get(id);
    if (previous !== undefined) {
      if (previous !== canonical) throw new Error('conflict');
      return;
    }
    const episode = outcome.evaluationEpisode as number;
    if (
      !Number.isInteger(episode) ||
      episode < 0 ||
      (agent.last !== null && episode !== agent.last + 1)
    )
      throw new Error('order');
    agent.seen.set(id, canonical);
    agent.sent.push(outcome);
    agent.last = episode;
    const value = metrics.objective;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      agent.streak = 0;
      return;
    }
    agent.history.push(value);
    const success = this.rules[name]?.success;
    const plateau = this.rules[name]?.plateau;
    if (success !== undefined) {
      const ok =
        success.direction === 'greater_equal'
          ? value >= (success.threshold as number)
          : value <= (success.threshold as number);
      agent.streak = ok ? agent.streak + 1 : 0;
    }
    if (plateau !== undefined && agent.history.length >= (plateau.window as number)) {
      const recent = agent.history.slice(-(plateau.window as number));
      const mean = recent.reduce((sum, item) => sum + item, 0) / recent.length;
      const delta = plateau.min_delta as number;
      const improved =
        agent.best === null ||
        (plateau.direction === 'maximize'
          ? mean >= agent.best + delta
          : mean <= agent.best - delta);
      if (improved) {
        agent.best = mean;
        agent.patience = 0;
      } else if (agent.history.length >= (plateau.min_evaluations as number)) {
        agent.patience += 1;
      }
    }
  }
}

function tag(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? '__nan__' : value > 0 ? '__inf__' : '__-inf__';
  return value;
}

/** Outcomes for a spec, from what the model knows (its own seen/last). */
function outcomesFor(
  model: ReferenceModel,
  specs: readonly OutcomeSpec[],
): Record<string, unknown>[] {
  const outcomes: Record<string, unknown>[] = [];
  [...model.agents].forEach(([agentName, agent], slot) => {
    const spec = specs[slot] ?? { kind: 'valid', value: 0.5, pick: 0 };
    const next = agent.last === null ? 0 : agent.last + 1;
    const fresh = (episode: number, value: unknown, id = `${agentName}-e${episode}`) => ({
      agentName,
      evaluationId: id,
      evaluationEpisode: episode,
      metrics: { objective: value },
    });
    const old = agent.sent.length === 0 ? undefined : agent.sent[spec.pick % agent.sent.length];
    switch (spec.kind) {
      case 'absent':
        return;
      case 'invalid':
        outcomes.push(fresh(next, [Number.NaN, true, undefined][spec.pick % 3]));
        return;
      case 'missingId':
        outcomes.push(fresh(next, spec.value, ''));
        return;
      case 'duplicate':
        outcomes.push(old ?? fresh(next, spec.value));
        return;
      case 'conflict':
        outcomes.push(
          old === undefined ? fresh(next, spec.value) : { ...old, metrics: { objective: 9 } },
        );
        return;
      case 'gap':
        outcomes.push(fresh(next + 2, spec.value, `${agentName}-gap`));
        return;
      case 'regress':
        outcomes.push(fresh(next - 1, spec.value, `${agentName}-back`));
        return;
      default:
        outcomes.push(fresh(next, spec.value));
    }
  });
  return outcomes;
}

interface Real {
  actor: AnyActorRef & ReturnType<typeof createActor<typeof evaluationTerminationMachine>>;
  emitted: EvaluationTerminationEmitted[];
  input: EvaluationTerminationInput;
}

function attach(real: Real, actor: Real['actor']): void {
  real.actor = actor;
  actor.on('*', (event) => real.emitted.push(event));
  actor.subscribe({ error: () => {} });
  actor.start();
}

const stateOfReason: Record<string, string> = {
  success: 'success',
  plateau: 'plateau',
  max_episodes: 'maxEpisodes',
  cancelled: 'cancelled',
  failed: 'failed',
};

function expectSameAsModel(
  model: ReferenceModel,
  real: Real,
  expected: { emitted: string[]; flow: Flow } | null,
): void {
  const emitted = real.emitted.splice(0);
  if (expected === null) {
    expect(emitted).toEqual([]);
  } else {
    expect(emitted.map((event) => event.type)).toEqual(expected.emitted);
    expect(emitted.at(-1)).toEqual({ type: 'flow', ...expected.flow });
  }
  const snapshot = real.actor.getSnapshot();
  expect(snapshot.context.reason).toBe(model.reason);
  for (const [name, agent] of model.agents) {
    expect(snapshot.context.termination.agents[name]).toMatchObject({
      lastEvaluation: agent.last,
      successStreak: agent.streak,
      plateauPatience: agent.patience,
      bestMetric: agent.best,
      validEvaluations: agent.history.length,
    });
  }
  expect(snapshot.value).toBe(model.reason === null ? 'active' : stateOfReason[model.reason]);
}

class CheckpointCommand implements fc.Command<ReferenceModel, Real> {
  constructor(readonly specs: OutcomeSpec[]) {}
  check = (model: Readonly<ReferenceModel>) => model.reason === null;
  run(model: ReferenceModel, real: Real): void {
    const outcomes = outcomesFor(model, this.specs);
    const done = model.reason !== null;
    const expected = done ? null : model.checkpoint(outcomes);
    real.actor.send({ type: 'evaluation.checkpoint', outcomes });
    expectSameAsModel(model, real, expected);
  }
  toString = () => `checkpoint(${this.specs.map((spec) => spec.kind).join(',')})`;
}

class EpisodeCommand implements fc.Command<ReferenceModel, Real> {
  constructor(
    readonly mode: string,
    readonly completedEpisodes: number,
    readonly environmentDone: boolean,
  ) {}
  check = (model: Readonly<ReferenceModel>) => model.reason === null;
  run(model: ReferenceModel, real: Real): void {
    const done = model.reason !== null;
    const flow = done
      ? null
      : model.episode(this.mode, this.completedEpisodes, this.environmentDone);
    const event: EvaluationTerminationEvent = {
      type: 'episode.ended',
      mode: this.mode,
      completedEpisodes: this.completedEpisodes,
      environmentDone: this.environmentDone,
    };
    real.actor.send(event);
    expectSameAsModel(model, real, flow === null ? null : { emitted: ['flow'], flow });
  }
  toString = () => `episode(${this.mode},${this.completedEpisodes},${this.environmentDone})`;
}

class StopCommand implements fc.Command<ReferenceModel, Real> {
  constructor(readonly type: 'cancel' | 'fail') {}
  check = (model: Readonly<ReferenceModel>) => model.reason === null;
  run(model: ReferenceModel, real: Real): void {
    const done = model.reason !== null;
    if (!done) model.reason = this.type === 'cancel' ? 'cancelled' : 'failed';
    real.actor.send({ type: this.type });
    expectSameAsModel(
      model,
      real,
      done ? null : { emitted: ['flow'], flow: { control: 'STOP_PHASE', reason: model.reason } },
    );
  }
  toString = () => this.type;
}

class PersistAndRestoreCommand implements fc.Command<ReferenceModel, Real> {
  check = (model: Readonly<ReferenceModel>) => model.reason === null;
  run(model: ReferenceModel, real: Real): void {
    const persisted = JSON.parse(JSON.stringify(real.actor.getPersistedSnapshot()));
    real.actor.stop();
    attach(
      real,
      createActor(evaluationTerminationMachine, { snapshot: persisted, input: real.input }),
    );
    expectSameAsModel(model, real, null);
  }
  toString = () => 'persistAndRestore';
}

const checkpointCommand = checkpointSpecArbitrary.map(({ specs }) => new CheckpointCommand(specs));
const commandsArbitrary = fc.commands(
  [
    // fc.commands picks uniformly: repeat checkpoints so runs last long enough to plateau.
    ...Array.from({ length: 10 }, () => checkpointCommand),
    fc
      .tuple(fc.constantFrom('train', 'evaluate'), fc.integer({ min: 1, max: 40 }), fc.boolean())
      .map(([mode, completed, done]) => new EpisodeCommand(mode, completed, done)),
    fc.constantFrom('cancel', 'fail').map((type) => new StopCommand(type as 'cancel' | 'fail')),
    fc.constant(new PersistAndRestoreCommand()),
  ],
  { maxCommands: 40 },
);

describe('evaluationTerminationMachine properties', () => {
  test.prop(
    [
      rawRulesArbitrary,
      fc.option(fc.integer({ min: 20, max: 60 }), { nil: null }),
      commandsArbitrary,
    ],
    { numRuns: 80 },
  )(
    'the machine behaves like a plain reference model of the seed (model-based)',
    (rules, cap, commands) => {
      const input = {
        // generated raw rules, some invalid on purpose: the machine must reject those itself
        agents: rules.agents as TerminationAgentsInput,
        phase: { mode: 'train', evaluate_every: 1, episodes: cap },
      };
      const real: Real = { actor: undefined as never, emitted: [], input };
      attach(real, createActor(evaluationTerminationMachine, { input }));
      fc.modelRun(
        () => ({ model: new ReferenceModel(rules.agents as Record<string, Raw>, cap), real }),
        commands,
      );
    },
  );

  test.prop(
    [
      rawRulesArbitrary,
      fc.array(
        fc.oneof(
          { weight: 6, arbitrary: checkpointSpecArbitrary },
          { weight: 1, arbitrary: fc.constantFrom('cancel', 'episode') },
        ),
        { maxLength: 20 },
      ),
      fc.nat(),
    ],
    { numRuns: 60 },
  )(
    'a persisted machine snapshot restored at any point continues exactly like the original',
    (rules, script, cut) => {
      const input = {
        // generated raw rules, some invalid on purpose: the machine must reject those itself
        agents: rules.agents as TerminationAgentsInput,
        phase: { mode: 'train', evaluate_every: 1, episodes: 12 },
      };
      const model = new ReferenceModel(rules.agents as Record<string, Raw>, 12);
      const events: EvaluationTerminationEvent[] = script.map((item, index) => {
        if (item === 'cancel') return { type: 'cancel' };
        if (item === 'episode')
          return {
            type: 'episode.ended',
            mode: 'train',
            completedEpisodes: index,
            environmentDone: true,
          };
        const outcomes = outcomesFor(model, item.specs);
        if (model.reason === null) model.checkpoint(outcomes);
        // raw outcomes, some invalid on purpose
        return {
          type: 'evaluation.checkpoint',
          outcomes: outcomes as unknown as EvaluationOutcome[],
        };
      });
      const split = cut % (events.length + 1);
      const original: Real = { actor: undefined as never, emitted: [], input };
      attach(original, createActor(evaluationTerminationMachine, { input }));
      for (const event of events.slice(0, split)) {
        if (original.actor.getSnapshot().status !== 'done') original.actor.send(event);
      }
      const restored: Real = { actor: undefined as never, emitted: [], input };
      attach(
        restored,
        createActor(evaluationTerminationMachine, {
          snapshot: JSON.parse(JSON.stringify(original.actor.getPersistedSnapshot())),
          input,
        }),
      );
      original.emitted.length = 0;
      for (const event of events.slice(split)) {
        if (original.actor.getSnapshot().status === 'done') break;
        original.actor.send(event);
        restored.actor.send(event);
        expect(restored.emitted.splice(0)).toEqual(original.emitted.splice(0));
      }
      expect(restored.actor.getPersistedSnapshot()).toEqual(original.actor.getPersistedSnapshot());
    },
  );
});
