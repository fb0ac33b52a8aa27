import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { formatRunDetails as formatRunReport } from '../../src/cli/commands/runsText.js';
import { parseTerminationConfig } from '../../src/domain/termination/config.js';
import type { CheckpointRecord } from '../../src/ports/store/store.js';
import { plateauSeries } from '../../src/report/plateauSeries.js';
import type { PhaseReport } from '../../src/report/reportTypes.js';
import type { RunDetails as RunReport } from '../../src/report/runDetails.js';
import { studySummary } from '../../src/report/studySummary.js';
import { checkpointReport, runReport } from '../support/runReports.js';

const runs = { numRuns: 150 };

/** A metric value as an evaluation may report it: finite, or not a number at all. */
const metricValue = fc.oneof(
  { weight: 5, arbitrary: fc.double({ min: -100, max: 100, noNaN: true }) },
  { weight: 1, arbitrary: fc.constant(Number.NaN) },
);

function storedCheckpoints(values: readonly number[]): CheckpointRecord[] {
  return values.map((value, index) => ({
    runId: 'r',
    phaseIndex: 0,
    checkpointIndex: index,
    afterEpisode: (index + 1) * 4,
    outcomes: [
      {
        agentName: 'operator',
        evaluationId: `e${index}`,
        evaluationEpisode: index,
        metrics: { objective: value },
      },
    ],
    status: 'accepted',
    decision: null,
    error: null,
  }));
}

describe('plateauSeries', () => {
  test.prop(
    [
      fc.array(metricValue, { maxLength: 30 }),
      fc.integer({ min: 1, max: 5 }),
      fc.double({ min: 0, max: 20, noNaN: true }),
      fc.constantFrom('maximize', 'minimize'),
    ],
    runs,
  )(
    'each smoothed value is the mean of the last window valid values; the best lies on the series and no later value beats it by min_delta',
    (values, window, minDelta, direction) => {
      const rules = parseTerminationConfig({
        agents: {
          operator: {
            plateau: {
              metric: 'objective',
              direction,
              min_delta: minDelta,
              patience: 1000,
              min_evaluations: 1,
              window,
            },
          },
        },
      });
      const series = plateauSeries(storedCheckpoints(values), rules).get('operator');
      expect(series?.points).toHaveLength(values.length);
      const valid: number[] = [];
      values.forEach((value, index) => {
        if (Number.isFinite(value)) valid.push(value);
        const last = valid.slice(-window);
        const expected = last.length < window ? null : last.reduce((sum, v) => sum + v, 0) / window;
        const point = series?.points[index]?.value ?? null;
        if (expected === null) expect(point).toBeNull();
        else expect(point).toBeCloseTo(expected, 9);
      });
      const best = series?.best ?? null;
      const drawn = series?.points.filter((point) => point.value !== null) ?? [];
      if (drawn.length === 0) {
        expect(best).toBeNull();
        return;
      }
      expect(best).not.toBeNull();
      expect(
        series?.points.find((point) => point.checkpointIndex === best?.checkpointIndex)?.value,
      ).toBe(best?.value);
      // Once reached, the rule's best is never beaten by min_delta or more later.
      const better = (value: number) =>
        direction === 'maximize'
          ? value - (best?.value ?? 0) >= minDelta
          : (best?.value ?? 0) - value >= minDelta;
      const after = drawn.filter((point) => point.checkpointIndex > (best?.checkpointIndex ?? 0));
      expect(after.filter((point) => minDelta > 0 && better(point.value as number))).toEqual([]);
    },
  );
});

const phaseArbitrary = fc.record({
  pv: fc.option(fc.constantFrom(1, 2, 3, 4), { nil: null }),
  returns: fc.array(
    fc.record({ evaluation: fc.boolean(), value: fc.integer({ min: -50, max: 50 }) }),
    {
      maxLength: 4,
    },
  ),
});

function studyPhases(
  specs: ReadonlyArray<{
    pv: number | null;
    returns: ReadonlyArray<{ evaluation: boolean; value: number }>;
  }>,
): PhaseReport[] {
  return specs.map((spec, phaseIndex) => ({
    phaseIndex,
    name: `p${phaseIndex}`,
    mode: 'train',
    status: 'done',
    terminationReason: null,
    episodes: spec.returns.length,
    metrics: [],
    episodeReturns: spec.returns.map((entry, index) => ({
      episode: index + 1,
      evaluation: entry.evaluation,
      episodeReturn: entry.value,
      steps: 1,
      returnsByAgent: {},
    })),
    metaDecisions:
      spec.pv === null
        ? []
        : [
            {
              startRequest: 1,
              firstEpisode: 1,
              environmentUid: 'g',
              agentName: 'planner',
              selectors: [{ uid: 'g.pv', baseline: 0, candidate: spec.pv }],
            },
          ],
    termination: { reason: null, summary: '', decisiveCheckpoint: null },
  }));
}

describe('studySummary', () => {
  test.prop([fc.array(phaseArbitrary, { maxLength: 8 })], runs)(
    'exists exactly with two deciding phases, and its best outcome is the highest of any deciding phase',
    (specs) => {
      const phases = studyPhases(specs);
      const study = studySummary(phases);
      const deciding = specs.filter((spec) => spec.pv !== null).length;
      expect(study === null).toBe(deciding < 2);
      if (study === null) return;
      const outcomes = study.phases.flatMap((phase) =>
        phase.decision !== null && phase.outcome !== null ? [phase.outcome.value] : [],
      );
      if (outcomes.length === 0) return;
      const best = Math.max(...outcomes);
      const winner = study.phases.find(
        (phase) => phase.decision !== null && phase.outcome?.value === best,
      );
      expect(study.findings[0]).toContain(`in phase ${winner?.name},`);
      for (const phase of study.phases) {
        const { returns } = specs[phase.phaseIndex]!;
        const counted = returns.some((entry) => entry.evaluation)
          ? returns.filter((entry) => entry.evaluation)
          : returns;
        if (counted.length === 0) expect(phase.outcome).toBeNull();
        else expect(phase.outcome?.episodes).toBe(counted.length);
      }
    },
  );
});

function showReport(count: number, constant: boolean): RunReport {
  return runReport(
    Array.from({ length: count }, (_, index) =>
      checkpointReport(index, { score: index, ...(constant ? { episodes: 1 } : {}) }, 'a'),
    ),
  );
}

describe('arena show checkpoints', () => {
  test.prop([fc.integer({ min: 0, max: 60 }), fc.boolean()], runs)(
    'a shortened list is the first five and last five lines of the full one around one marker that counts the rest',
    (count, constant) => {
      const section = (text: string) => {
        const lines = text.split('\n');
        return lines.slice(lines.indexOf('checkpoints') + 1, lines.indexOf('meta decisions'));
      };
      const report = showReport(count, constant);
      const full = section(formatRunReport(report));
      const short = section(formatRunReport(report, { allCheckpoints: false }));
      const head = constant && count >= 2 ? 1 : 0;
      expect(full).toHaveLength(Math.max(count, 1) + head);
      // A metric seen once is not known to be constant; from two on it is said once, above.
      expect(full.slice(head).some((line) => line.includes('episodes='))).toBe(
        constant && count === 1,
      );
      if (count <= 11) {
        expect(short).toEqual(full);
        return;
      }
      expect(short).toEqual([
        ...full.slice(0, head + 5),
        `  … ${count - 10} more checkpoints (arena show ${report.run.runId} --all prints every one)`,
        ...full.slice(-5),
      ]);
    },
  );
});
