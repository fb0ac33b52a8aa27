/**
 * `arena-runtime/inspect`: watching machines run. arena's own viewer (a page
 * on 127.0.0.1 that needs no internet: `startViewer` gives an XState
 * `inspect` callback), the inspector relay (live, to Stately's inspector),
 * the trace recorder and timelines read back from a trace.
 *
 * @example
 * ```ts
 * import { buildTimeline, createTraceRecorder, formatTimeline, parseTrace } from 'arena-runtime/inspect';
 * const recorder = createTraceRecorder('trace.jsonl');
 * createActor(evaluationTerminationMachine, { input, inspect: recorder.inspect }).start();
 * recorder.close();
 * console.log(formatTimeline(buildTimeline(parseTrace(readFileSync('trace.jsonl', 'utf8'), 'trace.jsonl'))));
 *
 * const viewer = await startViewer({ port: 0 });
 * createActor(myMachine, { inspect: viewer.inspect }).start(); // open viewer.url
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
export type { LiveViewer, Viewer, ViewerOptions } from '../viewer/index.js';
export {
  DEFAULT_VIEW_HISTORY,
  MAX_VIEW_HISTORY,
  startTraceViewer,
  startViewer,
  ViewerOptionError,
  ViewerServerError,
} from '../viewer/index.js';
