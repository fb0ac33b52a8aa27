import { ArenaError } from '../../domain/shared/errors.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { valueLabel } from '../../domain/shared/stateValueLabel.js';
import type { TraceEventType, TraceRecord, TraceSnapshot } from './traceRecord.js';

/**
 * A trace file line that is not a trace record.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'TRACE_FORMAT'); // true when `error` is a TraceFormatError
 * error instanceof TraceFormatError && error.name; // 'TraceFormatError'
 * ```
 */
export class TraceFormatError extends ArenaError {
  constructor(message: string) {
    super('TRACE_FORMAT', message);
  }
}

/** One state change of one actor. */
export interface TimelineEntry {
  /** Milliseconds since the trace started. */
  readonly at: number;
  /** The event that caused it (`xstate.init` for the first state). */
  readonly event: string | null;
  /** The state before, `null` for the first. */
  readonly from: string | null;
  readonly to: string;
  /** The snapshot status after it: `active`, `done`, `error` or `stopped`. */
  readonly status: string;
}

/** Everything a trace says about one actor. */
export interface ActorTimeline {
  readonly sessionId: string;
  readonly actorId: string;
  readonly machineId: string | null;
  readonly parentId: string | null;
  /** The run phase whose controller this actor is, or runs under; `null` outside a phase. */
  readonly phase: string | null;
  /** When the actor was created, `null` if the trace missed it. */
  readonly createdAt: number | null;
  /** Events the actor received. */
  readonly receivedEvents: number;
  readonly entries: readonly TimelineEntry[];
}

const eventTypes: ReadonlySet<string> = new Set<TraceEventType>([
  '@xstate.actor',
  '@xstate.event',
  '@xstate.snapshot',
  '@xstate.transition',
  '@xstate.microstep',
  '@xstate.action',
]);

/**
 * Read a JSONL trace (what `createTraceRecorder` and `arena run --trace`
 * write): one record per non-blank line.
 *
 * @throws TraceFormatError naming the source and line of a bad line.
 * @example
 * ```ts
 * parseTrace(readFileSync('trace.jsonl', 'utf8'), 'trace.jsonl')[0];
 * // { seq: 0, at: 0.4, type: '@xstate.actor', sessionId: 'x:0', actorId: 'x:0', … }
 * ```
 */
export function parseTrace(text: string, source: string): TraceRecord[] {
  const records: TraceRecord[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new TraceFormatError(
        `${source}:${index + 1}: invalid JSON: ${(error as Error).message}`,
      );
    }
    const record = parsed as Partial<Record<keyof TraceRecord, unknown>>;
    const problem =
      typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)
        ? 'a trace record must be a JSON object'
        : typeof record.at !== 'number'
          ? '"at" must be a number of milliseconds'
          : typeof record.type !== 'string' || !eventTypes.has(record.type)
            ? `"type" must be one of ${[...eventTypes].join(', ')}`
            : typeof record.sessionId !== 'string'
              ? '"sessionId" must be a string'
              : null;
    if (problem !== null) throw new TraceFormatError(`${source}:${index + 1}: ${problem}`);
    records.push(parsed as TraceRecord);
  });
  return records;
}

/**
 * Per actor, in the order they appear: its identity and its state changes
 * (from `@xstate.snapshot` records), with the event that caused each.
 *
 * @example
 * ```ts
 * buildTimeline(records)[0];
 * // { sessionId: 'x:0', actorId: 'x:0', machineId: 'evaluationTermination', parentId: null,
 * //   phase: null, createdAt: 0, receivedEvents: 2, entries: [
 * //     { at: 0.1, event: 'xstate.init', from: null, to: 'active', status: 'active' },
 * //     { at: 3.2, event: 'evaluation.checkpoint', from: 'active', to: 'success', status: 'done' } ] }
 * ```
 */
