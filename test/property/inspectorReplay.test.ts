import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createInspectorReplay,
  type ReplayedEvent,
} from '../../src/actors/inspection/inspectorReplay.js';
import {
  INSPECTOR_CONTROL_MESSAGES,
  isAllowedOrigin,
  isControlMessage,
  STATELY_INSPECTOR_ORIGIN,
} from '../../src/actors/inspection/inspectorViewers.js';

/** One step of a run as the relay sees it, in terms of the actors alive at that point. */
type Step =
  | { kind: 'spawn'; parent: number; root: boolean }
  | { kind: 'event'; actor: number }
  /** An event sent to any actor ever seen, finished ones included (XState relays those too). */
  | { kind: 'lateEvent'; actor: number }
  | { kind: 'snapshot'; actor: number; finishes: boolean }
  /** Not XState's own order (it stops the children first), but the replay must not break on it. */
  | { kind: 'finishAlone'; actor: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('spawn' as const),
    parent: fc.nat(),
    root: fc.integer({ max: 9, min: 0 }).map((draw) => draw === 0),
  }),
  fc.record({ kind: fc.constant('lateEvent' as const), actor: fc.nat() }),
  fc.record({ kind: fc.constant('event' as const), actor: fc.nat() }),
  fc.record({ kind: fc.constant('snapshot' as const), actor: fc.nat(), finishes: fc.boolean() }),
  fc.record({ kind: fc.constant('finishAlone' as const), actor: fc.nat() }),
);

const limits = fc.record({
  recentEvents: fc.integer({ min: 1, max: 20 }),
  finishedActors: fc.integer({ min: 1, max: 8 }),
  recentCharacters: fc.integer({ min: 1, max: 4000 }),
});

interface Recorded {
  readonly event: ReplayedEvent;
  readonly message: string;
}

/**
 * Turn steps into the inspection events of an XState system: a parent is
 * registered before its children, and an actor that finishes stops its
 * descendants (each gets a `stopped` snapshot), as XState does.
 */
function simulate(steps: readonly Step[]): Recorded[] {
  const recorded: Recorded[] = [];
  const parents = new Map<string, string | undefined>();
  const live: string[] = [];
  const emit = (event: ReplayedEvent) =>
    recorded.push({ event, message: JSON.stringify({ ...event, n: recorded.length }) });
  const spawn = (parentId: string | undefined) => {
    const sessionId = `x:${parents.size}`;
    parents.set(sessionId, parentId);
    live.push(sessionId);
    emit({ type: '@xstate.actor', sessionId, parentId, snapshot: { status: 'active' } });
  };
  const finish = (sessionId: string, status: string) => {
    for (const child of live.filter((id) => parents.get(id) === sessionId))
      finish(child, 'stopped');
    live.splice(live.indexOf(sessionId), 1);
    emit({ type: '@xstate.snapshot', sessionId, snapshot: { status } });
  };
  spawn(undefined);
  for (const next of steps) {
    if (live.length === 0) spawn(undefined);
    if (next.kind === 'spawn') {
      spawn(next.root ? undefined : live[next.parent % live.length]);
    } else if (next.kind === 'event') {
      emit({ type: '@xstate.event', sessionId: live[next.actor % live.length]! });
    } else if (next.kind === 'lateEvent') {
      const everyActor = [...parents.keys()];
      emit({ type: '@xstate.event', sessionId: everyActor[next.actor % everyActor.length]! });
    } else if (next.kind === 'finishAlone') {
      const [sessionId] = live.splice(next.actor % live.length, 1) as [string];
      emit({ type: '@xstate.snapshot', sessionId, snapshot: { status: 'error' } });
    } else if (next.finishes) {
      finish(live[next.actor % live.length]!, 'done');
    } else {
      emit({
        type: '@xstate.snapshot',
        sessionId: live[next.actor % live.length]!,
        snapshot: { status: 'active' },
      });
    }
  }
  return recorded;
}

const parsed = (messages: readonly string[]) =>
  messages.map((message) => JSON.parse(message) as ReplayedEvent & { n: number });

