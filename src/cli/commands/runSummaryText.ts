import type { PhaseSummary, RunSummary } from '../../actors/experiment/runSummary.js';
import { episodesNoun } from '../../domain/shared/episodeCounts.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import type { StoreLocation } from '../../ports/store/storeUri.js';
import { shownStorePath } from '../paths.js';
import { resumeCommand, storeArgument } from '../storeArgument.js';

/**
 * The closing summary of `arena run`: the meta decision (baseline -> candidate
 * per selector), each phase's episodes, evaluation checkpoints and termination
 * reason, and where the run is stored.
 *
 * @example
 * ```ts
 * formatRunSummary(summary, '.arena/arena.db');
 * // run line-run-20261129T201526-e60b: succeeded (seed 7)
 * //
 * // phase train (train): success after 8 episodes (4 evaluation episodes), mean return -1.500
 * //   checkpoint  after episode  status    operator.objective  decision
 * //   0           3              accepted  0.100               CONTINUE
 * //   ...
 * // stored in .arena/arena.db; see it with: arena show line-run-20261129T201526-e60b
 * ```
 */
export function formatRunSummary(
  summary: RunSummary,
  storePath: string,
  options: RunSummaryTextOptions = {},
): string {
  const allCheckpoints = options.allCheckpoints ?? true;
  const lines: string[] = [];
  lines.push(`run ${summary.runId}: ${summary.status} (seed ${summary.seed})`);
  if (summary.error !== null) lines.push(`error: ${summary.error}`);
  for (const phase of summary.phases) {
    lines.push('');
    if (phase.metaLoop !== undefined) lines.push(...metaLoopLines(phase));
    else if (phase.metaDecision !== null) lines.push(...metaDecisionLines(phase));
    lines.push(phaseLine(phase));
    if (phase.error !== null && phase.error !== summary.error)
      lines.push(`  error: ${phase.error}`);
    if (phase.checkpoints.length > 0) {
      const showAll = arenaCommand(`show ${summary.runId} --all${options.storeArgument ?? ''}`);
      lines.push(...checkpointTable(phase, allCheckpoints, showAll));
    }
  }
  const store = options.storeArgument ?? '';
  lines.push('');
  lines.push(
    `stored in ${storePath}; see it with: ${arenaCommand(`show ${summary.runId}${store}`)}`,
  );
  if (summary.status === 'cancelled') {
    lines.push(`resume it with: ${resumeCommand(summary.runId, store)}`);
  }
  return lines.join('\n');
}

function metaDecisionLines(phase: PhaseSummary): string[] {
  const decision = phase.metaDecision;
  if (decision === null) return [];
  const uids = decision.selectorOrder;
  const width = Math.max(...uids.map((uid) => uid.length), 8);
  return [
    `meta decision of ${decision.agentName} on ${decision.environmentUid} (baseline -> candidate):`,
    ...uids.map(
      (uid) =>
        `  ${uid.padEnd(width)}  ${formatNumber(decision.baseline[uid])} -> ${formatNumber(decision.candidate[uid])}`,
    ),
  ];
}

