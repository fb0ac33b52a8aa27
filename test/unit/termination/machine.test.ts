import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  type AgentRulesInput,
  type TerminationAgentsInput,
  TerminationConfigError,
} from '../../../src/domain/termination/index.js';
import {
  type EvaluationTerminationEmitted,
  type EvaluationTerminationInput,
  evaluationTerminationMachine,
  terminationFlow$,
} from '../../../src/machines/evaluationTermination.js';
import { outcome, successRule } from '../../support/terminationRules.js';

// the fixture's rules are loosely typed so that other tests can spoil them; these are valid
const sac = { success: successRule({ consecutive: 1, min_evaluations: 2 }) } as AgentRulesInput;
const agents: TerminationAgentsInput = { SAC: sac };

function started(input: EvaluationTerminationInput = { agents }) {
  const actor = createActor(evaluationTerminationMachine, { input });
  const emitted: EvaluationTerminationEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.subscribe({ error: () => {} });
  actor.start();
  return { actor, emitted };
}

describe('evaluationTerminationMachine', () => {
  it('accepts checkpoints, emits flow after each, and ends in success', () => {
    const { actor, emitted } = started();
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 0, 0.9)] });
    expect(actor.getSnapshot().value).toBe('active');
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 1, 0.9)] });
    expect(emitted.map((event) => event.type)).toEqual([
      'checkpoint.accepted',
      'flow',
      'checkpoint.accepted',
      'flow',
    ]);
    expect(emitted[3]).toEqual({ type: 'flow', control: 'STOP_PHASE', reason: 'success' });
    expect(emitted[2]).toMatchObject({
      decision: {
        control: 'STOP_PHASE',
        reason: 'success',
        report: {
          checkpoint: 'applied',
          agents: [{ agentName: 'SAC', status: 'accepted', successStreak: 2, validEvaluations: 2 }],
        },
      },
    });
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('success');
    expect(snapshot.status).toBe('done');
    expect(snapshot.output).toEqual({ reason: 'success' });
    expect(snapshot.context.reason).toBe('success');
  });

  it('keeps the context and stays alive after a rejected checkpoint', () => {
    const { actor, emitted } = started();
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 0, 0.9)] });
    const before = actor.getSnapshot().context;
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 0, 0.1)] });
    expect(actor.getSnapshot().context).toBe(before);
    expect(emitted.slice(2)).toEqual([
      {
        type: 'checkpoint.rejected',
        error: {
          name: 'ConflictingDuplicateError',
          code: 'CONFLICTING_DUPLICATE',
          message: 'agent "SAC": evaluation "SAC-0" was already recorded with different data',
        },
      },
      { type: 'flow', control: 'CONTINUE', reason: null },
    ]);
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 1, 0.9)] });
    expect(actor.getSnapshot().value).toBe('success');
  });

  it('emits checkpoint.ignored for an incomplete checkpoint', () => {
    const { actor, emitted } = started({ agents: { A: sac, B: sac } });
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('A', 0, 0.9)] });
    expect(emitted[0]).toMatchObject({
      type: 'checkpoint.ignored',
      reason: 'incomplete checkpoint: no outcome for B',
    });
    expect(emitted[1]).toEqual({ type: 'flow', control: 'CONTINUE', reason: null });
  });

  it('ends in maxEpisodes when the cap is reached, and restarts cap-free evaluation episodes', () => {
    const capped = started({ agents, phase: { mode: 'train', evaluate_every: 2, episodes: 3 } });
    capped.actor.send({
      type: 'episode.ended',
      mode: 'train',
      completedEpisodes: 3,
      environmentDone: true,
    });
    expect(capped.actor.getSnapshot().value).toBe('maxEpisodes');
    expect(capped.actor.getSnapshot().output).toEqual({ reason: 'max_episodes' });
    const capFree = started({ agents, phase: { mode: 'train', evaluate_every: 2 } });
    capFree.actor.send({
      type: 'episode.ended',
      mode: 'evaluate',
      completedEpisodes: 3,
      environmentDone: true,
    });
    expect(capFree.emitted).toEqual([{ type: 'flow', control: 'RESTART', reason: null }]);
    expect(capFree.actor.getSnapshot().value).toBe('active');
  });

  it.each([
    ['cancel', 'cancelled', 'cancelled'],
    ['fail', 'failed', 'failed'],
  ] as const)('ends on %s with reason %s', (type, state, reason) => {
    const { actor, emitted } = started();
    actor.send({ type });
    expect(actor.getSnapshot().value).toBe(state);
    expect(actor.getSnapshot().output).toEqual({ reason });
    expect(emitted).toEqual([{ type: 'flow', control: 'STOP_PHASE', reason }]);
  });

  it('reports a bad rule set or phase as a TerminationConfigError when created', () => {
    for (const input of [
      { agents: { SAC: {} } },
      { agents, phase: { worker: 2, evaluate_every: 1 } },
    ]) {
      const actor = createActor(evaluationTerminationMachine, { input });
      const snapshot = actor.getSnapshot();
      expect(snapshot.status).toBe('error');
      expect(snapshot.error).toBeInstanceOf(TerminationConfigError);
    }
  });

  it('persists a plain JSON snapshot that restores to the same behaviour', () => {
    const { actor } = started();
    actor.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 0, 0.9)] });
    const persisted = JSON.parse(JSON.stringify(actor.getPersistedSnapshot()));
    const restored = createActor(evaluationTerminationMachine, {
      snapshot: persisted,
      input: { agents },
    });
    restored.start();
    restored.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 0, 0.9)] });
    expect(restored.getSnapshot().value).toBe('active');
    restored.send({ type: 'evaluation.checkpoint', outcomes: [outcome('SAC', 1, 0.9)] });
    expect(restored.getSnapshot().output).toEqual({ reason: 'success' });
  });

  it('streams flow events through terminationFlow$ and completes at the final state', async () => {
    const { actor } = started();
    const flows = firstValueFrom(terminationFlow$(actor).pipe(toArray()));
    actor.send({
      type: 'episode.ended',
      mode: 'train',
      completedEpisodes: 1,
      environmentDone: false,
    });
    actor.send({ type: 'cancel' });
    await expect(flows).resolves.toEqual([
      { type: 'flow', control: 'CONTINUE', reason: null },
      { type: 'flow', control: 'STOP_PHASE', reason: 'cancelled' },
    ]);
  });
});
