import { toSvg } from '../diagram/svg.js';
import { objectiveAt } from '../domain/sweep/objectiveAt.js';
import type { SweepProgress } from '../domain/sweep/progress.js';
import { htmlPage, jsonScriptElement } from '../html/htmlPage.js';
import { escapeHtml } from '../html/htmlText.js';
import { sweepMachine } from '../machines/sweep.js';
import type { RunStore, SweepRecord } from '../ports/store/store.js';
import { type ChartConfig, type ChartDataset, lineChart } from './chartConfigs.js';
import { chartClientScript, chartJsScript } from './chartScript.js';
import { formatNumber } from './formatNumber.js';

/** One colour per trial, in trial order (repeating past twelve). */
const trialColours = [
  '#2563eb',
  '#ea580c',
  '#16a34a',
  '#7c3aed',
  '#db2777',
  '#0d9488',
  '#ca8a04',
  '#4b5563',
  '#dc2626',
  '#0891b2',
  '#65a30d',
  '#9333ea',
] as const;

/** What a trial's parameters are, in one short line: `pv_peak_mw = 4, population = 8`. */
function parametersText(
  progress: SweepProgress,
  index: number,
  names: readonly (string | undefined)[],
): string {
  const trial = progress.trials[index];
  return (trial?.parameters ?? [])
    .map(
      ({ pointer, value }, position) => `${names[position] ?? pointer} = ${JSON.stringify(value)}`,
    )
    .join(', ');
}

/**
 * The chart of a sweep: each trial's first objective at every evaluation
 * checkpoint of its run (a pruned trial's line ends, crossed, at the rung
 * that pruned it), with a dashed line at each rung.
 */
export function sweepChartConfig(
  store: RunStore,
  progress: SweepProgress,
  names: readonly (string | undefined)[],
): ChartConfig {
  const [objective] = progress.objectives;
  const datasets: ChartDataset[] = progress.trials.map((trial) => {
    const checkpoints = trial.runId === null ? [] : store.checkpoints(trial.runId);
    const colour = trialColours[trial.index % trialColours.length] as string;
    const data = checkpoints.map((checkpoint, position) => ({
      x: position + 1,
      y: objective === undefined ? null : objectiveAt(checkpoint.outcomes, objective),
    }));
    const pruned = trial.status === 'pruned';
    return {
      label: `trial ${trial.index} (${parametersText(progress, trial.index, names)})${pruned ? `: pruned at rung ${(trial.prunedAtRung ?? 0) + 1}` : ''}`,
      data,
      borderColor: colour,
      backgroundColor: colour,
      borderDash: pruned ? [4, 3] : [],
      pointStyle: data.map((_, position) =>
        pruned && position === data.length - 1 ? 'crossRot' : 'circle',
      ),
      pointRadius: data.map((_, position) => (pruned && position === data.length - 1 ? 7 : 2)),
    };
  });
  const top = Math.max(
    ...datasets.flatMap((dataset) => dataset.data.map((point) => point.y ?? -Infinity)),
  );
  const bottom = Math.min(
    ...datasets.flatMap((dataset) => dataset.data.map((point) => point.y ?? Infinity)),
  );
  for (const [position, rung] of progress.pruner.rungs.entries()) {
    if (!Number.isFinite(top) || !Number.isFinite(bottom)) break;
    datasets.push({
      label: `rung ${position + 1} (${rung} checkpoints)`,
      data: [
        { x: rung, y: bottom },
        { x: rung, y: top },
      ],
      borderColor: '#9ca3af',
      borderDash: [2, 4],
      pointRadius: 0,
    });
  }
  return lineChart(
    datasets,
    `${objective?.metric ?? 'objective'} of each trial at each evaluation checkpoint`,
    'evaluation checkpoint of the trial',
    objective?.metric ?? 'objective',
  );
}

/**
 * A stored sweep's HTML report: what it decided, a chart of each trial's
 * objective per checkpoint with its rungs, the leaderboard, each rung's
 * decision, and the sweep machine. Self-contained (Chart.js inlined).
 *
 * @example
 * ```ts
 * writeFileSync('sweep.html', buildSweepReportHtml(store, sweepId, progress, table));
 * ```
 */
export function buildSweepReportHtml(
  store: RunStore,
  record: SweepRecord,
  progress: SweepProgress,
  options: {
    readonly names: readonly (string | undefined)[];
    /** The leaderboard as text (`sweepTableText`), shown as it prints. */
    readonly leaderboard: string;
  },
): string {
  const chart = sweepChartConfig(store, progress, options.names);
  const pruned = progress.trials.filter((trial) => trial.status === 'pruned').length;
  const decisions = progress.decisions
    .map(
      (decision) =>
        `<tr><td>${decision.rungIndex + 1}</td><td>${decision.rung}</td><td>${decision.ranking.join(', ')}</td><td>${decision.kept.join(', ') || 'none'}</td><td>${decision.pruned.join(', ') || 'none'}</td><td>${decision.median === null ? '' : decision.median.map((value) => (value === null ? '-' : formatNumber(value))).join(' / ')}</td></tr>`,
    )
    .join('\n');
  const status =
    record.status === 'running'
      ? '<p class="incomplete">This sweep has not finished: it stopped before its last decision (go on with <code>arena sweep --resume</code>). What follows is what it had decided.</p>\n'
      : '';
  const body = `${status}<p>${progress.trials.length} trials of <code>${escapeHtml(record.sweepFilePath)}</code>, ${escapeHtml(progress.pruner.kind.replace('_', ' '))} at ${progress.pruner.rungs.join(', ') || 'no'} evaluation checkpoints: ${pruned} pruned. A rung is decided only once every trial that can reach it has (ties by trial index), so these decisions follow from the trials' records alone.</p>
<div class="chart"><canvas data-chart="0" role="img" aria-label="${escapeHtml(String((chart.options.plugins as { title: { text: string } }).title.text))}"></canvas></div>
<h2>Leaderboard</h2>
<pre>${escapeHtml(options.leaderboard)}</pre>
<h2>Decisions</h2>
<table><thead><tr><th>rung</th><th>checkpoints</th><th>ranked (best first)</th><th>kept</th><th>pruned</th><th>median</th></tr></thead>
<tbody>
${decisions}
</tbody></table>
<h2>The sweep machine</h2>
<div class="diagram">${toSvg(sweepMachine)}</div>
${jsonScriptElement('chart-configs', [chart])}
<script>${chartJsScript()}</script>
<script>${chartClientScript('chart-configs')}</script>
`;
  return htmlPage({
    title: `Sweep ${record.uid} (${record.sweepId})`,
    viewport: true,
    style: `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #111827; }
.chart { position: relative; height: 28rem; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 0.25rem 0.75rem; text-align: left; }
pre { overflow-x: auto; background: #f9fafb; padding: 0.75rem; }
.incomplete { background: #fef3c7; padding: 0.5rem 0.75rem; }
.diagram svg { max-width: 100%; height: auto; }
`,
    body,
  });
}
