import type { InspectionEvent } from 'xstate';
import { toJsonSafe } from '../actors/inspection/jsonSafe.js';
import { redactPayload } from './redactPayload.js';
import type { ViewerCharts } from './viewerCharts.js';
import type { ActorLineMessage } from './viewerMessages.js';

/** The parts of an actor ref the viewer reads, beyond the public `ActorRefLike`. */
interface InspectedActorRef {
  readonly sessionId: string;
  readonly id?: unknown;
  readonly _parent?: { readonly sessionId?: unknown } | undefined;
  readonly logic?: { readonly config?: { readonly id?: unknown } } | undefined;
}

/** Payloads deeper or longer than this are cut: the page shows events, it does not archive them. */
const payloadLimits = { maxDepth: 6, maxStringLength: 400 } as const;

/**
 * The viewer message of one XState inspection event: an actor's birth (with
 * the key of its statechart), an event it received (payload JSON-safe,
 * secrets redacted), or its snapshot after one; `null` for the kinds the page
 * does not show (microsteps, actions).
 *
 * @example
 * ```ts
 * toViewerMessage(snapshotEvent, 7, 12.5, charts);
 * // { k: 'snapshot', seq: 7, at: 12.5, sid: 'x:0', event: 'start', value: 'running', status: 'active' }
 * ```
 */
export function toViewerMessage(
  event: InspectionEvent,
  seq: number,
  at: number,
  charts: ViewerCharts,
): ActorLineMessage | null {
  const actor = event.actorRef as unknown as InspectedActorRef;
  const sid = actor.sessionId;
  switch (event.type) {
    case '@xstate.actor': {
      const machine = actor.logic?.config?.id;
      return {
        k: 'actor',
        seq,
        at,
        sid,
        id: typeof actor.id === 'string' ? actor.id : sid,
        machine: typeof machine === 'string' ? machine : null,
        parent: typeof actor._parent?.sessionId === 'string' ? actor._parent.sessionId : null,
        chart: charts.keyForLogic(actor.logic),
      };
    }
    case '@xstate.event':
      return {
        k: 'event',
        seq,
        at,
        sid,
        type: typeof event.event?.type === 'string' ? event.event.type : '(untyped)',
        payload: redactPayload(toJsonSafe(event.event, payloadLimits)),
        source: event.sourceRef?.sessionId ?? null,
      };
    case '@xstate.snapshot': {
      const snapshot = event.snapshot as { status?: unknown; value?: unknown };
      return {
        k: 'snapshot',
        seq,
        at,
        sid,
        event: typeof event.event?.type === 'string' ? event.event.type : null,
        value: snapshot.value === undefined ? null : toJsonSafe(snapshot.value),
        status: typeof snapshot.status === 'string' ? snapshot.status : 'active',
      };
    }
    default:
      return null;
  }
}
