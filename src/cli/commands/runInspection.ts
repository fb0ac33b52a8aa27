import { createInterface } from 'node:readline';
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
import { shellWord } from '../storeArgument.js';

/** The `arena run` options that watch a run. */
export interface RunInspectionOptions {
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
/** The longest `--inspect-wait`: a day. */
const MAX_INSPECT_WAIT_SECONDS = 86_400;

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
  let relay: InspectorRelay | null = null;
  if (wantsRelay) {
    try {
      relay = await startInspectorRelay({ port });
    } catch (error) {
      recorder?.close();
      throw new CliError(
        `--inspect: ${(error as Error).message}; choose another port with --inspect-port N (0 for any free port)`,
      );
    }
    process.stderr.write(
      `arena: inspector at ${relay.url} (open it in a browser; relay ${relay.webSocketUrl})\n`,
    );
  }
  return {
    inspect: combineInspectors(relay?.inspect, recorder?.inspect),
    async finish() {
      if (recorder !== null) {
        recorder.close();
        process.stderr.write(
          `arena: trace of ${recorder.recordedEvents} inspection events in ${recorder.path} (see it with: ${arenaCommand(`trace ${shellWord(recorder.path)}`)})\n`,
        );
      }
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
  if (raw === undefined) return DEFAULT_INSPECT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port > 65_535) {
    throw new CliError(
      `--inspect-port must be a port number from 0 to 65535 (0 picks a free one), got ${JSON.stringify(raw)}`,
    );
  }
  return port;
}

function parseWait(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const seconds = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(seconds) ||
    seconds < 0 ||
    seconds > MAX_INSPECT_WAIT_SECONDS
  ) {
    throw new CliError(
      `--inspect-wait must be a number of seconds from 0 to ${MAX_INSPECT_WAIT_SECONDS}, got ${JSON.stringify(raw)}`,
    );
  }
  return seconds;
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

function waitForEnter(): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    const done = () => {
      lines.close();
      process.stdin.pause();
      resolve();
    };
    lines.once('line', done);
    lines.once('close', done);
    lines.once('SIGINT', done);
  });
}
