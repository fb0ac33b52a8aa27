import { episodesNoun, trainingEpisodesThrough } from '../domain/shared/episodeCounts.js';
import type { JsonValue } from '../domain/shared/json.js';
import { isPlainObject } from '../domain/shared/json.js';
import { escapeHtml } from '../html/htmlText.js';
import { formatNumber } from './formatNumber.js';
import type {
  MetaDecisionRows,
  MetricSeries,
  PhaseReport,
  RunReport,
  StudySummary,
  TerminationEvidence,
} from './reportTypes.js';

/** Columns of the decisive checkpoint's per-agent evidence, in the order shown. */
const evidenceColumns = [
  ['agentName', 'agent'],
  ['status', 'outcome'],
  ['evaluationId', 'evaluation'],
  ['successValue', 'success value'],
  ['successStreak', 'success streak'],
  ['validEvaluations', 'valid evaluations'],
  ['smoothedValue', 'smoothed value'],
  ['bestMetric', 'best'],
  ['plateauPatience', 'plateau patience'],
] as const;

/**
 * The run's metadata as an HTML definition list; every value escaped.
 *
 * @example
 * ```ts
 * runMetadataHtml(report); // '<dl class="metadata"><dt>run</dt><dd>line-run-…</dd>…</dl>'
 * ```
 */
export function runMetadataHtml(report: RunReport): string {
  const { run } = report;
  const rows: Array<[string, string]> = [
    ['run', run.runId],
    ['uid', run.uid],
    ['seed', String(run.seed)],
    ['status', run.status],
    ['started', run.startedAt],
    ['ended', run.endedAt ?? 'not yet'],
    ['run file', run.runFilePath],
    ['phases', report.phases.map((phase) => `${phase.name} (${phase.status})`).join(', ')],
  ];
  if (run.error !== null) rows.push(['error', run.error]);
  if (report.rulesNote !== null) rows.push(['rules', report.rulesNote]);
  const items = rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`);
  return `<dl class="metadata">${items.join('')}</dl>`;
}

/**
 * The termination reason of a phase, the one-line evidence, and the decisive
 * checkpoint's per-agent report as a table.
 *
 * @example
 * ```ts
 * terminationHtml(phase.termination);
 * // '<p class="reason"><strong>success</strong> at checkpoint 3 (after episode 12)</p>…'
 * ```
 */
export function terminationHtml(
  evidence: TerminationEvidence,
  phase?: Pick<PhaseReport, 'mode' | 'episodeReturns'>,
): string {
  const decisive = evidence.decisiveCheckpoint;
  const counted = (afterEpisode: number) =>
    phase === undefined
      ? `episode ${afterEpisode}`
      : episodesNoun(phase.mode, trainingEpisodesThrough(phase.episodeReturns, afterEpisode));
  const where =
    decisive === null
      ? ''
      : ` at checkpoint ${decisive.checkpointIndex} (after ${counted(decisive.afterEpisode)})`;
  const parts = [
    `<p class="reason"><strong>${escapeHtml(evidence.reason ?? 'no termination reason')}</strong>${where}</p>`,
    `<p class="evidence">${escapeHtml(evidence.summary)}</p>`,
  ];
  if (decisive !== null && decisive.agents.length > 0) {
    const head = evidenceColumns.map(([, title]) => `<th>${title}</th>`).join('');
    const rows = decisive.agents.map((agent) => {
      const entry = isPlainObject(agent) ? agent : {};
      const cells = evidenceColumns.map(([key]) => `<td>${cellText(entry[key] as JsonValue)}</td>`);
      return `<tr>${cells.join('')}</tr>`;
    });
    parts.push(
      `<table class="evidence-table"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  return parts.join('\n');
}

/**
 * The meta decisions of a phase: one table per decision, a row per selector
 * UID with its baseline and candidate value (changed rows marked).
 *
 * @example
 * ```ts
 * metaDecisionsHtml(phase.metaDecisions);
 * // '<h4>designer on line, start request 1 (from episode 1)</h4><table class="meta">…'
 * ```
 */
export function metaDecisionsHtml(
  decisions: readonly MetaDecisionRows[],
  phase?: Pick<PhaseReport, 'mode' | 'episodeReturns'>,
): string {
  const from = (firstEpisode: number) =>
    phase === undefined
      ? `episode ${firstEpisode}`
      : `${phase.mode === 'test' ? 'test' : 'training'} episode ${trainingEpisodesThrough(phase.episodeReturns, firstEpisode - 1) + 1}`;
  if (decisions.length === 0) return '<p class="none">No meta decision in this phase.</p>';
  return decisions
    .map((decision) => {
      const rows = decision.selectors.map((selector) => {
        const changed = JSON.stringify(selector.baseline) !== JSON.stringify(selector.candidate);
        return (
          `<tr${changed ? ' class="changed"' : ''}><td>${escapeHtml(selector.uid)}</td>` +
          `<td>${cellText(selector.baseline)}</td><td>${cellText(selector.candidate)}</td></tr>`
        );
      });
      return (
        `<h4>${escapeHtml(decision.agentName)} on ${escapeHtml(decision.environmentUid)}, ` +
        `start request ${decision.startRequest} (from ${from(decision.firstEpisode)})</h4>` +
        '<table class="meta"><thead><tr><th>selector UID</th><th>baseline</th><th>candidate</th></tr></thead>' +
        `<tbody>${rows.join('')}</tbody></table>`
      );
    })
    .join('\n');
}

