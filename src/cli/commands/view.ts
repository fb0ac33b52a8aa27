import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { TraceRecord } from '../../actors/inspection/traceRecord.js';
import { parseTrace, TraceFormatError } from '../../actors/inspection/traceTimeline.js';
import { startTraceViewer } from '../../viewer/startViewer.js';
import { CliError } from '../errors.js';
import { onInterrupt } from '../interrupts.js';
import { parsePort, parseWait } from './viewOptions.js';

/**
 * Register `arena view <trace.jsonl>`: replay a recorded trace (`arena run
 * --trace`) in arena's own viewer page, on 127.0.0.1, offline: every actor,
 * its statechart lit at each step, its events, and a scrubber from the start.
 * It serves until Enter (on a terminal), Ctrl-C, or `--view-wait` seconds.
 *
 * @example
 * ```sh
 * arena view trace.jsonl
 * # arena: viewer at http://127.0.0.1:40123/9c1e…/ (open it in a browser; it loads nothing from the internet)
 * ```
 */
export function registerViewCommand(program: Command): void {
  program
    .command('view')
    .description(
      "replay a recorded trace (arena run --trace) in arena's own lifecycle viewer, served on 127.0.0.1 (offline)",
    )
    .argument('<trace>', 'the JSONL trace file')
    .option('--view-port <port>', 'the viewer port (default 0: a free port)')
    .option(
      '--view-wait <seconds>',
      'close after a page has the whole trace or the seconds pass (default: serve until Enter or Ctrl-C)',
    )
    .action(async (tracePath: string, options: { viewPort?: string; viewWait?: string }) => {
      const port = parsePort(options.viewPort);
      const waitSeconds = parseWait(options.viewWait);
      const records = readTrace(tracePath);
      let viewer: Awaited<ReturnType<typeof startTraceViewer>>;
      try {
        viewer = await startTraceViewer(records, { port, title: tracePath });
      } catch (error) {
        throw new CliError(
          `--view-port: ${(error as Error).message}; choose another port with --view-port N (0 for any free port)`,
        );
      }
      process.stderr.write(
        `arena: viewer at ${viewer.url} (open it in a browser; it loads nothing from the internet)\n`,
      );
      process.stderr.write(
        `arena: ${records.length} trace records; ${waitSeconds === null ? 'Enter or Ctrl-C closes the viewer' : `closing after a page has them all, or in ${waitSeconds} s`}\n`,
      );
      const abort = new AbortController();
      const release = onInterrupt(abort, 'closing the viewer');
      try {
        if (waitSeconds !== null) await viewer.waitForViewer(waitSeconds * 1000);
        else await untilEnterOrAbort(abort.signal);
      } finally {
        release();
        await viewer.close();
      }
    });
}

function readTrace(tracePath: string): TraceRecord[] {
  let text: string;
  try {
    text = readFileSync(tracePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliError(`${tracePath}: cannot read the file (${code})`);
  }
  try {
    return parseTrace(text, tracePath);
  } catch (error) {
    if (error instanceof TraceFormatError) throw new CliError(error.message);
    throw error;
  }
}

/** Serve until a line on stdin (a terminal's Enter, or a closed pipe) or the signal. */
function untilEnterOrAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      process.stdin.off('data', done);
      process.stdin.off('end', done);
      process.stdin.pause();
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    if (process.stdin.isTTY) {
      process.stdin.once('data', done);
    }
  });
}
