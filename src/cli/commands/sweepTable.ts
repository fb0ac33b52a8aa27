import type { JsonValue } from '../../domain/shared/json.js';
import type { SweepProgress, TrialProgress } from '../../domain/sweep/progress.js';
import { rankTrials } from '../../domain/sweep/rankTrials.js';
import type { SweepObjective } from '../../domain/sweep/types.js';
import type { RunStore, SweepRecord, SweepStatus } from '../../ports/store/store.js';

/**
 * The leaderboard's name of each objective: its metric, or, when two
 * objectives share a metric (one per agent), the agents it weighs and the metric.
 *
 * @example
 * ```ts
 * objectiveNames([{ metric: 'objective', weights: { north: 1 }, direction: 'maximize' },
 *   { metric: 'objective', weights: { south: 1 }, direction: 'maximize' }]); // ['north objective', 'south objective']
 * ```
 */
export function objectiveNames(objectives: readonly SweepObjective[]): string[] {
  const metrics = objectives.map((objective) => objective.metric);
  if (new Set(metrics).size === metrics.length) return metrics;
  return objectives.map(
    (objective) => `${Object.keys(objective.weights).join('+')} ${objective.metric}`,
  );
}

/** One row of a sweep's leaderboard, as `--json` prints it. */
export interface SweepTableRow {
  readonly rank: number;
  readonly index: number;
  /** Pointer -> value. */
  readonly parameters: Readonly<Record<string, JsonValue>>;
  readonly status: 'completed' | 'pruned' | 'failed' | 'running';
  /** The rung (1-based) that pruned it, and its checkpoint count; `null` unless pruned. */
  readonly prunedAt: { readonly rung: number; readonly checkpoints: number } | null;
  /** Its objective values: at its last checkpoint, or (pruned) at the rung that pruned it. */
  readonly objective: readonly (number | null)[] | null;
  readonly bestCheckpoint: {
    readonly checkpoint: number;
    readonly values: readonly (number | null)[];
  } | null;
  readonly checkpoints: number;
  readonly episodes: number;
  readonly runId: string | null;
  readonly error: string | null;
}

/** A sweep's table: its trials best first, and what pruning left unrun. */
export interface SweepTable {
  readonly sweepId: string;
  /** The stored status, except that a `running` sweep nobody runs any more is `interrupted`. */
  readonly status: SweepStatus | 'interrupted';
  /** Why an `interrupted` sweep is no longer running, else `null`. */
  readonly interruption: string | null;
  readonly trials: readonly SweepTableRow[];
  readonly decisions: SweepProgress['decisions'];
  readonly episodes: number;
}

/**
 * How far a trial stands, smaller first: completed trials; then by the rungs it
 * was kept at, a trial still in contention before one pruned at its next rung
 * (it was not beaten there); failed trials last.
 */
const standing = (trial: TrialProgress): readonly number[] => {
  if (trial.status === 'completed') return [0, 0, 0];
  if (trial.status === 'failed') return [2, 0, 0];
  const survived = trial.status === 'pruned' ? (trial.prunedAtRung ?? 0) : trial.rungIndex;
  return [1, -survived, trial.status === 'pruned' ? 1 : 0];
};

/**
 * A sweep's leaderboard from its progress and its trials' stored records:
 * completed trials first (best objective first); then by evidence, the trials
 * kept at more rungs first, and of those kept at as many, one still running
 * (an interrupted sweep's) before one pruned at the next rung, best first
 * within each; failed trials last; ties by index.
 *
 * @example
 * ```ts
 * sweepTable(sweepId, 'succeeded', progress, store).trials[0];
 * // { rank: 1, index: 5, status: 'completed', objective: [14.2], … }
 * ```
 */
export function sweepTable(
  sweepId: string,
  status: SweepStatus | 'interrupted',
  progress: SweepProgress,
  store: RunStore,
  interruption: string | null = null,
): SweepTable {
  const objectiveOf = (trial: TrialProgress): readonly (number | null)[] | null =>
    trial.status === 'pruned' && trial.prunedAtRung !== null
      ? (trial.evidence?.rungValues[trial.prunedAtRung] ?? null)
      : (trial.evidence?.lastValues ?? null);
  const blank = progress.objectives.map(() => null);
  const ordered = [...progress.trials].sort((a, b) => {
    const [left, right] = [standing(a), standing(b)];
    const byStanding = left.findIndex((value, at) => value !== right[at]);
    if (byStanding >= 0) return (left[byStanding] ?? 0) - (right[byStanding] ?? 0);
    const [first] = rankTrials(
      [a, b].map((trial) => ({
        trial: trial.index,
        values: objectiveOf(trial) ?? blank,
        prunable: true,
      })),
      progress.objectives,
    );
    return first === a.index ? -1 : 1;
  });
  let episodes = 0;
  const trials = ordered.map((trial, position): SweepTableRow => {
    const count = trial.runId === null ? 0 : store.episodes(trial.runId).length;
    episodes += count;
    return {
      rank: position + 1,
      index: trial.index,
      parameters: Object.fromEntries(
        trial.parameters.map(({ pointer, value }) => [pointer, value]),
      ),
      status: trial.status === 'held' || trial.status === 'pending' ? 'running' : trial.status,
      prunedAt:
        trial.status === 'pruned' && trial.prunedAtRung !== null
          ? {
              rung: trial.prunedAtRung + 1,
              checkpoints: progress.pruner.rungs[trial.prunedAtRung] ?? 0,
            }
          : null,
      objective: objectiveOf(trial),
      bestCheckpoint: trial.evidence?.best ?? null,
      checkpoints: trial.evidence?.checkpoints ?? 0,
      episodes: count,
      runId: trial.runId,
      error: trial.error,
    };
  });
  return { sweepId, status, interruption, trials, decisions: progress.decisions, episodes };
}

