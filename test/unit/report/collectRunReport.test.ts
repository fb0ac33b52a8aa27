import { afterEach, describe, expect, it } from 'vitest';
import type { RunStore } from '../../../src/ports/store/store.js';
import { RunNotFoundError } from '../../../src/ports/store/storeErrors.js';
import { collectRunReport } from '../../../src/report/collectRunReport.js';
import { storedLineRun } from './lineRuns.js';

let store: RunStore | undefined;
afterEach(() => store?.close());

describe('collectRunReport on a run that succeeds', () => {
  it('gives the success evidence of the decisive checkpoint in one line', async () => {
    const run = await storedLineRun({ meta: true, episodes: 10 });
    store = run.store;
    const [phase] = collectRunReport(store, run.runId).phases;
    expect(phase?.termination.reason).toBe('success');
    expect(phase?.termination.summary).toBe(
      'success: operator objective ≥ 0.8 for 2 consecutive evaluations (0.9, 0.95), 4 valid evaluations ≥ min 2',
    );
    expect(phase?.termination.decisiveCheckpoint).toMatchObject({
      checkpointIndex: 3,
      afterEpisode: 12,
      agents: [{ agentName: 'operator', successStreak: 2, validEvaluations: 4 }],
    });
  });

  it('charts the metric per checkpoint with the success threshold and the best value', async () => {
    const run = await storedLineRun({ episodes: 10 });
    store = run.store;
    const [phase] = collectRunReport(store, run.runId).phases;
    expect(phase?.metrics).toEqual([
      {
        agentName: 'operator',
        metric: 'objective',
        points: [
          { checkpointIndex: 0, afterEpisode: 3, value: 0.1 },
          { checkpointIndex: 1, afterEpisode: 6, value: 0.5 },
          { checkpointIndex: 2, afterEpisode: 9, value: 0.9 },
          { checkpointIndex: 3, afterEpisode: 12, value: 0.95 },
        ],
        threshold: { value: 0.8, direction: 'greater_equal' },
        best: { checkpointIndex: 3, afterEpisode: 12, value: 0.95 },
        constant: null,
        smoothed: null,
      },
    ]);
  });

  it('tells training and evaluation episodes apart, in episode order', async () => {
    const run = await storedLineRun({ episodes: 10 });
    store = run.store;
    const returns = collectRunReport(store, run.runId).phases[0]?.episodeReturns ?? [];
    expect(returns.map((entry) => entry.episode)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(returns.filter((entry) => entry.evaluation).map((entry) => entry.episode)).toEqual([
      3, 6, 9, 12,
    ]);
    expect(returns.every((entry) => Number.isFinite(entry.episodeReturn))).toBe(true);
  });

  it('lists the meta decision as baseline and candidate per selector UID', async () => {
    const run = await storedLineRun({ meta: true, episodes: 10 });
    store = run.store;
    expect(collectRunReport(store, run.runId).phases[0]?.metaDecisions).toEqual([
      {
        startRequest: 1,
        firstEpisode: 1,
        environmentUid: 'line',
        agentName: 'designer',
        selectors: [
          // the definition interface's order (the scenario's), not sorted
          { uid: 'line.definition.target', baseline: 1.5, candidate: 0.25 },
          { uid: 'line.definition.gain', baseline: 2, candidate: 0.25 },
        ],
      },
    ]);
  });

  it('keeps the run metadata without the run file text', async () => {
    const run = await storedLineRun({ episodes: 10 });
    store = run.store;
    const report = collectRunReport(store, run.runId);
    expect(report.run).toMatchObject({
      runId: run.runId,
      uid: 'line-run',
      seed: 7,
      status: 'succeeded',
      runFilePath: '/virtual/line.yaml',
      error: null,
    });
    expect(report.rulesNote).toBeNull();
    expect(Object.keys(report.run)).not.toContain('runFile');
  });
});

describe('collectRunReport on other endings', () => {
  it('gives the plateau evidence: rule, best, patience and the values that did not improve', async () => {
    const run = await storedLineRun({
      episodes: 30,
      success: false,
      plateau: true,
      metrics: [0.1, 0.5, 0.6, 0.6, 0.6, 0.6],
    });
    store = run.store;
    const [phase] = collectRunReport(store, run.runId).phases;
    expect(phase?.termination.summary).toBe(
      'plateau: operator objective (maximize, window 1) did not improve by 0.01 on its best 0.6 ' +
        'for 2 evaluations (0.6, 0.6), patience 2; 5 valid evaluations ≥ min 2',
    );
    expect(phase?.termination.decisiveCheckpoint?.checkpointIndex).toBe(4);
    expect(phase?.metrics[0]?.threshold).toBeNull();
    expect(phase?.metrics[0]?.best).toEqual({ checkpointIndex: 2, afterEpisode: 9, value: 0.6 });
  });

  it("carries the plateau rule's smoothed values, the ones the stored decisions hold", async () => {
    const run = await storedLineRun({
      episodes: 30,
      success: false,
      plateau: true,
      metrics: [0.1, 0.5, 0.6, 0.6, 0.6, 0.6],
    });
    store = run.store;
    const [phase] = collectRunReport(store, run.runId).phases;
    const stored = store.checkpoints(run.runId, 0).map((checkpoint) => {
      const decision = checkpoint.decision as {
        report: { agents: Array<{ smoothedValue: number }> };
      };
      return decision.report.agents[0]?.smoothedValue;
    });
    const smoothed = phase?.metrics[0]?.smoothed;
    expect(smoothed?.points.map((point) => point.value)).toEqual(stored);
    expect(smoothed?.best).toEqual({ checkpointIndex: 2, afterEpisode: 9, value: 0.6 });
  });

  it('has no study answer for a run with one meta decision', async () => {
    const run = await storedLineRun({ meta: true, episodes: 10 });
    store = run.store;
    expect(collectRunReport(store, run.runId).study).toBeNull();
  });

  it('says a phase without evaluation rules ran into its episode cap', async () => {
    const run = await storedLineRun({ episodes: 3, condition: 'none' });
    store = run.store;
    const report = collectRunReport(store, run.runId);
    expect(report.rulesNote).toBe(
      'the run has no evaluation-aware termination rules (run_config.condition.params.agents)',
    );
    expect(report.phases[0]?.termination).toEqual({
      reason: 'max_episodes',
      summary:
        'max_episodes: the phase reached its episode cap after 3 training and 1 evaluation episodes',
      decisiveCheckpoint: null,
    });
  });

  it('throws RunNotFoundError for a run the store does not have', async () => {
    const run = await storedLineRun({ episodes: 2, condition: 'none' });
    store = run.store;
    expect(() => collectRunReport(run.store, 'absent-run')).toThrow(RunNotFoundError);
  });
});
