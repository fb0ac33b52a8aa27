import type { JsonValue } from '../domain/shared/json.js';
import type { ActorLineMessage, HelloMessage, ViewerMessage } from './viewerMessages.js';

/** What the page knows of an actor whatever the scrubbed point: who it is. */
export interface ActorIdentity {
  readonly sid: string;
  id: string;
  machine: string | null;
  parent: string | null;
  chart: string | null;
  /** Session ids of the actors it started, in order. */
  readonly children: string[];
}

/** An actor's state at the scrubbed point. */
export interface ActorState {
  /** Created by then. */
  created: boolean;
  value: JsonValue;
  /** `active`, `done`, `error`, `stopped`; `''` before its first snapshot. */
  status: string;
  /** The event of the latest state change, `null` before any. */
  event: string | null;
  /** The state value before the latest change, `null` for the first. */
  previous: JsonValue;
  /** Whether a snapshot was seen. */
  hasSnapshot: boolean;
}

/** The most messages a page holds; past it the oldest half is folded into the starting states. */
export const PAGE_MESSAGE_LIMIT = 200_000;

/**
 * The page's model: every message it was sent, in stream order, and each
 * actor's state at a scrubbed position (the number of messages applied). In
 * a live view the position follows the end unless the user moved it. Moving
 * forward applies messages one by one; moving back starts over from the
 * first held message.
 *
 * @example
 * ```ts
 * const timeline = new ViewerTimeline();
 * timeline.receive([hello, actor0, snapshotIdle, snapshotRunning]);
 * timeline.stateOf('x:0')?.value; // 'running'
 * timeline.seek(2);
 * timeline.stateOf('x:0')?.value; // 'idle'
 * ```
 */
export class ViewerTimeline {
  hello: Omit<HelloMessage, 'k'> = { mode: 'live', history: null, title: '' };
  /** Messages held, in stream order. */
  messages: ActorLineMessage[] = [];
  /** Every actor seen, by session id, in the order they appeared. */
  readonly actors = new Map<string, ActorIdentity>();
  /** Root actors' session ids, in order. */
  roots: string[] = [];
  /** Messages applied: the scrubbed point, from 0 to `messages.length`. */
  position = 0;
  /** Whether the position follows new messages (live, at the end). */
  following = true;
  /** Messages folded into the starting states to keep the page's memory bounded. */
  folded = 0;
  private lastSeq = -1;
  /** The roots, for membership: a root's every message asks. */
  private readonly rootSet = new Set<string>();
  private base = new Map<string, ActorState>();
  private states = new Map<string, ActorState>();
  private indexBySid = new Map<string, number[]>();

  /** Apply a batch from the server; returns whether anything changed. */
  receive(batch: readonly ViewerMessage[]): boolean {
    let changed = false;
    for (const message of batch) {
      if (message.k === 'hello') {
        this.reset(message);
        changed = true;
      } else if (message.k === 'chart' || message.k === 'end') {
        // the chart view keeps charts and the page closes its stream; nothing to fold
      } else if (message.k === 'gone') {
        changed = this.forget(message.sid) || changed;
      } else if (message.seq > this.lastSeq) {
        this.lastSeq = message.seq;
        this.append(message);
        changed = true;
      }
    }
    if (this.messages.length > PAGE_MESSAGE_LIMIT) this.foldOldest(PAGE_MESSAGE_LIMIT / 2);
    return changed;
  }

  /** Move the scrubbed point to `position` (clamped); at the end a live view follows again. */
  seek(position: number): void {
    const target = Math.max(0, Math.min(this.messages.length, Math.round(position)));
    if (target < this.position) {
      this.states = cloneStates(this.base);
      this.position = 0;
    }
    while (this.position < target) this.apply(this.messages[this.position++]!);
    this.following = this.position === this.messages.length;
  }

  /** The actor's state at the scrubbed point, `undefined` for an unknown actor. */
  stateOf(sid: string): ActorState | undefined {
    return this.states.get(sid);
  }

  /** Indices (into `messages`) of the actor's messages, in order. */
  indicesOf(sid: string): readonly number[] {
    return this.indexBySid.get(sid) ?? [];
  }

  /** Actors in tree order (each after its parent, children in order) with their depth. */
  treeRows(): { sid: string; depth: number }[] {
    const rows: { sid: string; depth: number }[] = [];
    const visit = (sid: string, depth: number): void => {
      rows.push({ sid, depth });
      for (const child of this.actors.get(sid)?.children ?? []) visit(child, depth + 1);
    };
    for (const root of this.roots) visit(root, 0);
    return rows;
  }

