import { describe, expect, it } from 'vitest';
import { parseTerminationConfig } from '../../../src/domain/termination/index.js';
import {
  FuzzInputError,
  formatFuzzReport,
  fuzzTermination,
  parseMetricRange,
  playSequence,
} from '../../../src/fuzz/index.js';
import { plateauRule, successRule } from '../../support/terminationRules.js';

const quick = { runs: 60, seed: 7, maxEvaluations: 20 };

describe('fuzzTermination', () => {
  it('finds a success threshold above the metric range unreachable, and reports a required reason', () => {
    const config = parseTerminationConfig({
      agents: { SAC: { success: successRule({ threshold: 2 }) } },
    });
    const report = fuzzTermination(config, {
      ...quick,
      ranges: [parseMetricRange('objective=0:1')],
      require: ['success'],
    });
    expect(report.reasons[0]).toMatchObject({
      reason: 'success',
      configured: true,
      reachable: false,
      example: null,
      note: 'agent "SAC" needs objective ≥ 2, outside the range 0:1',
    });
    expect(report.unreachableRequired).toEqual(['success']);
    expect(report.forever.possible).toBe(true);
    expect(report.forever.example).toHaveLength(20);
    expect(playSequence(config, report.forever.example!).reason).toBeNull();
  });

  it('finds the minimal plateau: patience 2, min_evaluations 3, window 1 takes 4 evaluations', () => {
    // Evaluation 1 sets the best; 2 does not improve but is below min_evaluations;
    // 3 and 4 do not improve: patience 1, then 2 = plateau.
    const config = parseTerminationConfig({ agents: { SAC: { plateau: plateauRule() } } });
    const report = fuzzTermination(config, quick);
    const plateau = report.reasons.find((finding) => finding.reason === 'plateau')!;
    expect(plateau).toMatchObject({
      reachable: true,
      fewestEvaluations: 4,
      lowerBound: 4,
      provenMinimal: true,
    });
    expect(plateau.example).toHaveLength(4);
    const played = playSequence(config, plateau.example!);
    expect(played).toMatchObject({ reason: 'plateau', evaluations: 4 });
    expect(playSequence(config, plateau.example!.slice(0, 3)).reason).toBeNull();
  });

  it('finds the shortest success sequence within the given metric range', () => {
    const config = parseTerminationConfig({
      agents: { SAC: { success: successRule({ threshold: 8 }) } },
    });
    const report = fuzzTermination(config, {
      ...quick,
      ranges: [parseMetricRange('objective=0:10')],
    });
    const success = report.reasons[0]!;
    expect(success).toMatchObject({ reachable: true, fewestEvaluations: 3, provenMinimal: true });
    const values = success.example!.map((evaluation) => evaluation.SAC!.objective!);
    expect(values.slice(1).every((value) => value >= 8)).toBe(true);
    expect(values.every((value) => value >= 0 && value <= 10)).toBe(true);
  });

  it('needs both agents to succeed at once, and every example stays within the range', () => {
    const config = parseTerminationConfig({
      agents: {
        A: { success: successRule({ consecutive: 1, min_evaluations: 1 }) },
        B: { success: successRule({ consecutive: 3, min_evaluations: 1 }) },
      },
    });
    const success = fuzzTermination(config, quick).reasons[0]!;
    expect(success.fewestEvaluations).toBe(3);
    expect(playSequence(config, success.example!)).toMatchObject({
      reason: 'success',
      evaluations: 3,
    });
  });

  it('reaches max_episodes under a cap only after the evaluations the cap allows', () => {
    const config = parseTerminationConfig({ agents: { SAC: { success: successRule() } } });
    const phase = { mode: 'train', worker: 1 as const, episodes: 12, evaluateEvery: 5 };
    const report = fuzzTermination(config, { ...quick, phase });
    expect(report.settings.horizon).toBe(2);
    expect(report.reasons[2]).toMatchObject({
      reason: 'max_episodes',
      reachable: true,
      fewestEvaluations: 2,
    });
    // Success needs 3 evaluations; the cap allows 2.
    expect(report.reasons[0]).toMatchObject({ reachable: false });
    expect(report.forever).toMatchObject({ possible: false, bound: 2 });
  });

  it('says where the phase came from, in the settings and in a cap-free note', () => {
    const config = parseTerminationConfig({ agents: { SAC: { success: successRule() } } });
    const capFree = { mode: 'train', worker: 1 as const, episodes: null, evaluateEvery: 5 };
    const report = fuzzTermination(config, {
      ...quick,
      phase: capFree,
      phaseOrigin: 'phase train of run.yaml',
    });
    expect(report.settings.phase).toEqual({
      episodes: null,
      evaluateEvery: 5,
      origin: 'phase train of run.yaml',
    });
    expect(report.reasons[2]).toMatchObject({
      configured: false,
      note: 'no episodes cap: phase train of run.yaml sets no episodes',
    });
    expect(fuzzTermination(config, quick).reasons[2]?.note).toBe(
      'no episodes cap: the rules file has no phase.episodes',
    );
  });

  it('says a run cannot go on forever when min_delta > 0 bounds every plateau', () => {
    const config = parseTerminationConfig({
      agents: { SAC: { plateau: plateauRule({ min_delta: 0.5 }) } },
    });
    const report = fuzzTermination(config, quick);
    // start max(window 1, min_evaluations 3 − 1) = 2, then (⌊1 / 0.5⌋ + 1 + 1) · patience 2 = 8 more.
    expect(report.forever).toMatchObject({ possible: false, example: null, bound: 10 });
  });

  it('holds every invariant of the termination property tests on the rules', () => {
    const config = parseTerminationConfig({
      agents: {
        PPO: { success: successRule(), plateau: plateauRule() },
        SAC: { success: successRule(), plateau: plateauRule() },
      },
    });
    const { invariants } = fuzzTermination(config, { ...quick, runs: 40 });
    expect(invariants.map((finding) => finding.name)).toEqual([
      'an exact duplicate of any recorded checkpoint changes nothing',
      'a conflicting duplicate is rejected and changes nothing',
      'a gap or regression in evaluation episodes is rejected and changes nothing',
      'invalid outcomes never end the phase and never change plateau state',
      'the order of outcomes within a checkpoint does not matter',
      'the terminal reason never changes once set',
      'a state dict round trip at any point continues exactly like the original',
    ]);
    for (const finding of invariants) {
      expect(finding, finding.name).toMatchObject({
        held: true,
        counterexample: null,
        error: null,
      });
      expect(finding.runs).toBeGreaterThan(0);
    }
  });

  it('gives the same report for the same seed and runs', () => {
    const config = parseTerminationConfig({
      agents: { SAC: { success: successRule(), plateau: plateauRule() } },
    });
    const a = fuzzTermination(config, { ...quick, runs: 30 });
    const b = fuzzTermination(config, { ...quick, runs: 30 });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('rejects bad settings naming the option', () => {
    const config = parseTerminationConfig({ agents: { SAC: { success: successRule() } } });
    expect(() => fuzzTermination(config, { runs: 0 })).toThrow(
      new FuzzInputError('--runs must be a positive integer, got 0'),
    );
    expect(() => fuzzTermination(config, { maxEvaluations: 2.5 })).toThrow(
      '--max-evaluations must be a positive integer, got 2.5',
    );
  });
});

describe('formatFuzzReport', () => {
  it('prints each reason, the example per agent and metric, forever and the invariants', () => {
    const config = parseTerminationConfig({ agents: { SAC: { plateau: plateauRule() } } });
    const text = formatFuzzReport(fuzzTermination(config, { ...quick, runs: 20 }), 'rules.yaml');
    const lines = text.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'arena fuzz termination rules.yaml',
      'seed 7, 20 runs per search, sequences of up to 20 evaluations',
      'metric ranges: objective 0:1 (assumed; give --metric objective=LOW:HIGH)',
      '',
      'terminal reasons',
      '  success       not configured: no agent has a success rule',
    ]);
    expect(lines[6]).toBe(
      '  plateau       reachable in 4 evaluations (minimal: the rules need at least 4 evaluations)',
    );
    expect(lines[7]).toMatch(/^ {18}SAC\.objective {2}[-\d.]+(, [-\d.]+){3}$/);
    expect(text).toContain('runs forever: no, every sequence ends the phase by evaluation');
    expect(text).toContain('invariants on these rules: 7 of 7 held');
  });
});
