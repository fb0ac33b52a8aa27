import type { InspectionEvent } from 'xstate';
import type { JsonValue } from '../../domain/shared/json.js';
import { toJsonSafe } from './jsonSafe.js';

/** The kinds of XState inspection event a trace holds. */
export type TraceEventType =
  | '@xstate.actor'
  | '@xstate.event'
  | '@xstate.snapshot'
  | '@xstate.transition'
  | '@xstate.microstep'
  | '@xstate.action';

/** A snapshot as a trace keeps it: the state value and the status, JSON-safe. */
export interface TraceSnapshot {
  /** `active`, `done`, `error` or `stopped`. */
  readonly status: string;
  /** The state value of a machine (a string or nested object); `null` for other logic. */
  readonly value: JsonValue;
  /** The error's `{ name, message }` when the status is `error`. */
  readonly error: JsonValue;
}

/** One inspection event as one line of a JSONL trace file: plain JSON, no live objects. */
export interface TraceRecord {
  /** Position in the trace, from 0. */
  readonly seq: number;
  /** Milliseconds since the recorder started. */
  readonly at: number;
  readonly type: TraceEventType;
  /** The actor the event is about (the target of an `@xstate.event`). */
  readonly sessionId: string;
  /** The actor's id (its invoke/spawn key, or the session id of a root). */
  readonly actorId: string;
  /** The id of the actor's machine, `null` for promise, callback and other logic. */
  readonly machineId: string | null;
  readonly parentId: string | null;
  readonly rootId: string;
  /** The sender of an `@xstate.event`, when known. */
  readonly sourceId: string | null;
  /** The event (`@xstate.event`, `@xstate.snapshot`, `@xstate.transition`, `@xstate.microstep`). */
  readonly event: JsonValue;
  /** The snapshot after the event (`@xstate.snapshot`, `@xstate.transition`, `@xstate.microstep`). */
  readonly snapshot: TraceSnapshot | null;
  /** The executed action (`@xstate.action`): `{ type, params }`. */
  readonly action: JsonValue;
  /**
   * The phase a root controller runs (its context's `phase.name`), on the
   * records that carry its snapshot; `null` elsewhere (and in older traces).
   */
  readonly phase?: string | null;
}

/** The parts of an actor ref a trace reads, beyond the public `ActorRefLike`. */
interface InspectedActorRef {
  readonly sessionId: string;
  readonly id?: unknown;
  readonly _parent?: { readonly sessionId?: unknown } | undefined;
  readonly logic?: { readonly config?: { readonly id?: unknown } } | undefined;
}

/**
 * Convert one XState inspection event into a {@link TraceRecord}.
 *
 * @example
 * ```ts
 * toTraceRecord(inspectionEvent, 0, 12);
 * // { seq: 0, at: 12, type: '@xstate.snapshot', sessionId: 'x:1', actorId: 'terminationCondition',
 * //   machineId: 'evaluationTermination', parentId: 'x:0', rootId: 'x:0', sourceId: null,
 * //   event: { type: 'evaluation.checkpoint', outcomes: [...] },
 * //   snapshot: { status: 'active', value: 'active', error: null }, action: null, phase: null }
 * ```
 */
export function toTraceRecord(event: InspectionEvent, seq: number, at: number): TraceRecord {
  const actor = event.actorRef as unknown as InspectedActorRef;
  const base = {
    seq,
    at,
    type: event.type,
    sessionId: actor.sessionId,
    actorId: typeof actor.id === 'string' ? actor.id : actor.sessionId,
    machineId: typeof actor.logic?.config?.id === 'string' ? actor.logic.config.id : null,
    parentId: typeof actor._parent?.sessionId === 'string' ? actor._parent.sessionId : null,
    rootId: event.rootId,
    sourceId: null,
    event: null,
    snapshot: null,
    action: null,
    phase: null,
  };
  switch (event.type) {
    case '@xstate.actor':
      // Sent from the actor's constructor, before it has a snapshot.
      return base;
    case '@xstate.event':
      return {
        ...base,
        sourceId: event.sourceRef?.sessionId ?? null,
        event: toJsonSafe(event.event),
      };
    case '@xstate.action':
      return { ...base, action: toJsonSafe(event.action) };
    default:
      return {
        ...base,
        event: toJsonSafe(event.event),
        snapshot: traceSnapshot(event.snapshot),
        phase: base.parentId === null ? phaseOf(event.snapshot) : null,
      };
  }
}

/** The phase name a controller's snapshot holds (`context.phase.name`), if any. */
function phaseOf(snapshot: unknown): string | null {
  const context = (snapshot as { context?: { phase?: { name?: unknown } } } | null)?.context;
  const name = context?.phase?.name;
  return typeof name === 'string' ? name : null;
}

/**
 * The status, state value and error of a snapshot, JSON-safe.
 *
 * @example
 * ```ts
 * traceSnapshot({ status: 'active', value: { running: 'acting' }, context: {…} });
 * // { status: 'active', value: { running: 'acting' }, error: null }
 * ```
 */
export function traceSnapshot(snapshot: unknown): TraceSnapshot {
  const record = (typeof snapshot === 'object' && snapshot !== null ? snapshot : {}) as {
    status?: unknown;
    value?: unknown;
    error?: unknown;
  };
  return {
    status: typeof record.status === 'string' ? record.status : 'active',
    value: record.value === undefined ? null : toJsonSafe(record.value),
    error: record.status === 'error' ? toJsonSafe(record.error) : null,
  };
}