/** A parameter's value in the table: a drawn float to 4 significant digits (`--json` keeps it whole). */
const parameterText = (value: JsonValue | undefined): string =>
  typeof value === 'number' ? String(Number(value.toPrecision(4))) : JSON.stringify(value);

const number = (value: number | null | undefined): string =>
  value === null || value === undefined ? '-' : Number(value.toFixed(3)).toString();

/** The last token of a pointer (what a column is called), the whole pointer when two would clash. */
function columnNames(pointers: readonly string[]): string[] {
  const short = pointers.map((pointer) => pointer.split('/').filter(Boolean).at(-1) ?? pointer);
  return short.map((name, index) =>
    short.indexOf(name) !== short.lastIndexOf(name) ? (pointers[index] as string) : name,
  );
}

/**
 * The leaderboard as text: one line for the sweep, a table of its trials, and its decisions.
 *
 * @example
 * ```ts
 * sweepTableText(table);
 * // sweep plateau-sizes-20261202T…: succeeded, 8 trials: 4 completed, 4 pruned; 271 episodes
 * //   rank  trial  6  population  status            objective  best checkpoint  episodes
 * //   1     5      6  8           completed         14.2       #9: 14.2         46
 * ```
 */
export function sweepTableText(
  table: SweepTable,
  objectiveNames: readonly string[],
  names: readonly (string | undefined)[] = [],
): string {
  const count = (status: SweepTableRow['status']) =>
    table.trials.filter((trial) => trial.status === status).length;
  const tally = (['completed', 'pruned', 'failed', 'running'] as const)
    .map((status) => [count(status), status] as const)
    .filter(([n]) => n > 0)
    .map(([n, status]) => `${n} ${status}`)
    .join(', ');
  const pointers = Object.keys(table.trials[0]?.parameters ?? {});
  const header = [
    'rank',
    'trial',
    ...columnNames(pointers).map((name, column) => names[column] ?? name),
    'status',
    objectiveNames.length === 1 ? 'objective' : objectiveNames.join(' / '),
    'best checkpoint',
    'episodes',
  ];
  const rows = table.trials.map((trial) => [
    String(trial.rank),
    String(trial.index),
    ...pointers.map((pointer) => parameterText(trial.parameters[pointer])),
    trial.prunedAt !== null
      ? `pruned at rung ${trial.prunedAt.rung} (${trial.prunedAt.checkpoints})`
      : trial.status,
    (trial.objective ?? []).map(number).join(' / ') || '-',
    trial.bestCheckpoint === null
      ? '-'
      : `#${trial.bestCheckpoint.checkpoint}: ${trial.bestCheckpoint.values.map(number).join(' / ')}`,
    String(trial.episodes),
  ]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `  ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd();
  const decisions = table.decisions.map(
    (decision) =>
      `  rung ${decision.rungIndex + 1} (${decision.rung} checkpoints): ranked ${decision.ranking.join(', ')}; kept ${decision.kept.join(', ') || 'none'}; pruned ${decision.pruned.join(', ') || 'none'}${decision.median === null ? '' : `; median ${decision.median.map(number).join(' / ')}`}`,
  );
  return [
    `sweep ${table.sweepId}: ${table.status}, ${table.trials.length} trials: ${tally}; ${table.episodes} episodes`,
    line(header),
    ...rows.map(line),
    ...(decisions.length > 0 ? ['', 'decisions (trial indices, best first):', ...decisions] : []),
  ].join('\n');
}

/**
 * A stored sweep's progress (trials, rungs, decisions) as of its last decision:
 * the context of the sweep machine's persisted snapshot.
 *
 * @example
 * ```ts
 * storedSweepProgress(store.getSweep(sweepId)).decisions.length; // 2
 * ```
 */
export function storedSweepProgress(record: SweepRecord): SweepProgress {
  const state = record.state as { machine?: { context?: SweepProgress } } | null;
  const progress = state?.machine?.context;
  if (progress === undefined) throw new TypeError(`sweep '${record.sweepId}' has no stored state`);
  return progress;
}
