import type { InspectionEvent } from 'xstate';
import { toJsonSafe } from '../actors/inspection/jsonSafe.js';
import { redactPayload } from './redactPayload.js';
import type { ViewerCharts } from './viewerCharts.js';
import type { FeedLine, ViewerFeed } from './viewerFeed.js';
import type { ActorMessage, EventMessage, GoneMessage, SnapshotMessage } from './viewerMessages.js';

/** Payloads deeper or longer than this are cut: the page shows events, it does not archive them. */
const PAYLOAD_LIMITS = { maxDepth: 6, maxStringLength: 400 } as const;

/** The parts of an actor ref the viewer reads, beyond the public `ActorRefLike`. */
interface InspectedActorRef {
  readonly sessionId: string;
  readonly id?: unknown;
  readonly _parent?: { readonly sessionId?: unknown } | undefined;
  readonly logic?: { readonly config?: { readonly id?: unknown } } | undefined;
}

/**
 * A line of an actor's life kept as XState gave it: its JSON (what a page is
 * sent) is written when pages need it (once per server batch, whatever the
 * number of pages; again for a page that connects later) and is not kept: a
 * kept text would outlive the event as garbage the collector must carry
 * (about 3 µs an event with a page, `bench/viewerCost.ts`). A run that
 * nobody watches never pays for it.
 */
export abstract class LiveLine {
  constructor(
    /** Position in the stream. */
    readonly seq: number,
    /** Milliseconds since the viewer started, unrounded. */
    readonly at: number,
    /** The actor's session id. */
    readonly sid: string,
  ) {}

  /** The message's JSON, as `JSON.stringify` would write it. */
  json(): string {
    return this.write();
  }

  /** The message itself, for `JSON.stringify` and readers of one line. */
  toJSON(): EventMessage | SnapshotMessage {
    return JSON.parse(this.json()) as EventMessage | SnapshotMessage;
  }

  /** Write the JSON from the live values. */
  protected abstract write(): string;
}

/** An event an actor received: its {@link EventMessage}, payload JSON-safe and redacted, once a page needs it. */
export class LiveEventLine extends LiveLine {
  readonly k = 'event';
  constructor(
    seq: number,
    at: number,
    sid: string,
    private readonly event: unknown,
    private readonly source: string | null,
  ) {
    super(seq, at, sid);
  }

  protected write(): string {
    const type = (this.event as { type?: unknown } | null | undefined)?.type;
    const message: EventMessage = {
      k: 'event',
      seq: this.seq,
      at: roundedMs(this.at),
      sid: this.sid,
      type: typeof type === 'string' ? type : '(untyped)',
      payload: redactPayload(toJsonSafe(this.event, PAYLOAD_LIMITS)),
      source: this.source,
    };
    return JSON.stringify(message);
  }
}

/** An actor's snapshot after an event: its {@link SnapshotMessage} once a page needs it. */
export class LiveSnapshotLine extends LiveLine {
  readonly k = 'snapshot';
  constructor(
    seq: number,
    at: number,
    sid: string,
    private readonly event: string | null,
    private readonly value: unknown,
    /** `active`, `done`, `error` or `stopped`. */
    readonly status: string,
  ) {
    super(seq, at, sid);
  }

  protected write(): string {
    const value = this.value;
    const message: SnapshotMessage = {
      k: 'snapshot',
      seq: this.seq,
      at: roundedMs(this.at),
      sid: this.sid,
      event: this.event,
      value: value === undefined ? null : typeof value === 'string' ? value : toJsonSafe(value),
      status: this.status,
    };
    return JSON.stringify(message);
  }
}

/**
 * Keep one XState inspection event in `feed`, at the cost of a few field
 * reads and no object: an actor's birth (with the key of its statechart), an
 * event it received, or its snapshot after one (their lines made, and their
 * JSON written, only when a page is sent them); nothing for the kinds the
 * page does not show (microsteps, actions). With `watched` (a page is
 * connected) it returns what to send the pages now, else `null`.
 *
 * @example
 * ```ts
 * keepInspection(snapshotEvent, feed, 12.5, charts, true)?.map(messageJson);
 * // ['{"k":"snapshot","seq":7,"at":12.5,"sid":"x:0","event":"start","value":"running","status":"active"}']
 * ```
 */
export function keepInspection(
  event: InspectionEvent,
  feed: ViewerFeed,
  at: number,
  charts: ViewerCharts,
  watched: boolean,
): (FeedLine | GoneMessage)[] | null {
  switch (event.type) {
    case '@xstate.event': {
      const ring = feed.ring((event.actorRef as unknown as InspectedActorRef).sessionId);
      ring.keepEvent(feed.nextSeq(), at, event.event, event.sourceRef?.sessionId ?? null);
      return watched ? [ring.newest()!] : null;
    }
    case '@xstate.snapshot': {
      const ring = feed.ring((event.actorRef as unknown as InspectedActorRef).sessionId);
      const snapshot = event.snapshot as { status?: unknown; value?: unknown };
      const type = event.event?.type;
      ring.keepSnapshot(
        feed.nextSeq(),
        at,
        typeof type === 'string' ? type : null,
        snapshot.value,
        typeof snapshot.status === 'string' ? snapshot.status : 'active',
      );
      return watched ? [ring.newest()!] : null;
    }
    case '@xstate.actor': {
      const actor = event.actorRef as unknown as InspectedActorRef;
      const machine = actor.logic?.config?.id;
      const message: ActorMessage = {
        k: 'actor',
        seq: feed.nextSeq(),
        at: roundedMs(at),
        sid: actor.sessionId,
        id: typeof actor.id === 'string' ? actor.id : actor.sessionId,
        machine: typeof machine === 'string' ? machine : null,
        parent: typeof actor._parent?.sessionId === 'string' ? actor._parent.sessionId : null,
        chart: charts.keyForLogic(actor.logic),
      };
      const gone = feed.add(message);
      return watched ? [message, ...gone] : null;
    }
    default:
      return null;
  }
}

/**
 * The JSON of a message or a live line: what a page is sent for it.
 *
 * @example
 * ```ts
 * messageJson({ k: 'gone', sid: 'x:3' }); // '{"k":"gone","sid":"x:3"}'
 * ```
 */
export function messageJson(message: object): string {
  return message instanceof LiveLine ? message.json() : JSON.stringify(message);
}

/** Milliseconds to the microsecond, as pages and traces show them. */
function roundedMs(at: number): number {
  return Math.round(at * 1000) / 1000;
}
