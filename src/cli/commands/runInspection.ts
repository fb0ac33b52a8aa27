import type { InspectionEvent, Observer } from 'xstate';
import { combineInspectors } from '../../actors/inspection/inspection.js';
import {
  DEFAULT_MAX_VIEWER_BUFFER_BYTES,
  type InspectorRelay,
  startInspectorRelay,
} from '../../actors/inspection/inspectorRelay.js';
import { createTraceRecorder, type TraceRecorder } from '../../actors/inspection/traceRecorder.js';
import { arenaCommand } from '../../ports/runtime/arenaCommand.js';
import { CliError } from '../errors.js';
import { portFlag, waitFlag, waitForEnter } from '../serverFlags.js';
import { shellWord } from '../storeArgument.js';
import { type CommandViewer, startCommandViewer, type ViewFlags } from './viewOptions.js';

/** The `arena run` options that watch a run (and `--view`'s, arena's own viewer). */
export interface RunInspectionOptions extends ViewFlags {
  /** `--inspect`: start the Stately inspector relay. */
  readonly inspect?: boolean;
  /** `--inspect-port <port>`: its port (implies `--inspect`; 0 picks a free port). */
  readonly inspectPort?: string;
  /** `--inspect-wait <seconds>`: after the run, wait this long for a viewer (implies `--inspect`). */
  readonly inspectWait?: string;
  /** `--trace <file.jsonl>`: record every inspection event to this file. */
  readonly trace?: string;
}

/** What `arena run` watches the run with, and how it lets go at the end. */
export interface RunInspection {
  /** The `inspect` observer for `runExperiment`, `undefined` when nothing watches. */
  readonly inspect: Observer<InspectionEvent> | undefined;
  /**
   * After the run: close the trace, let the inspector page catch up, wait for
   * a viewer (`--inspect-wait`) or for Enter when stdin is a terminal, close
   * the relay, and make sure the process exits (with `process.exitCode`) even
   * if a socket lingers.
   */
  finish(): Promise<void>;
}

/** The relay's default port, Stately's. */
export const DEFAULT_INSPECT_PORT = 8080;
/** How long a finished run may linger before it exits anyway. */
const EXIT_GRACE_MS = 3000;

/**
 * Start what `--inspect`, `--inspect-port`, `--inspect-wait` and `--trace`
 * ask for; print the inspector URL (and the trace path) on stderr.
 *
 * @throws CliError (exit code 2) for a bad port or wait, a taken port or an unwritable trace file.
 * @example
 * ```ts
 * const inspection = await startRunInspection({ inspect: true, inspectPort: '0', trace: 't.jsonl' });
 * // stderr: arena: inspector at http://127.0.0.1:40123 (open it in a browser; relay ws://127.0.0.1:40123)
 * await runExperiment(spec, { ...options, inspect: inspection.inspect });
 * await inspection.finish();
 * ```
 */
export async function startRunInspection(options: RunInspectionOptions): Promise<RunInspection> {
  const wantsRelay =
    options.inspect === true ||
    options.inspectPort !== undefined ||
    options.inspectWait !== undefined;
  const waitSeconds = parseWait(options.inspectWait);
  const port = parsePort(options.inspectPort);
  let recorder: TraceRecorder | null = null;
  if (options.trace !== undefined) {
    try {
      recorder = createTraceRecorder(options.trace);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new CliError(`--trace ${options.trace}: cannot write the file (${code})`);
    }
  }
  let viewer: CommandViewer | null = null;
  try {
    viewer = await startCommandViewer(options, 'arena run');
  } catch (error) {
    recorder?.close();
    throw error;
  }
  let relay: InspectorRelay | null = null;
  if (wantsRelay) {
    try {
      relay = await startInspectorRelay({ port });
    } catch (error) {
      recorder?.close();
      await viewer?.close();
      throw new CliError(
        `--inspect: ${(error as Error).message}; choose another port with --inspect-port N (0 for any free port)`,
      );
    }
    process.stderr.write(
      `arena: inspector at ${relay.url} (open it in a browser; relay ${relay.webSocketUrl})\n`,
    );
  }
  return {
    inspect: combineInspectors(relay?.inspect, viewer?.inspect, recorder?.inspect),
    async finish() {
      if (recorder !== null) {
        recorder.close();
        process.stderr.write(
          `arena: trace of ${recorder.recordedEvents} inspection events in ${recorder.path} (see it with: ${arenaCommand(`trace ${shellWord(recorder.path)}`)})\n`,
        );
      }
      await viewer?.finish();
      if (relay === null) return;
      await relay.flush();
      if (waitSeconds !== null) {
        await waitForViewer(relay, waitSeconds);
      } else if (process.stdin.isTTY) {
        process.stderr.write(
          `arena: the run is over; press Enter to close the inspector at ${relay.url}\n`,
        );
        await waitForEnter();
      }
      await relay.close();
      const { dropped } = relay.clientMessages;
      if (dropped > 0) {
        process.stderr.write(
          `arena: the inspector dropped ${dropped} message${dropped === 1 ? '' : 's'} from clients (viewers may send only the Stately inspector's control messages)\n`,
        );
      }
      const viewers = relay.droppedViewers;
      if (viewers > 0) {
        process.stderr.write(
          `arena: the inspector cut off ${viewers} viewer${viewers === 1 ? '' : 's'} that stopped reading (over ${DEFAULT_MAX_VIEWER_BUFFER_BYTES / 1024 / 1024} MiB unread; a page reloaded reconnects)\n`,
        );
      }
      // The last resort: whatever still holds the event loop, the command ends
      // with the exit code it has set by then.
      setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
    },
  };
}

function parsePort(raw: string | undefined): number {
  return portFlag('--inspect-port', raw, DEFAULT_INSPECT_PORT);
}

function parseWait(raw: string | undefined): number | null {
  return waitFlag('--inspect-wait', raw);
}

/** Keep the relay up until a viewer has the whole run, or the seconds pass. */
async function waitForViewer(relay: InspectorRelay, seconds: number): Promise<void> {
  process.stderr.write(
    `arena: the run is over; waiting up to ${seconds} s for a viewer at ${relay.url} (relay ${relay.webSocketUrl})\n`,
  );
  const seen = await relay.waitForViewer(seconds * 1000);
  process.stderr.write(
    seen
      ? 'arena: a viewer has the whole run; closing the inspector\n'
      : `arena: no viewer connected within ${seconds} s; closing the inspector\n`,
  );
}
