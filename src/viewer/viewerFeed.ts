import { type FeedLine, HistoryRing } from './historyRing.js';
import type { GoneMessage, ViewerMessage } from './viewerMessages.js';

export type { FeedLine };

/** How much a feed keeps. */
export interface ViewerFeedOptions {
  /** Events (and snapshots) kept per actor; `null` keeps everything (a replayed trace). */
  readonly history: number | null;
  /** Actors kept; past it the oldest finished actor is forgotten (default 10 000). */
  readonly maxActors?: number;
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
  private readonly actors = new Map<string, HistoryRing>();
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
    for (const kept of this.actors.values()) count += (kept.actor === null ? 0 : 1) + kept.size;
    return count;
  }

  /**
   * The ring of actor `sid`, made for its first line: a live viewer keeps an
   * event or snapshot in it as XState gave it (`keepEvent`, `keepSnapshot`).
   */
  ring(sid: string): HistoryRing {
    let kept = this.actors.get(sid);
    if (kept === undefined) {
      kept = new HistoryRing(sid, this.history ?? Number.POSITIVE_INFINITY);
      this.actors.set(sid, kept);
    }
    return kept;
  }

  /**
   * Keep a message; returns the actors forgotten to make room (to tell the
   * pages), usually none.
   */
  add(message: FeedLine): GoneMessage[] {
    this.seq = Math.max(this.seq, message.seq + 1);
    const kept = this.ring(message.sid);
    if (message.k === 'actor') {
      kept.actor = message;
      return this.forgetOverflow();
    }
    kept.keepLine(message);
    return [];
  }

  /** Everything kept, in stream order: what a page that connects now is sent. */
  retained(): FeedLine[] {
    const messages: FeedLine[] = [];
    for (const kept of this.actors.values()) {
      if (kept.actor !== null) messages.push(kept.actor);
      for (const line of kept.lines()) messages.push(line);
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