  private reset(hello: HelloMessage): void {
    const { k: _kind, ...rest } = hello;
    this.hello = rest;
    this.messages = [];
    this.actors.clear();
    this.roots = [];
    this.rootSet.clear();
    this.position = 0;
    this.following = hello.mode === 'live';
    this.folded = 0;
    this.lastSeq = -1;
    this.base = new Map();
    this.states = new Map();
    this.indexBySid = new Map();
  }

  private append(message: ActorLineMessage): void {
    this.identify(message);
    const index = this.messages.length;
    this.messages.push(message);
    let indices = this.indexBySid.get(message.sid);
    if (indices === undefined) {
      indices = [];
      this.indexBySid.set(message.sid, indices);
    }
    indices.push(index);
    if (this.following) this.apply(this.messages[this.position++]!);
  }

  private identify(message: ActorLineMessage): void {
    let actor = this.actors.get(message.sid);
    if (actor === undefined) {
      actor = {
        sid: message.sid,
        id: message.sid,
        machine: null,
        parent: null,
        chart: null,
        children: [],
      };
      this.actors.set(message.sid, actor);
      this.states.set(message.sid, emptyState());
      this.base.set(message.sid, emptyState());
    }
    if (message.k !== 'actor') {
      // a root's every message comes here: a set answers at once where the list would be searched
      if (actor.parent === null && !this.rootSet.has(actor.sid)) this.addRoot(actor.sid);
      return;
    }
    actor.id = message.id;
    actor.machine = message.machine;
    actor.chart = message.chart;
    if (message.parent !== null && message.parent !== actor.parent) {
      actor.parent = message.parent;
      this.removeRoot(actor.sid);
      const parent = this.actors.get(message.parent);
      if (parent !== undefined) parent.children.push(actor.sid);
      else this.addRoot(actor.sid);
    } else if (message.parent === null && !this.rootSet.has(actor.sid)) {
      this.addRoot(actor.sid);
    }
  }

  private addRoot(sid: string): void {
    this.rootSet.add(sid);
    this.roots.push(sid);
  }

  private removeRoot(sid: string): void {
    if (!this.rootSet.delete(sid)) return;
    this.roots = this.roots.filter((root) => root !== sid);
  }

  private apply(message: ActorLineMessage): void {
    applyTo(this.states, message);
  }

  private forget(sid: string): boolean {
    const actor = this.actors.get(sid);
    if (actor === undefined) return false;
    this.actors.delete(sid);
    this.removeRoot(sid);
    if (actor.parent !== null) {
      const parent = this.actors.get(actor.parent);
      if (parent !== undefined) parent.children.splice(parent.children.indexOf(sid), 1);
    }
    // its messages stay in the history (the scrubber's positions do not move); only the tree forgets it
    return true;
  }

  /** Fold the first `count` messages into the starting states and drop them. */
  private foldOldest(count: number): void {
    for (const message of this.messages.slice(0, count)) applyTo(this.base, message);
    this.messages = this.messages.slice(count);
    this.folded += count;
    this.indexBySid = new Map();
    this.messages.forEach((message, index) => {
      const indices = this.indexBySid.get(message.sid) ?? [];
      indices.push(index);
      this.indexBySid.set(message.sid, indices);
    });
    const target = Math.max(0, this.position - count);
    const following = this.following;
    this.states = cloneStates(this.base);
    this.position = 0;
    this.seek(target);
    this.following = following || this.position === this.messages.length;
  }
}

function emptyState(): ActorState {
  return {
    created: false,
    value: null,
    status: '',
    event: null,
    previous: null,
    hasSnapshot: false,
  };
}

function cloneStates(states: ReadonlyMap<string, ActorState>): Map<string, ActorState> {
  return new Map([...states].map(([sid, state]) => [sid, { ...state }]));
}

function applyTo(states: Map<string, ActorState>, message: ActorLineMessage): void {
  let state = states.get(message.sid);
  if (state === undefined) {
    state = emptyState();
    states.set(message.sid, state);
  }
  state.created = true;
  if (message.k !== 'snapshot') return;
  state.status = message.status;
  // a snapshot that keeps the state (a context update) leaves the last transition as it was
  if (state.hasSnapshot && JSON.stringify(state.value) === JSON.stringify(message.value)) return;
  state.previous = state.hasSnapshot ? state.value : null;
  state.value = message.value;
  state.event = message.event;
  state.hasSnapshot = true;
}
