import { canonicalJson } from '../../domain/shared/canonicalJson.js';
import { episodesNoun } from '../../domain/shared/episodeCounts.js';
import { isPlainObject, type JsonValue } from '../../domain/shared/json.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import type { RemoteComponentRecord } from '../../ports/store/store.js';
import { formatNumber } from '../../report/formatNumber.js';
import type { RunActivity } from '../../report/runActivity.js';
import type {
  CheckpointDetails,
  MetaDecisionDetails,
  ResumeDetails,
  RunDetails,
} from '../../report/runDetails.js';
import type { RunListing } from '../../report/runListings.js';
import { resumeCommand } from '../storeArgument.js';

/**
 * The `arena runs` table, columns padded to their widest cell.
 *
 * @example
 * ```ts
 * formatRunTable(runListings(store, 50));
 * // RUN ID                          UID        STATUS     STARTED               PHASES  EPISODES  TERMINATION
 * // grid-demo-20261129T200702-3fa2  grid-demo  succeeded  2026-11-29T20:07:02Z  1       4         success
 * // study-20261130T090000-1b2c      study      succeeded  2026-11-30T09:00:00Z  3       96        plateau,success,max_episodes
 * ```
 * EPISODES counts training (and test) episodes, as `arena run` and `arena show`
 * do (evaluation episodes are `evaluationEpisodes` in `--json`); TERMINATION
 * has each phase's reason in phase order (`-` for a phase without one).
 */
export function formatRunTable(runs: readonly RunListing[]): string {
  const header = ['RUN ID', 'UID', 'STATUS', 'STARTED', 'PHASES', 'EPISODES', 'TERMINATION'];
  const rows = runs.map((run) => [
    run.runId,
    run.uid,
    run.worker === null ? run.status : `${run.status} on ${run.worker}`,
    formatTime(run.startedAt),
    String(run.phases),
    String(run.episodes),
    terminationText(run.terminationReasons),
  ]);
  return columnsText(header, rows);
}

/**
 * A table as `arena runs` and `arena sweeps` print it: each column as wide as
 * its widest cell, two spaces between, no trailing spaces.
 *
 * @example
 * ```ts
 * columnsText(['ID', 'STATUS'], [['a', 'running']]); // 'ID  STATUS\na   running'
 * ```
 */
