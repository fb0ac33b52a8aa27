import type { FuzzTerminationReport } from './fuzzTermination.js';
import type { MetricRange } from './metricRange.js';
import { rangeName } from './metricRanges.js';
import type { MetricSequence } from './sequences.js';

/** Values of a long example shown before it is cut short. */
const SHOWN_VALUES = 12;

/**
 * The fuzz report as readable text (the same on a TTY and in a pipe). A phase
 * read from a run file gets a `phase:` line naming its cap and where it came from.
 *
 * @example
 * ```ts
 * formatFuzzReport(fuzzTermination(loadRules('examples/termination/rules.yaml')), 'rules.yaml');
 * // arena fuzz termination rules.yaml
 * // seed 42, 200 runs per search, sequences of up to 50 evaluations
 * // metric ranges: objective 0:1 (assumed; give --metric objective=LOW:HIGH)
 * //
 * // terminal reasons
 * //   success       reachable in 3 evaluations (minimal: the rules need at least 3 evaluations)
 * //                   PPO.objective  0, 0.8, 0.8
 * //                   SAC.objective  0, 0.8, 0.8
 * //   plateau       reachable in 6 evaluations (minimal: the rules need at least 6 evaluations)
 * // ...
 * // invariants on these rules: 7 of 7 held
 * ```
 */
export function formatFuzzReport(report: FuzzTerminationReport, rulesPath: string): string {
  const { settings } = report;
  const lines = [
    `arena fuzz termination ${rulesPath}`,
    `seed ${settings.seed}, ${settings.runs} runs per search, sequences of up to ${settings.horizon} evaluations`,
    `metric ranges: ${report.ranges.map(formatRange).join(', ')}`,
  ];
  const { phase } = settings;
  if (phase?.origin) {
    const cap = phase.episodes === null ? 'no episodes cap' : `episodes ${phase.episodes}`;
    lines.push(
      `phase: ${cap}, evaluate_every ${phase.evaluateEvery ?? '-'} (from ${phase.origin})`,
    );
  }
  lines.push('', 'terminal reasons');
  for (const finding of report.reasons) {
    const label = `  ${finding.reason.padEnd(12)}  `;
    if (!finding.configured) {
      lines.push(`${label}not configured: ${finding.note}`);
      continue;
    }
    if (!finding.reachable) {
      lines.push(`${label}UNREACHABLE: ${finding.note}`);
      continue;
    }
    const count = finding.fewestEvaluations ?? 0;
    lines.push(
      `${label}reachable in ${count} evaluation${count === 1 ? '' : 's'} (${finding.note})`,
    );
    if (finding.example !== null)
      lines.push(...formatSequence(finding.example, '                  '));
  }
  lines.push('');
  const { forever } = report;
  lines.push(
    forever.possible
      ? 'runs forever: POSSIBLE with metrics within the ranges'
      : `runs forever: no${forever.bound === null ? '' : `, every sequence ends the phase by evaluation ${forever.bound}`}`,
  );
  for (const sentence of forever.explanation) lines.push(`  - ${sentence}`);
  if (forever.example !== null) {
    lines.push(`  a sequence of ${forever.example.length} evaluations that never ends the phase:`);
    lines.push(...formatSequence(forever.example, '    '));
  }
  lines.push('');
  const held = report.invariants.filter((finding) => finding.held).length;
  lines.push(`invariants on these rules: ${held} of ${report.invariants.length} held`);
  for (const finding of report.invariants) {
    lines.push(`  ${finding.held ? 'ok  ' : 'FAIL'}  ${finding.name} (${finding.runs} runs)`);
    if (!finding.held) {
      lines.push(`        ${finding.error}`);
      lines.push(`        counterexample: ${finding.counterexample}`);
    }
  }
  if (report.required.length > 0) {
    lines.push('');
    lines.push(
      report.unreachableRequired.length === 0
        ? `required reasons reachable: ${report.required.join(', ')}`
        : `required reasons UNREACHABLE: ${report.unreachableRequired.join(', ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `objective 0:66 (assumed: twice …; give --metric objective=LOW:HIGH)`: an assumed range says so and how to give one. */
function formatRange(range: MetricRange): string {
  const span = `${rangeName(range)} ${range.low}:${range.high}`;
  if (!range.assumed) return span;
  const from = range.assumedFrom === undefined ? '' : `: ${range.assumedFrom}`;
  return `${span} (assumed${from}; give --metric ${range.metric}=LOW:HIGH)`;
}

/** One line per agent and metric: its values in order, long series cut short. */
function formatSequence(sequence: MetricSequence, indent: string): string[] {
  if (sequence.length === 0) return [`${indent}(no evaluations)`];
  const series = new Map<string, number[]>();
  for (const evaluation of sequence) {
    for (const [agentName, metrics] of Object.entries(evaluation)) {
      for (const [metric, value] of Object.entries(metrics)) {
        const key = `${agentName}.${metric}`;
        series.set(key, [...(series.get(key) ?? []), value]);
      }
    }
  }
  const width = Math.max(...[...series.keys()].map((key) => key.length));
  return [...series].map(([key, values]) => {
    const shown = values.slice(0, SHOWN_VALUES).map(String).join(', ');
    const more = values.length > SHOWN_VALUES ? `, … (${values.length} in all)` : '';
    return `${indent}${key.padEnd(width)}  ${shown}${more}`;
  });
}
