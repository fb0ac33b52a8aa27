import type { TerminationConfig } from '../../domain/termination/config.js';
import type { TerminationReason } from '../../domain/termination/state.js';
import type { ReplayStep } from './terminationReplay.js';

const headings = [
  'line',
  'agent',
  'evaluation',
  'status',
  'metric',
  'smoothed',
  'streak',
  'patience',
  'best',
  'decision',
] as const;

/** What one replay step prints in the table: agent rows, or a note for the whole line. */
export type TableEntry =
  | { readonly kind: 'row'; readonly cells: readonly string[] }
  | { readonly kind: 'note'; readonly line: number; readonly text: string };

/**
 * The table entries of one replay step: one row per agent, or one note for a
 * rejected checkpoint or one that came after termination.
 *
 * @example
 * ```ts
 * tableEntries(config, { line: 4, rejected: { name: 'E', code: 'C', message: 'm' } });
 * // [{ kind: 'note', line: 4, text: 'rejected: E: m' }]
 * ```
 */
export function tableEntries(config: TerminationConfig, step: ReplayStep): TableEntry[] {
  if ('rejected' in step) {
    const text = `rejected: ${step.rejected.name}: ${step.rejected.message}`;
    return [{ kind: 'note', line: step.line, text }];
  }
  const { decision } = step;
  const verdict =
    decision.reason === null ? decision.control : `${decision.control} ${decision.reason}`;
  if (decision.report.checkpoint === 'afterTermination') {
    return [{ kind: 'note', line: step.line, text: `not applied: already terminated; ${verdict}` }];
  }
  return decision.report.agents.map((agent) => {
    const rules = config.agents[agent.agentName];
    const evaluation =
      agent.evaluationId === null
        ? '-'
        : `${agent.evaluationId} #${agent.evaluationEpisode ?? '?'}`;
    const cells = [
      String(step.line),
      agent.agentName,
      evaluation,
      agent.status,
      formatNumber(agent.successValue),
      formatNumber(agent.smoothedValue),
      rules?.success ? `${agent.successStreak}/${rules.success.consecutive}` : '-',
      rules?.plateau ? `${agent.plateauPatience}/${rules.plateau.patience}` : '-',
      formatNumber(agent.bestMetric),
      verdict,
    ];
    return { kind: 'row', cells };
  });
}

/**
 * Column widths grown one row at a time, so a table of any length is aligned
 * without holding its rows.
 *
 * @example
 * ```ts
 * const widths = new ColumnWidths();
 * widths.add(['1', 'PPO', 'ppo-0 #0']);
 * widths.render(['line', 'agent']); // 'line  agent'
 * ```
 */
export class ColumnWidths {
  private readonly widths: number[] = headings.map((heading) => heading.length);

  /** Widen the columns to fit `cells`. */
  add(cells: readonly string[]): void {
    cells.forEach((cell, column) => {
      if (cell.length > (this.widths[column] ?? 0)) this.widths[column] = cell.length;
    });
  }

  /** The header line. */
  header(): string {
    return this.render(headings);
  }

  /** One padded line of `cells`, without trailing blanks. */
  render(cells: readonly string[]): string {
    return cells
      .map((cell, column) => cell.padEnd(this.widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  }

  /** One entry as a line: a row padded, a note after its line number. */
  entry(entry: TableEntry): string {
    if (entry.kind === 'row') return this.render(entry.cells);
    return `${String(entry.line).padEnd(this.widths[0] ?? 0)}  ${entry.text}`;
  }
}

/**
 * The table's closing line.
 *
 * @example
 * ```ts
 * finalLine({ reason: 'success', reasonLine: 6, checkpoints: 6 }); // 'final reason: success (line 6)'
 * ```
 */
export function finalLine(outcome: {
  readonly reason: TerminationReason | null;
  readonly reasonLine: number | null;
  readonly checkpoints: number;
}): string {
  return outcome.reason === null
    ? `final reason: none (still active after ${outcome.checkpoints} checkpoints)`
    : `final reason: ${outcome.reason} (line ${outcome.reasonLine})`;
}

function formatNumber(value: number | null): string {
  if (value === null) return '-';
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}