export function columnsText(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** How `arena show` prints the checkpoints. */
export interface RunDetailsTextOptions {
  /** Every checkpoint (the default), or only the first and last `elidedEnds` with `…` between. */
  readonly allCheckpoints?: boolean;
  /** The `--store …` the printed commands need (`storeArgument`), or `''` for the default store. */
  readonly storeArgument?: string;
}

/** `running (lease lapses in 12 s)`, `interrupted (its runner (pid 4242 on lab-1) is gone)`, `succeeded`. */
function statusText(activity: RunActivity): string {
  if (activity.leaseLapsesInSeconds !== null) {
    return `${activity.status} (lease lapses in ${activity.leaseLapsesInSeconds} s)`;
  }
  return activity.interruption === null
    ? activity.status
    : `${activity.status} (${activity.interruption})`;
}

/** Checkpoints shown at each end when the list is shortened. */
const elidedEnds = 5;

/**
 * The `arena show` summary of one run. A metric with one value at every
 * checkpoint that has it is said once under `checkpoints` and left out of
 * the lines. With `allCheckpoints: false` a long checkpoint list shows its
 * first and last five lines and how many are left out between.
 *
 * @example
 * ```ts
 * formatRunDetails(runDetails(store, runId), { allCheckpoints: false });
 * // run grid-demo-20261129T200702-3fa2
 * //   ...
 * // phases
 * //   0 train (train): done, success; 4 training episodes, mean return 4.5; 2 evaluation episodes, mean return 2
 * // checkpoints
 * //   constant: operator episodes=1 at all 40 checkpoints (left out below)
 * //   phase 0 #0 after episode 3: accepted, CONTINUE; operator reward=0.5
 * //   …
 * //   … 30 more checkpoints (arena show --all prints every one)
 * //   …
 * // meta decisions
 * //   phase 0, start request 1: planner on grid
 * //     grid.definition.load: 0.427 → 0.5
 * // snapshots 2
 * ```
 */
export function formatRunDetails(details: RunDetails, options: RunDetailsTextOptions = {}): string {
  const { run, activity } = details;
  const store = options.storeArgument ?? '';
  const worker = run.lease?.owner.worker;
  const lines = [
    `run ${run.runId}`,
    `  uid       ${run.uid}`,
    `  seed      ${run.seed}`,
    `  run file  ${run.runFilePath}`,
    `  status    ${statusText(activity)}${worker === undefined || activity.status !== 'running' ? '' : ` on ${worker}`}`,
    `  started   ${formatTime(run.startedAt)}`,
    `  ended     ${run.endedAt === null ? '-' : formatTime(run.endedAt)}`,
  ];
  if (run.error !== null) lines.push(`  error     ${run.error}`);
  if (run.lease !== null && activity.status === 'running') {
    lines.push(
      `  running   by ${run.lease.owner.id}, lease until ${formatTime(run.lease.expiresAt)}`,
    );
  }
  if (activity.status === 'interrupted' || activity.status === 'cancelled') {
    lines.push(`  resume    ${resumeCommand(run.runId, store)}`);
  }
  for (const resume of details.resumes) {
    const phase = details.phases.find((each) => each.phaseIndex === resume.phaseIndex);
    lines.push(`  ${resumeLine(resume, phase?.mode ?? 'train')}`);
  }
  lines.push('phases');
  if (details.phases.length === 0) lines.push('  none');
  for (const phase of details.phases) {
    const episodes = [
      episodeCount(episodesNoun(phase.mode, phase.trainingEpisodes), phase.meanReturn),
      episodeCount(
        episodesNoun('evaluation', phase.evaluationEpisodes),
        phase.evaluationMeanReturn,
      ),
    ];
    // the phase a gone runner left is as interrupted as its run
    const status =
      phase.status === 'running' && activity.status === 'interrupted'
        ? 'interrupted'
        : phase.status;
    lines.push(
      `  ${phase.phaseIndex} ${phase.name} (${phase.mode}): ${status}, ${phase.terminationReason ?? 'no termination reason'}; ${episodes.join('; ')}`,
    );
  }
  if (details.remoteComponents.length > 0) {
    lines.push('remote components', ...remoteComponentLines(details.remoteComponents));
  }
  lines.push(
    'checkpoints',
    ...checkpointLines(
      details.checkpoints,
      (phaseIndex) => details.phases.find((phase) => phase.phaseIndex === phaseIndex)?.mode ?? '',
      options.allCheckpoints ?? true,
      arenaCommand(`show ${run.runId} --all${store}`),
    ),
  );
  lines.push('meta decisions');
  if (details.metaDecisions.length === 0) lines.push('  none');
  for (const decision of details.metaDecisions) lines.push(...metaDecisionLines(decision));
  lines.push(`snapshots ${details.snapshots}`);
  return lines.join('\n');
}

/** One line per component and the instance that served it; a session opened again on the same instance adds none. */
function remoteComponentLines(records: readonly RemoteComponentRecord[]): string[] {
  const lines = records.map((record) => {
    const where = [
      record.pid === null ? null : `pid ${record.pid}`,
      record.host === null ? null : `on ${record.host}`,
    ].filter((part) => part !== null);
    const at = where.length === 0 ? '' : ` (${where.join(' ')})`;
    return `  phase ${record.phaseIndex} ${record.kind} ${record.component}: nats:${record.service} instance ${record.instance}${at}`;
  });
  return [...new Set(lines)];
}

function resumeLine(resume: ResumeDetails, mode: string): string {
  const forced = resume.forced ? ` (forced: ${resume.changedModules.join(', ')} had changed)` : '';
  return `resumed   ${formatTime(resume.resumedAt)} after ${episodesNoun(mode, resume.afterTrainingEpisodes)} of phase ${resume.phaseIndex} by ${resume.owner}${forced}`;
}

function episodeCount(counted: string, meanReturn: number | null): string {
  return meanReturn === null ? counted : `${counted}, mean return ${formatNumber(meanReturn)}`;
}

function checkpointLines(
  checkpoints: readonly CheckpointDetails[],
  modeOf: (phaseIndex: number) => string,
  all: boolean,
  showAll: string,
): string[] {
  if (checkpoints.length === 0) return ['  none'];
  const constant = constantMetrics(checkpoints);
  const lines = [...constant.values()].map(
    ({ agentName, metric, value, count }) =>
      `  constant: ${agentName} ${metric}=${formatValue(value)} at all ${count} checkpoints (left out below)`,
  );
  const rows = checkpoints.map(
    (checkpoint) => `  ${checkpointLine(checkpoint, modeOf(checkpoint.phaseIndex), constant)}`,
  );
  // Shortening saves nothing unless more than the two ends and a marker line would show.
  if (all || rows.length <= 2 * elidedEnds + 1) return [...lines, ...rows];
  // the ends, and every checkpoint that decided something (each phase's STOP_PHASE)
  const kept = checkpoints.map(
    (checkpoint, index) =>
      index < elidedEnds ||
      index >= rows.length - elidedEnds ||
      (checkpoint.control !== null && checkpoint.control !== 'CONTINUE'),
  );
  const shown: string[] = [];
  let hidden = 0;
  rows.forEach((row, index) => {
    if (!kept[index]) hidden += 1;
    if (hidden > 0 && (kept[index] || index === rows.length - 1)) {
      shown.push(`  … ${hidden} more checkpoints (${showAll} prints every one)`);
      hidden = 0;
    }
    if (kept[index]) shown.push(row);
  });
  return [...lines, ...shown];
}

/**
 * The metrics (keyed `[agent, metric]`) with one value at every one of two or
 * more checkpoints that has the agent, and present in each of them.
 */
function constantMetrics(
  checkpoints: readonly CheckpointDetails[],
): Map<string, { agentName: string; metric: string; value: JsonValue; count: number }> {
  const seen = new Map<
    string,
    { agentName: string; metric: string; value: JsonValue; count: number; constant: boolean }
  >();
  const agentCount = new Map<string, number>();
  for (const checkpoint of checkpoints) {
    for (const { agentName, metrics } of checkpoint.metrics ?? []) {
      agentCount.set(agentName, (agentCount.get(agentName) ?? 0) + 1);
      if (!isPlainObject(metrics)) continue;
      for (const [metric, value] of Object.entries(metrics)) {
        const key = JSON.stringify([agentName, metric]);
        const held = seen.get(key);
        if (held === undefined) {
          seen.set(key, { agentName, metric, value, count: 1, constant: true });
        } else {
          held.count += 1;
          held.constant &&= formatJson(held.value) === formatJson(value);
        }
      }
    }
  }
  const constant = new Map<
    string,
    { agentName: string; metric: string; value: JsonValue; count: number }
  >();
  for (const [key, { constant: same, ...entry }] of seen) {
    if (same && entry.count >= 2 && entry.count === agentCount.get(entry.agentName)) {
      constant.set(key, entry);
    }
  }
  return constant;
}

function checkpointLine(
  checkpoint: CheckpointDetails,
  mode: string,
  constant: ReadonlyMap<string, unknown> = new Map(),
): string {
  const where = `phase ${checkpoint.phaseIndex} #${checkpoint.checkpointIndex} after ${episodesNoun(mode, checkpoint.afterTrainingEpisodes)}`;
  const decision = [checkpoint.status, checkpoint.control, checkpoint.reason]
    .filter((part) => part !== null)
    .join(', ');
  const metrics =
    checkpoint.metrics === null
      ? formatJson(checkpoint.outcomes)
      : checkpoint.metrics
          .map(({ agentName, metrics }) =>
            [agentName, formatMetrics(agentName, metrics, constant)].filter(Boolean).join(' '),
          )
          .join('; ');
  const error = checkpoint.error === null ? '' : `; error: ${errorText(checkpoint.error)}`;
  return `${where}: ${decision}; ${metrics}${error}`;
}

function metaDecisionLines(decision: MetaDecisionDetails): string[] {
  const head = `  phase ${decision.phaseIndex}, start request ${decision.startRequest}: ${decision.agentName} on ${decision.environmentUid}`;
  if (decision.changes === null) return [head, `    ${formatJson(decision.record)}`];
  if (decision.changes.length === 0) return [head, '    no selectors'];
  return [
    head,
    ...decision.changes.map(
      (change) =>
        `    ${change.uid}: ${formatValue(change.baseline)} → ${formatValue(change.candidate)}`,
    ),
  ];
}

function formatMetrics(
  agentName: string,
  metrics: JsonValue,
  constant: ReadonlyMap<string, unknown>,
): string {
  if (!isPlainObject(metrics)) return formatJson(metrics);
  return Object.entries(metrics)
    .filter(([name]) => !constant.has(JSON.stringify([agentName, name])))
    .map(([name, value]) => `${name}=${formatValue(value)}`)
    .join(' ');
}

function errorText(error: JsonValue): string {
  if (typeof error === 'string') return error;
  if (isPlainObject(error) && typeof error.message === 'string') return error.message;
  return formatJson(error);
}

function formatValue(value: JsonValue | undefined): string {
  if (typeof value === 'number') return formatNumber(value);
  return value === undefined ? '-' : formatJson(value);
}

function formatJson(value: JsonValue): string {
  return canonicalJson(value, { nonFinite: 'tag' });
}

/** `2026-11-29T20:07:02.000Z` → `2026-11-29T20:07:02Z`. */
/** Each phase's reason, compactly: `plateau,success,max_episodes`; `-` when there is none. */
function terminationText(reasons: readonly (string | null)[]): string {
  return reasons.length === 0 || reasons.every((reason) => reason === null)
    ? '-'
    : reasons.map((reason) => reason ?? '-').join(',');
}

function formatTime(iso: string): string {
  return iso.replace(/\.\d{3}Z$/, 'Z');
}
