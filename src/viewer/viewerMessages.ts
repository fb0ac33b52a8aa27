/**
 * What the viewer's server sends its pages: plain JSON messages, one kind
 * per line of an actor's life. The server turns XState inspection events
 * (live) or trace records (replayed) into these; the page folds them into
 * the actor tree, the statechart and the event list. Nothing goes the other
 * way: a page only reads.
 * @module
 */
import type { JsonValue } from '../domain/shared/json.js';
import type { DrawnEdge } from './activeStates.js';

/** An actor came to life (`@xstate.actor`). */
export interface ActorMessage {
  readonly k: 'actor';
  /** Position in the stream, from 0, the same numbering for every actor. */
  readonly seq: number;
  /** Milliseconds since the viewer (or the trace) started. */
  readonly at: number;
  /** The actor's session id, unique in a run (`x:3`). */
  readonly sid: string;
  /** The actor's id: its invoke or spawn key, or the session id of a root. */
  readonly id: string;
  /** The id of its machine, `null` for promise, callback and other logic. */
  readonly machine: string | null;
  readonly parent: string | null;
  /** Where the page asks for the statechart (`chart/<key>.svg`), `null` without one. */
  readonly chart: string | null;
}

/** An actor received an event (`@xstate.event`); its payload is JSON-safe, secrets redacted. */
export interface EventMessage {
  readonly k: 'event';
  readonly seq: number;
  readonly at: number;
  readonly sid: string;
  readonly type: string;
  readonly payload: JsonValue;
  /** The sender's session id, when known. */
  readonly source: string | null;
}

/** An actor's snapshot after an event (`@xstate.snapshot`). */
export interface SnapshotMessage {
  readonly k: 'snapshot';
  readonly seq: number;
  readonly at: number;
  readonly sid: string;
  /** The type of the event that led to it (`xstate.init` first). */
  readonly event: string | null;
  /** The state value (`{ running: 'acting' }`), `null` for logic without states. */
  readonly value: JsonValue;
  /** `active`, `done`, `error` or `stopped`. */
  readonly status: string;
}

/** The server forgot a finished actor (to keep its memory bounded). */
export interface GoneMessage {
  readonly k: 'gone';
  readonly sid: string;
}

/** What a page receives first on (re)connecting: it starts over from this. */
export interface HelloMessage {
  readonly k: 'hello';
  /** `live`: a run or an app feeds the viewer; `replay`: a recorded trace, complete. */
  readonly mode: 'live' | 'replay';
  /** Events kept per actor (`--view-history`), `null` for a replay (it keeps everything). */
  readonly history: number | null;
  /** A title for the page: the trace file or what runs. */
  readonly title: string;
}

/**
 * A machine's chart, sent to a page before the first actor that needs it, so
 * the page holds everything it shows once its stream is written.
 */
export interface ChartMessage {
  readonly k: 'chart';
  readonly key: string;
  /** `null` when it could not be drawn (`error` says why). */
  readonly chart: ViewerChart | null;
  readonly error: string | null;
}

/** The server is closing: the page keeps what it has and stops reconnecting. */
export interface EndMessage {
  readonly k: 'end';
}

/** Everything that happens to an actor, in stream order. */
export type ActorLineMessage = ActorMessage | EventMessage | SnapshotMessage;

/** One message of the stream. */
export type ViewerMessage =
  | ActorLineMessage
  | ChartMessage
  | EndMessage
  | GoneMessage
  | HelloMessage;

/** What the page fetches to draw a machine (`chart/<key>.json`): the annotated SVG and each arrow's event. */
export interface ViewerChart {
  /** The machine's id: `data-state` values start with it. */
  readonly machine: string;
  readonly svg: string;
  readonly edges: readonly DrawnEdge[];
}
