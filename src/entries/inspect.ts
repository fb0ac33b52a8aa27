/**
 * `arena-runtime/inspect`: watching machines run. The inspector relay (live,
 * to Stately's inspector or a local page), the trace recorder and timelines
 * read back from a trace.
 *
 * @example
 * ```ts
 * import { buildTimeline, createTraceRecorder, formatTimeline, parseTrace } from 'arena-runtime/inspect';
 * const recorder = createTraceRecorder('trace.jsonl');
 * createActor(evaluationTerminationMachine, { input, inspect: recorder.inspect }).start();
 * recorder.close();
 * console.log(formatTimeline(buildTimeline(parseTrace(readFileSync('trace.jsonl', 'utf8'), 'trace.jsonl'))));
 * ```
 */

export type {
  ActorTimeline,
  ClientMessageCounts,
  InspectOption,
  InspectorRelay,
  InspectorRelayOptions,
  InspectorReplayOptions,
  TimelineEntry,
  TraceEventType,
  TraceRecord,
  TraceRecorder,
  TraceSnapshot,
} from '../actors/inspection/inspection.js';
export {
  buildTimeline,
  combineInspectors,
  createTraceRecorder,
  formatTimeline,
  InspectorOptionError,
  InspectorRelayError,
  parseTrace,
  startInspectorRelay,
  TraceFormatError,
  toTraceRecord,
} from '../actors/inspection/inspection.js';
