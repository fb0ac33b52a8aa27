import { LiveEventLine, LiveSnapshotLine } from './inspectionMessages.js';
import type { ActorMessage, EventMessage, SnapshotMessage } from './viewerMessages.js';

/**
 * A line the feed keeps: a message, or a live event or snapshot that turns
 * into its message when a page is sent it (`JSON.stringify` calls its `toJSON`).
 */
export type FeedLine =
  | ActorMessage
  | EventMessage
  | SnapshotMessage
  | LiveEventLine
  | LiveSnapshotLine;

/** What a slot holds: a line made already, or an event or a snapshot as XState gave it. */
const LINE = 0;
const EVENT = 1;
const SNAPSHOT = 2;

/**
 * One actor's last `capacity` events and snapshots, oldest first: memory stays
 * at `capacity` slots however many are kept. Kept as parallel arrays, one a
 * field (kind, position, time, what XState gave, a label, a status), so that
 * keeping one costs the run no object: the line a page is sent is made from a
 * slot when a page asks for it, and let go once written. The actor's
 * newest snapshot outlives its slot: a page that connects late needs the
 * current state.
 *
 * @example
 * ```ts
 * const ring = new HistoryRing('x:0', 2);
 * ring.keepEvent(1, 0.5, { type: 'go' }, null);
 * ring.keepSnapshot(2, 0.6, 'go', 'running', 'active');
 * ring.keepEvent(3, 0.7, { type: 'tick' }, null);
 * ring.lines().map((line) => line.seq); // [2, 3]
 * ring.dropped;                         // 1
 * ```
 */
export class HistoryRing {
  /** The actor's registration, once seen. */
  actor: ActorMessage | null = null;
  /** Whether its newest snapshot is a final one (done, error, stopped). */
  finished = false;
  /** Slots overwritten by newer ones so far. */
  dropped = 0;
  private readonly kinds: number[] = [];
  private readonly seqs: number[] = [];
  private readonly ats: number[] = [];
  private readonly refs: unknown[] = [];
  private readonly labels: (string | null)[] = [];
  private readonly statuses: string[] = [];
  private start = 0;
  private latestSeq = -1;
  /** The newest snapshot once its slot was overwritten. */
  private latestLine: FeedLine | null = null;

  /** `capacity` slots (`Infinity`: everything, for a replayed trace). */
  constructor(
    readonly sid: string,
    readonly capacity: number,
  ) {
    if (!(capacity >= 1)) throw new RangeError(`a ring holds at least 1 item, got ${capacity}`);
  }

  /** Events and snapshots held now. */
  get size(): number {
    return this.kinds.length;
  }

  /** Keep an event the actor received: `event` as XState gave it, `source` the sender's session id. */
  keepEvent(seq: number, at: number, event: unknown, source: string | null): void {
    this.keep(EVENT, seq, at, event, source, '');
  }

  /** Keep the actor's snapshot after `eventType`: its state value and status as XState gave them. */
  keepSnapshot(
    seq: number,
    at: number,
    eventType: string | null,
    value: unknown,
    status: string,
  ): void {
    this.keep(SNAPSHOT, seq, at, value, eventType, status);
    this.newestSnapshot(seq, status);
  }

  /** Keep an event or snapshot line made already (a replayed trace's, a test's). */
  keepLine(line: FeedLine): void {
    this.keep(LINE, line.seq, line.at, line, null, '');
    if (line.k === 'snapshot') this.newestSnapshot(line.seq, line.status);
  }

  /** The line of the newest slot (made now if it was not), `null` when none is held. */
  newest(): FeedLine | null {
    const size = this.kinds.length;
    if (size === 0) return null;
    return this.lineAt((this.start + size - 1) % size);
  }

  /** The lines held, oldest first, after the newest snapshot if its slot was let go. */
  lines(): FeedLine[] {
    const size = this.kinds.length;
    const lines: FeedLine[] = [];
    if (this.latestLine !== null) lines.push(this.latestLine);
    for (let index = 0; index < size; index++) lines.push(this.lineAt((this.start + index) % size));
    return lines;
  }

  private keep(
    kind: number,
    seq: number,
    at: number,
    ref: unknown,
    label: string | null,
    status: string,
  ): void {
    let slot = this.kinds.length;
    if (slot >= this.capacity) {
      slot = this.start;
      if (this.seqs[slot] === this.latestSeq) this.latestLine = this.lineAt(slot);
      this.start = slot + 1 === this.capacity ? 0 : slot + 1;
      this.dropped += 1;
    }
    this.kinds[slot] = kind;
    this.seqs[slot] = seq;
    this.ats[slot] = at;
    this.refs[slot] = ref;
    this.labels[slot] = label;
    this.statuses[slot] = status;
  }

  private newestSnapshot(seq: number, status: string): void {
    this.latestSeq = seq;
    this.latestLine = null;
    this.finished = status !== 'active';
  }

  /** The line of `slot`, made from its fields (not kept: a page's batch holds it until it is written). */
  private lineAt(slot: number): FeedLine {
    const kind = this.kinds[slot];
    if (kind === LINE) return this.refs[slot] as FeedLine;
    const seq = this.seqs[slot]!;
    const at = this.ats[slot]!;
    return kind === EVENT
      ? new LiveEventLine(seq, at, this.sid, this.refs[slot], this.labels[slot] ?? null)
      : new LiveSnapshotLine(
          seq,
          at,
          this.sid,
          this.labels[slot] ?? null,
          this.refs[slot],
          this.statuses[slot]!,
        );
  }
}
