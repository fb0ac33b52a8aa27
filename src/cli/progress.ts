/** A one-line progress bar on a terminal; a no-op elsewhere. */
export interface ProgressBar {
  /** Redraw with `done` of `total` finished and an optional note (e.g. "3 errors"). */
  update(done: number, extra?: string): void;
  /** Clear the line (the caller prints its own summary). */
  finish(): void;
}

export interface ProgressBarOptions {
  readonly total: number;
  readonly label: string;
  /** Usually `process.stderr`; nothing is drawn unless it is a TTY. */
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Redraw at most this often; default 100 ms (the last update always draws). */
  readonly minIntervalMs?: number;
}

/**
 * A small, dependency-free progress bar for long CLI commands. It draws on
 * `stream` only when that stream is a TTY, so piped output and CI logs stay clean.
 *
 * @example
 * ```ts
 * const bar = createProgressBar({ total: 200, label: 'judging', stream: process.stderr });
 * bar.update(50, '2 errors'); // on a 60-column TTY: judging [###.......]  50/200  25%  2 errors
 * bar.finish();
 * ```
 */
export function createProgressBar(options: ProgressBarOptions): ProgressBar {
  const { stream, total, label } = options;
  if (stream.isTTY !== true) return { update: () => undefined, finish: () => undefined };
  const minIntervalMs = options.minIntervalMs ?? 100;
  // the terminal's width when the bar starts: a later resize does not change the bar under the reader
  const columns = stream.columns || 80;
  let lastDrawMs = Number.NEGATIVE_INFINITY;
  return {
    update(done, extra = '') {
      const now = performance.now();
      if (done < total && now - lastDrawMs < minIntervalMs) return;
      lastDrawMs = now;
      stream.write(`\r\x1b[2K${formatProgressLine(done, total, label, extra, columns)}`);
    },
    finish() {
      stream.write('\r\x1b[2K');
    },
  };
}

/**
 * Columns kept for the note after the counts (`eval objective 0.8123 | active`,
 * `12 errors`), so a note never resizes the bar; the bar is at most
 * `BAR_MOST` wide, and a wider terminal gives the note the rest.
 */
const NOTE_ROOM = 40;
const BAR_MOST = 40;

/**
 * The text of one progress line, fitted to `columns`. The bar's width
 * depends only on `columns`, `label` and `total`, never on the note, so it
 * keeps one width for the bar's whole life; a note longer than its room is cut
 * at the line's end.
 *
 * @example
 * ```ts
 * formatProgressLine(1, 4, 'judging', '', 60);        // 'judging [###.......] 1/4  25%'
 * formatProgressLine(1, 4, 'judging', 'running', 60); // 'judging [###.......] 1/4  25%  running'
 * formatProgressLine(12, 60, 'explore_1 (train)', 'eval objective 0.8123 | active', 160);
 * // 'explore_1 (train) [########................................] 12/60  20%  eval objective 0.8123 | active'
 * ```
 */
export function formatProgressLine(
  done: number,
  total: number,
  label: string,
  extra: string,
  columns: number,
): string {
  if (total <= 0) {
    // No known total (a cap-free phase): a count, no bar.
    return `${label} ${done} done${extra ? `  ${extra}` : ''}`.slice(0, Math.max(1, columns - 1));
  }
  const fraction = Math.min(1, done / total);
  const width = String(total).length;
  const counts = `${String(done).padStart(width)}/${total} ${String(Math.round(fraction * 100)).padStart(3)}%`;
  const suffix = extra ? `  ${extra}` : '';
  const barWidth = Math.min(
    BAR_MOST,
    Math.max(10, columns - label.length - counts.length - NOTE_ROOM - 6),
  );
  const filled = Math.round(fraction * barWidth);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${counts}${suffix}`.slice(
    0,
    Math.max(1, columns - 1),
  );
}
