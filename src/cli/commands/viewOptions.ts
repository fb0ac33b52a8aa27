import type { Command } from 'commander';
import type { InspectionEvent, Observer } from 'xstate';
import {
  DEFAULT_VIEW_HISTORY,
  type LiveViewer,
  MAX_VIEW_HISTORY,
  startViewer,
} from '../../viewer/startViewer.js';
import { CliError } from '../errors.js';
import { portFlag, waitFlag, waitForEnter } from '../serverFlags.js';

/** The options that serve arena's own viewer while a command runs. */
export interface ViewFlags {
  /** `--view`: serve the viewer page on 127.0.0.1. */
  readonly view?: boolean;
  /** `--view-port <port>` (implies `--view`; 0 picks a free port, the default). */
  readonly viewPort?: string;
  /** `--view-wait <seconds>`: after the end, keep the page up until it has everything, or the seconds pass. */
  readonly viewWait?: string;
  /** `--view-history <n>`: events kept per actor. */
  readonly viewHistory?: string;
}

/**
 * Add `--view`, `--view-port`, `--view-wait` and `--view-history` to a
 * command.
 *
 * @example
 * ```ts
 * withViewOptions(program.command('run'));
 * // arena run file.yaml --view --view-port 0 --view-wait 30
 * ```
 */
export function withViewOptions(command: Command): Command {
  return command
    .option(
      '--view',
      "serve arena's own lifecycle viewer on 127.0.0.1 while it runs (offline: the page loads nothing from the internet); prints its URL",
    )
    .option('--view-port <port>', 'the viewer port (implies --view; default 0: a free port)')
    .option(
      '--view-wait <seconds>',
      'after the end, keep the viewer up until a page has everything or the seconds pass (implies --view)',
    )
    .option(
      '--view-history <n>',
      `events the viewer keeps per actor (implies --view; default ${DEFAULT_VIEW_HISTORY}, at most ${MAX_VIEW_HISTORY})`,
    );
}

/** A viewer started for a command, and how it lets go at the end. */
export interface CommandViewer {
  readonly inspect: Observer<InspectionEvent>;
  readonly url: string;
  /** Wait as `--view-wait` (or for Enter on a terminal) says, then close every socket. */
  finish(): Promise<void>;
  /** Close at once (the command failed before it ran). */
  close(): Promise<void>;
}

/**
 * Check the view flags (a bad one is exit 2 before anything runs) and start
 * the viewer when asked; print its URL on stderr.
 *
 * @throws CliError (exit code 2) for a bad port, wait or history, or a taken port.
 * @example
 * ```ts
 * const viewer = await startCommandViewer({ view: true }, 'arena run examples/two-feeders.yaml');
 * // stderr: arena: viewer at http://127.0.0.1:40123/9c1e…/ (open it in a browser; it loads nothing from the internet)
 * ```
 */
export async function startCommandViewer(
  flags: ViewFlags,
  title: string,
): Promise<CommandViewer | null> {
  const port = parsePort(flags.viewPort);
  const history = parseHistory(flags.viewHistory);
  const waitSeconds = parseWait(flags.viewWait);
  if (!viewWanted(flags)) return null;
  let viewer: LiveViewer;
  try {
    viewer = await startViewer({ port, history, title });
  } catch (error) {
    throw new CliError(
      `--view: ${(error as Error).message}; choose another port with --view-port N (0 for any free port)`,
    );
  }
  process.stderr.write(
    `arena: viewer at ${viewer.url} (open it in a browser; it loads nothing from the internet)\n`,
  );
  return {
    inspect: viewer.inspect,
    url: viewer.url,
    close: () => viewer.close(),
    async finish() {
      if (waitSeconds !== null) {
        process.stderr.write(
          `arena: finished; keeping the viewer up to ${waitSeconds} s for a page at ${viewer.url}\n`,
        );
        const seen = await viewer.waitForViewer(waitSeconds * 1000);
        process.stderr.write(
          seen
            ? 'arena: a page has everything; closing the viewer\n'
            : `arena: no page connected within ${waitSeconds} s; closing the viewer\n`,
        );
      } else if (process.stdin.isTTY) {
        process.stderr.write(`arena: finished; press Enter to close the viewer at ${viewer.url}\n`);
        await waitForEnter();
      }
      await viewer.close();
      if (viewer.droppedViewers > 0) {
        process.stderr.write(
          `arena: the viewer cut off ${viewer.droppedViewers} page(s) that stopped reading (a page reloaded starts over)\n`,
        );
      }
    },
  };
}

/**
 * Whether the flags ask for the viewer: `--view`, or any flag that implies it.
 *
 * @example
 * ```ts
 * viewWanted({ viewWait: '30' }); // true
 * viewWanted({});                 // false
 * ```
 */
export function viewWanted(flags: ViewFlags): boolean {
  return (
    flags.view === true ||
    flags.viewPort !== undefined ||
    flags.viewWait !== undefined ||
    flags.viewHistory !== undefined
  );
}

/**
 * Check every view flag without starting anything: a command calls it before
 * it touches a store, so a bad flag leaves nothing behind.
 *
 * @throws CliError (exit code 2) naming the flag and what it takes.
 * @example
 * ```ts
 * checkViewFlags({ viewHistory: '0' });
 * // CliError: --view-history must be a whole number of events per actor from 1 to 100000, got "0"
 * ```
 */
export function checkViewFlags(flags: ViewFlags): void {
  parsePort(flags.viewPort);
  parseHistory(flags.viewHistory);
  parseWait(flags.viewWait);
}

/**
 * `--view-port`: 0 when not given, else a port number.
 *
 * @example
 * ```ts
 * parsePort(undefined); // 0
 * parsePort('80x');     // CliError: --view-port must be a port number from 0 to 65535 (0 picks a free one), got "80x"
 * ```
 */
export function parsePort(raw: string | undefined): number {
  return portFlag('--view-port', raw, 0);
}

function parseHistory(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_VIEW_HISTORY;
  const history = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || history < 1 || history > MAX_VIEW_HISTORY) {
    throw new CliError(
      `--view-history must be a whole number of events per actor from 1 to ${MAX_VIEW_HISTORY}, got ${JSON.stringify(raw)}`,
    );
  }
  return history;
}

/** `--view-wait`: `null` when not given, else seconds from 0 to a day. */
export function parseWait(raw: string | undefined): number | null {
  return waitFlag('--view-wait', raw);
}