describe('inspector replay properties', () => {
  it('a late viewer gets registrations first, parents before children, and no orphan event', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120, size: 'max' }), limits, (steps, options) => {
        const replay = createInspectorReplay(options);
        for (const { event, message } of simulate(steps)) {
          replay.record(event, message);
          const messages = parsed(replay.messages());
          const registrations = messages.filter((message) => message.type === '@xstate.actor');
          expect(messages.slice(0, registrations.length)).toEqual(registrations);
          const position = new Map(
            registrations.map((message, index) => [message.sessionId, index]),
          );
          for (const [index, registration] of registrations.entries()) {
            if (registration.parentId === undefined) continue;
            // A parent is never dropped while one of its children is kept.
            expect(position.get(registration.parentId)).toBeLessThan(index);
          }
          for (const message of messages) expect(position.has(message.sessionId)).toBe(true);
          // Each actor's messages come in the order the run emitted them: no state goes back.
          const lastSeen = new Map<string, number>();
          for (const message of messages.slice(registrations.length)) {
            expect(message.n).toBeGreaterThan(lastSeen.get(message.sessionId) ?? -1);
            lastSeen.set(message.sessionId, message.n);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps every root, every running actor, and the latest snapshot of each kept actor', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 150, size: 'max' }), limits, (steps, options) => {
        const replay = createInspectorReplay(options);
        const recorded = simulate(steps);
        const latest = new Map<string, string>();
        const finished = new Set<string>();
        const roots = new Set<string>();
        for (const { event, message } of recorded) {
          replay.record(event, message);
          if (event.type === '@xstate.actor' && event.parentId === undefined) {
            roots.add(event.sessionId);
          }
          if (event.type === '@xstate.snapshot') {
            latest.set(event.sessionId, message);
            if ((event.snapshot as { status: string }).status !== 'active') {
              finished.add(event.sessionId);
            }
          }
        }
        const messages = replay.messages();
        const kept = new Set(
          parsed(messages)
            .filter((message) => message.type === '@xstate.actor')
            .map((message) => message.sessionId),
        );
        const everyActor = recorded
          .filter(({ event }) => event.type === '@xstate.actor')
          .map(({ event }) => event.sessionId);
        for (const sessionId of everyActor) {
          if (roots.has(sessionId) || !finished.has(sessionId)) {
            expect(kept.has(sessionId)).toBe(true);
          }
        }
        for (const sessionId of kept) {
          const snapshots = messages.filter((message) => {
            const { type, sessionId: id } = JSON.parse(message) as ReplayedEvent;
            return type === '@xstate.snapshot' && id === sessionId;
          });
          expect(snapshots.at(-1)).toBe(latest.get(sessionId));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('holds at most the recent-event limit, and the finished-actor limit unless their children are kept', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200, size: 'max' }), limits, (steps, options) => {
        const replay = createInspectorReplay(options);
        const finished = new Set<string>();
        const parents = new Map<string, string | undefined>();
        for (const { event, message } of simulate(steps)) {
          replay.record(event, message);
          if (event.type === '@xstate.actor') parents.set(event.sessionId, event.parentId);
          if (
            event.type === '@xstate.snapshot' &&
            (event.snapshot as { status: string }).status !== 'active'
          ) {
            finished.add(event.sessionId);
          }
          expect(replay.recentEvents).toBeLessThanOrEqual(options.recentEvents);
          const messages = parsed(replay.messages());
          const keptFinishedChildren = messages.filter(
            (message) =>
              message.type === '@xstate.actor' &&
              parents.get(message.sessionId) !== undefined &&
              finished.has(message.sessionId),
          );
          const keptIds = new Set(messages.map((message) => message.sessionId));
          const hasKeptChild = (sessionId: string) =>
            [...keptIds].some((id) => parents.get(id) === sessionId);
          // Over the limit only while every finished actor kept still has a child kept.
          if (keptFinishedChildren.length > options.finishedActors) {
            expect(keptFinishedChildren.every((message) => hasKeptChild(message.sessionId))).toBe(
              true,
            );
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('inspector viewer policy properties', () => {
  it('accepts a client message only when it is exactly a Stately control message', () => {
    const control = fc.constantFrom(...INSPECTOR_CONTROL_MESSAGES);
    const candidate = fc.oneof(
      fc.json(),
      fc.string(),
      control.map((type) => JSON.stringify({ type })),
      fc
        .tuple(control, fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }))
        .map(([type, extra]) => JSON.stringify({ ...extra, type })),
    );
    fc.assert(
      fc.property(candidate, fc.boolean(), (text, isBinary) => {
        let exact = false;
        try {
          const value = JSON.parse(text) as unknown;
          exact =
            typeof value === 'object' &&
            value !== null &&
            !Array.isArray(value) &&
            Object.keys(value).join() === 'type' &&
            INSPECTOR_CONTROL_MESSAGES.includes((value as { type: string }).type);
        } catch {
          exact = false;
        }
        expect(isControlMessage(text, isBinary)).toBe(exact && !isBinary);
      }),
      { numRuns: 300 },
    );
  });

  it('lets in an origin only when it is the Stately inspector or a loopback page', () => {
    const loopback = fc.constantFrom('localhost', '127.0.0.1', '[::1]');
    const port = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined });
    const origin = fc
      .tuple(fc.constantFrom('http', 'https'), fc.oneof(loopback, fc.domain()), port)
      .map(
        ([scheme, host, at]) =>
          new URL(`${scheme}://${host}${at === undefined ? '' : `:${at}`}`).origin,
      );
    fc.assert(
      fc.property(origin, (candidate) => {
        const { hostname } = new URL(candidate);
        const expected =
          candidate === STATELY_INSPECTOR_ORIGIN ||
          hostname === 'localhost' ||
          hostname === '127.0.0.1' ||
          hostname === '[::1]';
        expect(isAllowedOrigin(candidate)).toBe(expected);
        expect(isAllowedOrigin(`${candidate}/path`)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
