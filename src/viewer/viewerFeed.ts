import { HistoryRing } from './historyRing.js';
import type { LiveEventLine, LiveSnapshotLine } from './inspectionMessages.js';
import type {
  ActorLineMessage,
  ActorMessage,
  GoneMessage,
  SnapshotMessage,
  ViewerMessage,
} from './viewerMessages.js';

/**
 * A line the feed keeps: a message, or a live event or snapshot that turns
 * into its message when a page is sent it (`JSON.stringify` calls its `toJSON`).
 */
export type FeedLine = ActorLineMessage | LiveEventLine | LiveSnapshotLine;

/** How much a feed keeps. */
export interface ViewerFeedOptions {
  /** Events (and snapshots) kept per actor; `null` keeps everything (a replayed trace). */
  readonly history: number | null;
  /** Actors kept; past it the oldest finished actor is forgotten (default 10 000). */
  readonly maxActors?: number;
}

interface KeptActor {
  actor: ActorMessage | null;
  lines: HistoryRing<FeedLine> | FeedLine[];
  latest: SnapshotMessage | LiveSnapshotLine | null;
  finished: boolean;
}

/** The default of `maxActors`. */
export const DEFAULT_MAX_ACTORS = 10_000;

/**
 * What the viewer's server remembers, bounded: per actor its registration,
 * its latest snapshot, and a ring of its last `history` messages; past
 * `maxActors` actors, the oldest finished one is forgotten. A page that
 * connects is sent {@link ViewerFeed.retained} (in stream order), then what
 * comes next.
 *
 * @example
 * ```ts
 * const feed = new ViewerFeed({ history: 2 });
 * feed.add({ k: 'actor', seq: 0, at: 0, sid: 'x:0', id: 'x:0', machine: 'door', parent: null, chart: 'door' });
 * for (const [seq, type] of [[1, 'a'], [2, 'b'], [3, 'c']] as const)
 *   feed.add({ k: 'event', seq, at: seq, sid: 'x:0', type, payload: { type }, source: null });
 * feed.retained().map((message) => message.seq); // [0, 2, 3]
 * ```
 */
export class ViewerFeed {
  readonly history: number | null;
  private readonly maxActors: number;
  private readonly actors = new Map<string, KeptActor>();
  private seq = 0;

  constructor(options: ViewerFeedOptions) {
    this.history = options.history;
    this.maxActors = options.maxActors ?? DEFAULT_MAX_ACTORS;
  }

  /** The next message's position in the stream. */
  nextSeq(): number {
    return this.seq++;
  }

  /** Actors kept now. */
  get actorCount(): number {
    return this.actors.size;
  }

  /** Messages kept now, over every actor (the rings' fill). */
  get keptMessages(): number {
    let count = 0;
    for (const kept of this.actors.values()) {
      count +=
        (kept.actor === null ? 0 : 1) +
        (Array.isArray(kept.lines) ? kept.lines.length : kept.lines.size);
    }
    return count;
  }

  /**
   * Keep a message; returns the actors forgotten to make room (to tell the
   * pages), usually none.
   */
  add(message: FeedLine): GoneMessage[] {
    this.seq = Math.max(this.seq, message.seq + 1);
    let kept = this.actors.get(message.sid);
    if (kept === undefined) {
      kept = {
        actor: null,
        lines: this.history === null ? [] : new HistoryRing(this.history),
        latest: null,
        finished: false,
      };
      this.actors.set(message.sid, kept);
    }
    if (message.k === 'actor') {
      kept.actor = message;
      return this.forgetOverflow();
    }
    kept.lines.push(message);
    if (message.k === 'snapshot') {
      kept.latest = message;
      kept.finished = message.status !== 'active';
    }
    return [];
  }

  /** Everything kept, in stream order: what a page that connects now is sent. */
  retained(): FeedLine[] {
    const messages: FeedLine[] = [];
    for (const kept of this.actors.values()) {
      if (kept.actor !== null) messages.push(kept.actor);
      const lines = Array.isArray(kept.lines) ? kept.lines : kept.lines.toArray();
      // The latest snapshot stays even after the ring let it go: the page needs the current state.
      if (kept.latest !== null && !lines.includes(kept.latest)) messages.push(kept.latest);
      messages.push(...lines);
    }
    return messages.sort((a, b) => a.seq - b.seq);
  }

  private forgetOverflow(): GoneMessage[] {
    const gone: GoneMessage[] = [];
    if (this.actors.size <= this.maxActors) return gone;
    for (const [sid, kept] of this.actors) {
      if (this.actors.size <= this.maxActors) break;
      if (!kept.finished) continue;
      this.actors.delete(sid);
      gone.push({ k: 'gone', sid });
    }
    return gone;
  }
}

/** Any message of the stream, for the type of what a page is sent. */
export type FeedMessage = ViewerMessage;
