/**
 * Watching a run's actors: the Stately inspector, offline traces, and the
 * `inspect` pass-through a host app uses to attach its own inspector.
 *
 * Every actor of a run (the simulation controller of each phase, the meta
 * turn, the evaluation termination machine, every promise actor) reports to
 * the one `inspect` observer given to `runExperiment`, because they share the
 * controller's actor system. A host app passes any XState inspection observer:
 * this module's trace recorder and inspector relay, `@statelyai/inspect`'s own
 * inspectors, or a plain function.
 *
 * @example
 * ```ts
 * import { combineInspectors, createTraceRecorder, runExperiment, startInspectorRelay } from 'arena';
 *
 * const relay = await startInspectorRelay({ port: 0 });   // http://127.0.0.1:PORT
 * const recorder = createTraceRecorder('trace.jsonl');
 * try {
 *   await runExperiment(spec, {
 *     store, builtins, runFileText,
 *     inspect: combineInspectors(relay.inspect, recorder.inspect, (event) => {
 *       if (event.type === '@xstate.snapshot') myDashboard.update(event.actorRef.id, event.snapshot);
 *     }),
 *   });
 * } finally {
 *   recorder.close();
 *   await relay.close();
 * }
 * ```
 * @module
 */
import type { InspectionEvent, Observer } from 'xstate';
import { directInspection } from './directInspection.js';

export type {
  ClientMessageCounts,
  InspectorRelay,
  InspectorRelayOptions,
} from './inspectorRelay.js';
export {
  InspectorOptionError,
  InspectorRelayError,
  startInspectorRelay,
} from './inspectorRelay.js';
export type { InspectorReplayOptions } from './inspectorReplay.js';
export type { JsonSafeOptions } from './jsonSafe.js';
export { toJsonSafe } from './jsonSafe.js';
export type { TraceEventType, TraceRecord, TraceSnapshot } from './traceRecord.js';
export { toTraceRecord } from './traceRecord.js';
export type { TraceRecorder } from './traceRecorder.js';
export { createTraceRecorder } from './traceRecorder.js';
export type { ActorTimeline, TimelineEntry } from './traceTimeline.js';
export {
  buildTimeline,
  formatTimeline,
  parseTrace,
  stateLabel,
  TraceFormatError,
} from './traceTimeline.js';

/** An XState `inspect` option: an observer or a plain function. */
export type InspectOption = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * One `inspect` observer that hands every event to each of `inspectors` in
 * order (skipping `undefined`), or `undefined` when none is given. An
 * inspector that throws does not stop the others or the run.
 *
 * @example
 * ```ts
 * const seen: string[] = [];
 * const inspect = combineInspectors(recorder.inspect, undefined, (event) => seen.push(event.type));
 * createActor(machine, { inspect }).start();
 * seen; // ['@xstate.actor', '@xstate.event', '@xstate.snapshot']
 * combineInspectors(undefined); // undefined
 * ```
 */
export function combineInspectors(
  ...inspectors: readonly (InspectOption | undefined)[]
): Observer<InspectionEvent> | undefined {
  const handlers = inspectors
    .filter((inspector): inspector is InspectOption => inspector !== undefined)
    .map((inspector) =>
      typeof inspector === 'function'
        ? inspector
        : (event: InspectionEvent) => inspector.next?.(event),
    );
  if (handlers.length === 0) return undefined;
  return directInspection({
    next(event: InspectionEvent) {
      for (const handler of handlers) {
        try {
          handler(event);
        } catch {
          // An observer's failure must not break the run or the other observers.
        }
      }
    },
  });
}