/** The repeated meta loop's decisions: one row per decision, from its first episode, with its returns. */
function metaLoopLines(phase: PhaseSummary): string[] {
  const decision = phase.metaDecision;
  const loop = phase.metaLoop ?? [];
  if (decision === null) return [];
  const uids = decision.selectorOrder;
  const baseline = uids.map((uid) => formatNumber(decision.baseline[uid])).join(', ');
  const header = [
    phase.mode === 'test' ? 'test episodes' : 'training episodes',
    ...uids,
    'mean return',
    'evaluation mean',
  ];
  const rows = loop.map((entry) => [
    episodeRange(entry.firstTrainingEpisode, entry.episodes),
    ...uids.map((uid) => formatNumber(entry.candidate[uid])),
    entry.meanReturn === null ? '–' : formatNumber(entry.meanReturn),
    entry.evaluationMeanReturn === null ? '–' : formatNumber(entry.evaluationMeanReturn),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd();
  return [
    `meta decisions of ${decision.agentName} on ${decision.environmentUid} (repeated meta loop, ${loop.length} decisions; baseline ${baseline}):`,
    line(header),
    ...rows.map(line),
  ];
}

/** `21–40`: the training episodes a decision's world ran (`–` when none). */
function episodeRange(first: number, count: number): string {
  return count === 0 ? '–' : `${first}–${first + count - 1}`;
}

function phaseLine(phase: PhaseSummary): string {
  const evaluations =
    phase.evaluationEpisodes > 0
      ? ` (and ${episodesNoun('evaluation', phase.evaluationEpisodes)})`
      : '';
  const agents = Object.entries(phase.meanReturnsByAgent);
  const byAgent =
    agents.length > 1
      ? ` (${agents.map(([agent, value]) => `${agent} ${formatNumber(value)}`).join(', ')})`
      : '';
  const mean =
    phase.meanReturn === null ? '' : `, mean return ${formatNumber(phase.meanReturn)}${byAgent}`;
  const ending = phase.reason ?? phase.status;
  return `phase ${phase.name} (${phase.mode}): ${ending} after ${episodesNoun(phase.mode, phase.episodes)}${evaluations}${mean}`;
}

/**
 * The closing summary as `arena run` and `arena submit --wait` print it: on a
 * terminal a long checkpoint table shows its ends (unless `all`), piped every
 * row (for grep and files); its commands carry the store they need.
 *
 * @example
 * ```ts
 * process.stdout.write(`${closingSummaryText(summary, parseStoreUri('sqlite:runs.db'), false)}\n`);
 * ```
 */
export function closingSummaryText(
  summary: RunSummary,
  location: StoreLocation,
  all: boolean,
): string {
  return formatRunSummary(summary, shownStorePath(location.path), {
    allCheckpoints: all || process.stdout.isTTY !== true,
    storeArgument: storeArgument(location),
  });
}

/** How `arena run` prints its closing summary. */
export interface RunSummaryTextOptions {
  /** Every checkpoint row (the default), or the first and last `elidedEnds` with `…` between. */
  readonly allCheckpoints?: boolean;
  /** The `--store …` the printed commands need (`storeArgument`), or `''` for the default store. */
  readonly storeArgument?: string;
}

/** Checkpoint rows shown at each end of a shortened table. */
const elidedEnds = 5;

function checkpointTable(phase: PhaseSummary, allCheckpoints: boolean, showAll: string): string[] {
  const columns = new Set<string>();
  for (const checkpoint of phase.checkpoints) {
    for (const [agent, metrics] of Object.entries(checkpoint.metrics)) {
      for (const metric of Object.keys(metrics)) columns.add(`${agent}.${metric}`);
    }
  }
  const cell = (checkpoint: PhaseSummary['checkpoints'][number], column: string) => {
    const [agent, ...metric] = column.split('.');
    return formatNumber(checkpoint.metrics[agent as string]?.[metric.join('.')]);
  };
  // A column of one value says nothing per row: it becomes one line under the table.
  const constant = [...columns].filter((column) => {
    const cells = new Set(phase.checkpoints.map((checkpoint) => cell(checkpoint, column)));
    return phase.checkpoints.length >= 2 && cells.size === 1 && !cells.has('-');
  });
  const metricColumns = [...columns].filter((column) => !constant.includes(column));
  const counted = phase.mode === 'test' ? 'after test episodes' : 'after training episodes';
  const header = ['checkpoint', counted, 'status', ...metricColumns, 'decision'];
  const shortened = !allCheckpoints && phase.checkpoints.length > 2 * elidedEnds + 1;
  const shown = shortened
    ? [...phase.checkpoints.slice(0, elidedEnds), ...phase.checkpoints.slice(-elidedEnds)]
    : phase.checkpoints;
  const rows = shown.map((checkpoint) => [
    String(checkpoint.index),
    String(checkpoint.afterTrainingEpisodes),
    checkpoint.status,
    ...metricColumns.map((column) => cell(checkpoint, column)),
    checkpoint.reason === null
      ? (checkpoint.control ?? '-')
      : `${checkpoint.control} (${checkpoint.reason})`,
  ]);
  const widths = header.map((title, index) =>
    rows.reduce((width, row) => Math.max(width, (row[index] ?? '').length), title.length),
  );
  const render = (row: readonly string[]) =>
    `  ${row.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ')}`.trimEnd();
  const notes = constant.map(
    (column) =>
      `  ${column} is ${cell(phase.checkpoints[0] as PhaseSummary['checkpoints'][number], column)} at every checkpoint (constant)`,
  );
  const body = rows.map(render);
  if (shortened) {
    const left = phase.checkpoints.length - 2 * elidedEnds;
    body.splice(elidedEnds, 0, `  … ${left} more checkpoints (${showAll} prints every one)`);
  }
  return [render(header), ...body, ...notes];
}

function formatNumber(value: number | undefined): string {
  if (value === undefined) return '-';
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 1000 || (value !== 0 && Math.abs(value) < 0.001)
    ? value.toExponential(3)
    : value.toFixed(3);
}
