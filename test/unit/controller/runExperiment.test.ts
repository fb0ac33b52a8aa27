import { beforeEach, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import {
  fakeBuiltins,
  LineEnvironment,
  resetFakes,
  ScriptedBrain,
} from '../../support/fakeComponents.js';
import { type LineRunOptions, lineRunFile } from './runs.js';

async function run(
  options: LineRunOptions,
  extra: { signal?: AbortSignal; store?: RunStore } = {},
) {
  const text = lineRunFile(options);
  const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
  const store = extra.store ?? createMemoryStore();
  const summary = await runExperiment(spec, {
    store,
    builtins: fakeBuiltins,
    runFileText: text,
    ...(extra.signal ? { signal: extra.signal } : {}),
  });
  return { spec, store, summary };
}

function brain(name: string): ScriptedBrain {
  const found = ScriptedBrain.instances.filter((instance) => instance.name === name);
  const last = found.at(-1);
  if (last === undefined) throw new Error(`no brain ${name}`);
  return last;
}

beforeEach(() => resetFakes());

describe('the meta profile', () => {
  it('runs the meta turn before any environment starts, and the meta agent acts exactly once', async () => {
    const { summary } = await run({ meta: true, episodes: 6, success: false, plateau: true });
    expect(summary.status).toBe('succeeded');
    const log = LineEnvironment.log;
    const firstStart = log.indexOf('line.start');
    expect(firstStart).toBeGreaterThan(-1);
    expect(log.indexOf('designer.setup')).toBeLessThan(firstStart);
    expect(log.slice(0, firstStart).filter((entry) => entry === 'line.step')).toHaveLength(0);
    expect(brain('designer').acts).toBe(1);
  });

  it('starts the environment from the candidate and leaves the stored configuration unchanged', async () => {
    const { spec, summary } = await run({ meta: true, episodes: 2, condition: 'none' });
    const decision = summary.phases[0]?.metaDecision;
    expect(decision?.baseline).toEqual({
      'line.definition.target': 1.5,
      'line.definition.gain': 2,
    });
    expect(decision?.candidate).toEqual({
      'line.definition.target': 0.25,
      'line.definition.gain': 0.25,
    });
    expect(decision?.patch.operations.map((operation) => operation.path)).toEqual([
      '/target',
      '/gain',
    ]);
    expect(spec.phases[0]?.environments[0]?.params.scenario).toEqual({
      target: 1.5,
      gain: 2,
      label: 'fixed',
    });
  });

  it('never reruns the meta turn on an in-place restart', async () => {
    await run({ meta: true, episodes: 5, condition: 'none', evaluateEvery: 100 });
    const log = LineEnvironment.log;
    expect(log.filter((entry) => entry === 'line.start')).toHaveLength(1);
    expect(log.filter((entry) => entry === 'line.reset')).toHaveLength(4);
    expect(brain('designer').acts).toBe(1);
  });

  it('hands the sum of the operating rewards to the meta agent as one `.return` reward', async () => {
    await run({ meta: true, episodes: 3, condition: 'none', maxSteps: 3 });
    const operator = brain('operator');
    const designer = brain('designer');
    expect(designer.terminal).toHaveLength(3);
    designer.terminal.forEach((update, index) => {
      expect(Object.keys(update.rewards)).toEqual(['operator.return']);
      expect(update.rewards['operator.return']).toBeCloseTo(operator.returns[index] as number, 12);
    });
    // the operator moves x by 0.5 a step; the patched target is 0.25
    expect(operator.returns[0]).toBeCloseTo(-(0.25 ** 2 + 0.75 ** 2 + 1.25 ** 2), 12);
  });

  it('fails the phase before the operating environment exists when the meta agent fails to act', async () => {
    const text = lineRunFile({ meta: true, episodes: 2, condition: 'none' }).replace(
      'params: { action: 0.25 }',
      'params: { action: 0.25, fail_act: true }',
    );
    const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
    const store = createMemoryStore();
    const summary = await runExperiment(spec, { store, builtins: fakeBuiltins, runFileText: text });
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatch(/meta turn failed at acting: designer failed to act/);
    expect(LineEnvironment.log).not.toContain('line.start');
    expect(store.phases(summary.runId)[0]?.terminationReason).toBe('failed');
  });

  it('fails before the operating environment exists when no environment proposes a definition', async () => {
    const text = lineRunFile({ meta: true, episodes: 2, condition: 'none' }).replace(
      '              scenario: { target: 1.5, gain: 2, label: fixed }\n',
      '',
    );
    const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
    const summary = await runExperiment(spec, {
      store: createMemoryStore(),
      builtins: fakeBuiltins,
      runFileText: text,
    });
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatch(/exactly one environment that proposes a non-empty definition/);
    expect(LineEnvironment.log).not.toContain('line.start');
  });
});

describe('episodes and rewards', () => {
  it('rejects a non-finite reward and fails the run', async () => {
    LineEnvironment.rewardOverride = (step) => (step === 2 ? Number.NaN : -1);
    const { summary, store } = await run({ episodes: 3, condition: 'none' });
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatch(
      /reward "line\.reward" for agent "operator" must be a finite scalar/,
    );
    expect(store.getRun(summary.runId).status).toBe('failed');
  });

  it('records every episode with its return and steps', async () => {
    const { summary, store } = await run({
      episodes: 3,
      condition: 'none',
      maxSteps: 2,
      evaluateEvery: 100,
    });
    const episodes = store.episodes(summary.runId);
    expect(episodes.map((episode) => episode.episode)).toEqual([1, 2, 3]);
    expect(episodes.every((episode) => episode.steps === 2)).toBe(true);
    expect(episodes[0]?.episodeReturn).toBeCloseTo(-(1 ** 2) - 0.5 ** 2, 12);
  });

  it('ends an episode when the environment is done', async () => {
    const { summary, store } = await run({
      episodes: 2,
      condition: 'none',
      maxSteps: 10,
      horizon: 3,
      evaluateEvery: 100,
    });
    const episodes = store.episodes(summary.runId);
    expect(episodes.map((episode) => [episode.steps, episode.doneReason])).toEqual([
      [3, 'environment_done'],
      [3, 'environment_done'],
    ]);
  });
});

describe('termination', () => {
  it('ends by success from evaluation checkpoints', async () => {
    const { summary, store } = await run({ metrics: [0.1, 0.5, 0.9, 0.95], episodes: 20 });
    const phase = summary.phases[0];
    expect(phase?.reason).toBe('success');
    expect(phase?.episodes).toBe(8);
    expect(store.checkpoints(summary.runId).map((checkpoint) => checkpoint.status)).toEqual([
      'accepted',
      'accepted',
      'accepted',
      'accepted',
    ]);
    expect(store.phases(summary.runId)[0]?.terminationReason).toBe('success');
  });

  it('ends a cap-free phase by plateau', async () => {
    const { summary } = await run({
      episodes: null,
      success: false,
      plateau: true,
      metrics: [0.5, 0.5, 0.5, 0.5, 0.5],
    });
    expect(summary.phases[0]?.reason).toBe('plateau');
    expect(summary.phases[0]?.checkpoints).toHaveLength(3);
  });

  it('ends by max episodes when the rules never stop it', async () => {
    const { summary } = await run({ metrics: [0.1], episodes: 5 });
    expect(summary.phases[0]?.reason).toBe('max_episodes');
    expect(summary.phases[0]?.episodes).toBe(5);
  });

  it('ends by max episodes without an evaluation condition', async () => {
    const { summary } = await run({ condition: 'none', episodes: 4 });
    expect(summary.phases[0]).toMatchObject({
      reason: 'max_episodes',
      episodes: 4,
      checkpoints: [],
    });
  });

  it('cancels cleanly: the reason is cancelled and the store is flushed', async () => {
    const controller = new AbortController();
    LineEnvironment.rewardOverride = (step) => {
      if (step === 2 && brain('operator').returns.length === 2) controller.abort();
      return -1;
    };
    const { summary, store } = await run(
      { episodes: 50, condition: 'none' },
      { signal: controller.signal },
    );
    expect(summary.status).toBe('cancelled');
    expect(summary.phases[0]?.reason).toBe('cancelled');
    expect(store.getRun(summary.runId).status).toBe('cancelled');
    expect(store.episodes(summary.runId)).toHaveLength(2);
    expect(store.phases(summary.runId)[0]?.status).toBe('cancelled');
  });

  it('rejects a cap-free phase without evaluation rules, naming the YAML path', async () => {
    await expect(run({ condition: 'none', episodes: null })).rejects.toThrow(
      /schedule\[0\]\.train\.phase_config\.episodes: a cap-free phase needs/,
    );
  });
});

describe('phases', () => {
  it('runs the phases in order and carries brain state from one to the next', async () => {
    const { summary, store } = await run({
      testPhase: true,
      metrics: [0.1, 0.2, 0.3],
      episodes: 4,
    });
    expect(summary.phases.map((phase) => [phase.name, phase.mode, phase.episodes])).toEqual([
      ['train', 'train', 4],
      ['test', 'test', 2],
    ]);
    expect(store.phases(summary.runId).map((phase) => phase.status)).toEqual(['done', 'done']);
    // the test phase's brain was loaded with the train phase's state (two evaluations done)
    expect(brain('operator').saveState()).toMatchObject({ evaluations: 2 });
  });
});