/**
 * A phase's heading and outcome line.
 *
 * @example
 * ```ts
 * phaseHeadingHtml(phase);
 * // '<h2>Phase 0: train</h2><p>mode train, done, 12 episodes</p>'
 * ```
 */
export function phaseHeadingHtml(phase: PhaseReport): string {
  return (
    `<h2>Phase ${phase.phaseIndex}: ${escapeHtml(phase.name)}</h2>` +
    `<p>mode ${escapeHtml(phase.mode)}, ${escapeHtml(phase.status)}, ${phaseEpisodesText(phase)}</p>`
  );
}

/**
 * The study's answer: the findings as a list, then a chart per drawn selector
 * (drawn by `chart`, which returns its canvas markup), then a table of every
 * phase's outcome and the values its meta agent chose (the selectors whose
 * choice changed between phases, or all when none did).
 *
 * @example
 * ```ts
 * studyHtml(report.study, (config) => '<canvas></canvas>');
 * // '<section class="study"><h2>The study's answer</h2><ul class="findings"><li>The best outcome is …'
 * ```
 */
export function studyHtml(study: StudySummary, chart: (uid: string) => string): string {
  const findings = study.findings.map((line) => `<li>${escapeHtml(line)}</li>`).join('');
  const deciding = study.phases.filter((phase) => phase.decision !== null);
  const all = [...new Set(deciding.flatMap((phase) => Object.keys(phase.decision ?? {})))];
  // Columns for what the meta agent changed between phases; the phase tables below show the rest.
  const varying = all.filter(
    (uid) =>
      new Set(deciding.map((phase) => JSON.stringify(phase.decision?.[uid] ?? null))).size > 1,
  );
  const uids = varying.length > 0 ? varying : all;
  const head = ['phase', ...uids, 'outcome', 'measured as', 'ended by']
    .map((title) => `<th>${escapeHtml(title)}</th>`)
    .join('');
  const rows = study.phases.map((phase) => {
    const cells = [
      escapeHtml(`${phase.phaseIndex} ${phase.name} (${phase.mode})`),
      ...uids.map((uid) => cellText(phase.decision?.[uid] ?? null)),
      phase.outcome === null ? '–' : formatNumber(phase.outcome.value),
      phase.outcome === null
        ? 'no finished episode'
        : escapeHtml(`${phase.outcome.measure} of ${phase.outcome.episodes} episodes`),
      escapeHtml(phase.terminationReason ?? '–'),
    ];
    return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
  });
  return `<section class="study">
<h2>The study's answer</h2>
<ul class="findings">${findings}</ul>
${study.selectors.map(chart).join('\n')}
<table class="study-table"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>
</section>`;
}

/**
 * One sentence for a metric that had the same value at every checkpoint, in
 * place of a flat chart.
 *
 * @example
 * ```ts
 * constantMetricHtml(series); // '<p class="constant">operator episodes is 1 at all 8 checkpoints (constant).</p>'
 * ```
 */
export function constantMetricHtml(series: MetricSeries & { readonly constant: number }): string {
  const threshold =
    series.threshold === null
      ? ''
      : `; the success threshold is ${series.threshold.direction === 'greater_equal' ? '≥' : '≤'} ${formatNumber(series.threshold.value)}`;
  return `<p class="constant">${escapeHtml(
    `${series.agentName} ${series.metric} is ${formatNumber(series.constant)} at all ${series.points.length} checkpoints (constant)${threshold}.`,
  )}</p>`;
}

function cellText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '–';
  if (typeof value === 'number') return formatNumber(value);
  return escapeHtml(typeof value === 'string' ? value : JSON.stringify(value));
}

/** `32 training episodes and 8 evaluation episodes`: the counts `arena run` and `show` print. */
function phaseEpisodesText(phase: PhaseReport): string {
  const evaluation = phase.episodeReturns.filter((episode) => episode.evaluation).length;
  const counted = episodesNoun(phase.mode, phase.episodeReturns.length - evaluation);
  return evaluation === 0 ? counted : `${counted} and ${episodesNoun('evaluation', evaluation)}`;
}