export function buildTimeline(records: readonly TraceRecord[]): ActorTimeline[] {
  const timelines = new Map<
    string,
    {
      sessionId: string;
      actorId: string;
      machineId: string | null;
      parentId: string | null;
      rootId: string | null;
      phase: string | null;
      createdAt: number | null;
      receivedEvents: number;
      entries: TimelineEntry[];
    }
  >();
  for (const record of records) {
    let timeline = timelines.get(record.sessionId);
    if (timeline === undefined) {
      timeline = {
        sessionId: record.sessionId,
        actorId: typeof record.actorId === 'string' ? record.actorId : record.sessionId,
        machineId: record.machineId ?? null,
        parentId: record.parentId ?? null,
        rootId: typeof record.rootId === 'string' ? record.rootId : null,
        phase: null,
        createdAt: null,
        receivedEvents: 0,
        entries: [],
      };
      timelines.set(record.sessionId, timeline);
    }
    if (record.type === '@xstate.actor') timeline.createdAt = record.at;
    if (typeof record.phase === 'string') timeline.phase ??= record.phase;
    if (record.type === '@xstate.event') timeline.receivedEvents += 1;
    if (record.type !== '@xstate.snapshot' || record.snapshot === null) continue;
    const to = stateLabel(record.snapshot);
    const last = timeline.entries.at(-1);
    if (last !== undefined && last.to === to && last.status === record.snapshot.status) continue;
    timeline.entries.push({
      at: record.at,
      event: eventType(record.event),
      from: last?.to ?? null,
      to,
      status: record.snapshot.status,
    });
  }
  // An actor belongs to the phase of its root, the controller that runs it.
  return [...timelines.values()].map(({ rootId, ...timeline }) => ({
    ...timeline,
    phase:
      timeline.phase ??
      (rootId === null || rootId === timeline.sessionId
        ? null
        : (timelines.get(rootId)?.phase ?? null)),
  }));
}

/**
 * A readable name for a snapshot's state: the state value as a dotted path
 * (`running.acting`; parallel regions joined with `, `), or the status for
 * logic without states (promises, callbacks).
 *
 * @example
 * ```ts
 * stateLabel({ status: 'active', value: { running: 'acting' }, error: null }); // 'running.acting'
 * stateLabel({ status: 'done', value: null, error: null }); // 'done'
 * ```
 */
export function stateLabel(snapshot: TraceSnapshot): string {
  return valueLabel(snapshot.value, snapshot.status);
}

function eventType(event: JsonValue): string | null {
  if (typeof event === 'object' && event !== null && !Array.isArray(event)) {
    return typeof event.type === 'string' ? event.type : null;
  }
  return null;
}

/**
 * The timeline as text: one block per actor (id, machine, the phase of a
 * root controller, parent), one line per state change with its time offset
 * and event, then a total line.
 *
 * @example
 * ```ts
 * formatTimeline(buildTimeline(records));
 * // x:0  machine simulationController  phase train  (root)
 * //   +0.1 ms      xstate.init  → idle
 * //   +0.3 ms      start        idle → starting
 * //
 * // termination  machine evaluationTermination  session x:1  parent x:0
 * //   +0.4 ms      xstate.init  → active
 * //
 * // 2 actors, 2 events received, 3 state changes over 0.4 ms
 * ```
 */
export function formatTimeline(timelines: readonly ActorTimeline[]): string {
  const lines: string[] = [];
  // A loop, not Math.max(...entries): a long trace has more events than a call has room for arguments.
  let eventWidth = 5;
  for (const timeline of timelines) {
    for (const entry of timeline.entries) {
      eventWidth = Math.max(eventWidth, (entry.event ?? '-').length);
    }
  }
  let lastAt = 0;
  let changes = 0;
  let received = 0;
  for (const timeline of timelines) {
    const identity = [
      timeline.actorId,
      timeline.machineId === null ? null : `machine ${timeline.machineId}`,
      timeline.actorId === timeline.sessionId ? null : `session ${timeline.sessionId}`,
      timeline.parentId === null && timeline.phase !== null ? `phase ${timeline.phase}` : null,
      timeline.parentId === null ? '(root)' : `parent ${timeline.parentId}`,
    ].filter((part) => part !== null);
    lines.push(identity.join('  '));
    for (const entry of timeline.entries) {
      const offset = `+${entry.at.toFixed(1)} ms`.padEnd(12);
      const change = entry.from === null ? `→ ${entry.to}` : `${entry.from} → ${entry.to}`;
      const status = entry.status === 'active' ? '' : ` (${entry.status})`;
      lines.push(`  ${offset} ${(entry.event ?? '-').padEnd(eventWidth)}  ${change}${status}`);
      lastAt = Math.max(lastAt, entry.at);
    }
    if (timeline.entries.length === 0) lines.push('  (no state changes recorded)');
    lines.push('');
    changes += timeline.entries.length;
    received += timeline.receivedEvents;
  }
  const actors = timelines.length;
  lines.push(
    `${actors} actor${actors === 1 ? '' : 's'}, ${received} event${received === 1 ? '' : 's'} received, ${changes} state change${changes === 1 ? '' : 's'} over ${lastAt.toFixed(1)} ms`,
  );
  return `${lines.join('\n')}\n`;
}
