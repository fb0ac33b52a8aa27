/**
 * What the inspector relay keeps for a viewer that connects late: every
 * actor's registration and latest snapshot, so it sees the whole system, and
 * a bounded window of recent events, so memory stays bounded on a long run.
 * @module
 */
import { InspectorOptionError } from './inspectorErrors.js';

/** The parts of a Stately inspection event the replay reads. */
export interface ReplayedEvent {
  /** `@xstate.actor`, `@xstate.snapshot` or `@xstate.event`; others are not kept. */
  readonly type: string;
  readonly sessionId: string;
  /** The parent's session id (`@xstate.actor`); absent for a root. */
  readonly parentId?: string | undefined;
  /** The snapshot (`@xstate.actor`, `@xstate.snapshot`); its `status` tells a finished actor. */
  readonly snapshot?: unknown;
}

/** How much the replay keeps. */
export interface InspectorReplayOptions {
  /** Recent `@xstate.event` and `@xstate.snapshot` messages kept (default 10 000, oldest dropped). */
  readonly recentEvents?: number;
  /** Characters those recent messages may hold in all (default 32 Mi, oldest dropped). */
  readonly recentCharacters?: number;
  /**
   * Finished child actors (done, error, stopped) whose registration and last
   * snapshot are kept (default 2 000, the longest finished dropped first).
   * Roots and actors still running are always kept.
   */
  readonly finishedActors?: number;
}

/** A late viewer's catch-up, as kept by {@link createInspectorReplay}. */
export interface InspectorReplay {
  /** Keep one event the run emitted, with its WebSocket message. */
  record(event: ReplayedEvent, message: string): void;
  /**
   * The messages a viewer that connects now is sent, in order: every kept
   * registration (parents before children), then the latest snapshot of each
   * actor whose latest snapshot left the recent window, then the recent
   * window, without the events of actors no longer kept.
   */
  messages(): string[];
  /** Actors kept now (registrations). */
  readonly actors: number;
  /** Recent messages kept now. */
  readonly recentEvents: number;
}

interface KeptActor {
  readonly parentId: string | undefined;
  registration: string;
  latestSnapshot: { readonly seq: number; readonly message: string } | null;
  finished: boolean;
  /** Kept children: an actor is dropped only when it has none, so none is ever orphaned. */
  children: number;
}

interface RecentMessage {
  readonly seq: number;
  readonly sessionId: string;
  readonly message: string;
}

/**
 * A replay store for the inspector relay: registrations and latest snapshots
 * per actor, plus bounded recent events (see {@link InspectorReplayOptions}).
 *
 * @throws InspectorOptionError naming a limit that is not a positive integer.
 * @example
 * ```ts
 * const replay = createInspectorReplay({ recentEvents: 2 });
 * replay.record({ type: '@xstate.actor', sessionId: 'x:0' }, 'A0');
 * replay.record({ type: '@xstate.event', sessionId: 'x:0' }, 'E1');
 * replay.record({ type: '@xstate.snapshot', sessionId: 'x:0', snapshot: { status: 'active' } }, 'S2');
 * replay.record({ type: '@xstate.event', sessionId: 'x:0' }, 'E3');
 * replay.record({ type: '@xstate.event', sessionId: 'x:0' }, 'E4');
 * replay.messages(); // ['A0', 'S2', 'E3', 'E4']
 * ```
 */
export function createInspectorReplay(options: InspectorReplayOptions = {}): InspectorReplay {
  const recentLimit = positiveInteger('recentEvents', options.recentEvents ?? 10_000);
  const characterLimit = positiveInteger('recentCharacters', options.recentCharacters ?? 32 << 20);
  const finishedLimit = positiveInteger('finishedActors', options.finishedActors ?? 2_000);
  // Map order is registration order, and XState registers a parent before its children.
  const actors = new Map<string, KeptActor>();
  const recent: RecentMessage[] = [];
  let recentStart = 0;
  let recentCharacters = 0;
  const finishedOrder: string[] = [];
  let finishedChildren = 0;
  let seq = 0;

  const markFinished = (sessionId: string, actor: KeptActor): void => {
    if (actor.finished) return;
    actor.finished = true;
    if (actor.parentId === undefined) return;
    finishedOrder.push(sessionId);
    finishedChildren += 1;
  };

  const dropFinished = (): void => {
    while (finishedChildren > finishedLimit) {
      const index = finishedOrder.findIndex((id) => (actors.get(id)?.children ?? 0) === 0);
      if (index === -1) return;
      const [sessionId] = finishedOrder.splice(index, 1) as [string];
      const actor = actors.get(sessionId)!;
      actors.delete(sessionId);
      finishedChildren -= 1;
      const parent = actor.parentId === undefined ? undefined : actors.get(actor.parentId);
      if (parent !== undefined) parent.children -= 1;
    }
  };

  const dropOldRecent = (): void => {
    while (
      recent.length - recentStart > recentLimit ||
      (recentCharacters > characterLimit && recent.length - recentStart > 1)
    ) {
      recentCharacters -= recent[recentStart]!.message.length;
      recentStart += 1;
    }
    // Compact now and then, so the array does not grow with everything ever dropped.
    if (recentStart > 1024 && recentStart * 2 > recent.length) {
      recent.splice(0, recentStart);
      recentStart = 0;
    }
  };

  return {
    record(event, message) {
      seq += 1;
      if (event.type === '@xstate.actor') {
        const known = actors.get(event.sessionId);
        if (known !== undefined) {
          known.registration = message;
        } else {
          const actor: KeptActor = {
            parentId: event.parentId,
            registration: message,
            latestSnapshot: null,
            finished: false,
            children: 0,
          };
          actors.set(event.sessionId, actor);
          const parent = event.parentId === undefined ? undefined : actors.get(event.parentId);
          if (parent !== undefined) parent.children += 1;
          if (isFinished(event.snapshot)) markFinished(event.sessionId, actor);
        }
      } else if (event.type === '@xstate.snapshot' || event.type === '@xstate.event') {
        const actor = actors.get(event.sessionId);
        // An actor no longer kept (or never registered) would be an orphan to a late viewer.
        if (actor === undefined) return;
        if (event.type === '@xstate.snapshot') {
          actor.latestSnapshot = { seq, message };
          if (isFinished(event.snapshot)) markFinished(event.sessionId, actor);
        }
        recent.push({ seq, sessionId: event.sessionId, message });
        recentCharacters += message.length;
        dropOldRecent();
      } else {
        return;
      }
      dropFinished();
    },
    messages() {
      const window = recent.slice(recentStart);
      const windowStart = window[0]?.seq ?? Number.POSITIVE_INFINITY;
      const kept = [...actors.values()];
      return [
        ...kept.map((actor) => actor.registration),
        ...kept
          .filter(
            (actor) => actor.latestSnapshot !== null && actor.latestSnapshot.seq < windowStart,
          )
          .map((actor) => actor.latestSnapshot!.message),
        ...window.filter((entry) => actors.has(entry.sessionId)).map((entry) => entry.message),
      ];
    },
    get actors() {
      return actors.size;
    },
    get recentEvents() {
      return recent.length - recentStart;
    },
  };
}

function isFinished(snapshot: unknown): boolean {
  const status = (snapshot as { status?: unknown } | null | undefined)?.status;
  return status === 'done' || status === 'error' || status === 'stopped';
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InspectorOptionError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
