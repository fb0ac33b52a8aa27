import { closeSync, openSync, writeSync } from 'node:fs';
import type { InspectionEvent, Observer } from 'xstate';
import { toTraceRecord } from './traceRecord.js';

/** Buffered trace text written to the file once it grows past this many characters. */
const FLUSH_AT_CHARS = 64 * 1024;

/** Records every inspection event of an actor system to a JSONL file. */
export interface TraceRecorder {
  /** Pass it as XState's `inspect` option (or `runExperiment`'s). */
  readonly inspect: Observer<InspectionEvent>;
  /** The file written to. */
  readonly path: string;
  /** Events recorded so far. */
  readonly recordedEvents: number;
  /** Write what is buffered and close the file; later events are ignored. Idempotent. */
  close(): void;
}

/**
 * Record every inspection event (actor, event, snapshot, transition,
 * microstep, action) as one JSON line of a {@link TraceRecord}, offline:
 * no server, no live objects, non-finite numbers tagged. The file is created
 * (or truncated) now; lines are buffered and written in batches, and
 * everything is on disk after `close()`. Read it back with `arena trace`.
 *
 * @example
 * ```ts
 * import { createTraceRecorder, runExperiment } from 'arena';
 *
 * const recorder = createTraceRecorder('run-trace.jsonl');
 * try {
 *   await runExperiment(spec, { store, builtins, runFileText, inspect: recorder.inspect });
 * } finally {
 *   recorder.close();
 * }
 * // run-trace.jsonl, one line per event:
 * // {"seq":0,"at":0.4,"type":"@xstate.actor","sessionId":"x:0","actorId":"x:0",...}
 * // $ arena trace run-trace.jsonl
 * ```
 */
export function createTraceRecorder(
  path: string,
  options: { readonly now?: () => number } = {},
): TraceRecorder {
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  let descriptor: number | null = openSync(path, 'w');
  let buffered: string[] = [];
  let bufferedChars = 0;
  let recordedEvents = 0;

  const flush = (): void => {
    if (descriptor === null || buffered.length === 0) return;
    writeSync(descriptor, buffered.join(''));
    buffered = [];
    bufferedChars = 0;
  };

  return {
    path,
    get recordedEvents() {
      return recordedEvents;
    },
    inspect: {
      next(event: InspectionEvent) {
        if (descriptor === null) return;
        const at = Math.round((now() - startedAt) * 1000) / 1000;
        const line = `${JSON.stringify(toTraceRecord(event, recordedEvents, at))}\n`;
        recordedEvents += 1;
        buffered.push(line);
        bufferedChars += line.length;
        if (bufferedChars >= FLUSH_AT_CHARS) flush();
      },
    },
    close() {
      if (descriptor === null) return;
      flush();
      closeSync(descriptor);
      descriptor = null;
    },
  };
}
