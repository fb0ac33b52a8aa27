import { describe, expect, it } from 'vitest';
import {
  assign,
  createActor,
  createMachine,
  fromPromise,
  type InspectionEvent,
  type Observer,
} from 'xstate';
import { directInspection } from '../../../src/actors/inspection/directInspection.js';
import { combineInspectors } from '../../../src/actors/inspection/inspection.js';

const child = fromPromise(async () => 'fetched');
const parent = createMachine({
  id: 'parent',
  context: { count: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: {
        go: { target: 'loading', actions: assign({ count: ({ context }) => context.count + 1 }) },
      },
    },
    loading: { invoke: { src: child, onDone: 'done' } },
    done: { type: 'final' },
  },
});

/** What an observer saw, in a form that does not depend on object identity. */
function seen(events: InspectionEvent[]): string[] {
  return events.map((event) => {
    const actor = event.actorRef as unknown as { id: string };
    const detail =
      event.type === '@xstate.event'
        ? (event.event as { type: string }).type
        : event.type === '@xstate.snapshot'
          ? JSON.stringify((event.snapshot as { value?: unknown }).value ?? null)
          : event.type === '@xstate.action'
            ? event.action.type
            : '';
    return `${event.type} ${actor.id === event.rootId ? 'root' : actor.id} ${detail}`;
  });
}

async function runWith(inspect: Observer<InspectionEvent>) {
  const actor = createActor(parent, { inspect, id: 'root' });
  actor.start();
  actor.send({ type: 'go' });
  await new Promise<void>((resolve) => actor.subscribe({ complete: resolve }));
  return actor;
}

describe('directInspection', () => {
  it('hands an observer the same events, in the same order, as XState hands a plain one', async () => {
    const plain: InspectionEvent[] = [];
    await runWith({ next: (event) => plain.push(event) });
    const direct: InspectionEvent[] = [];
    const actor = await runWith(directInspection({ next: (event) => direct.push(event) }));
    expect(seen(direct)).toEqual(seen(plain));
    expect(direct.every((event) => event.rootId === actor.sessionId)).toBe(true);
    // the invoked promise actor's events come the same way
    expect(
      direct.some((event) => event.actorRef !== actor && event.type === '@xstate.snapshot'),
    ).toBe(true);
  });

  it('takes over the delivery of its own system only while it is the only observer', () => {
    const first: string[] = [];
    const second: string[] = [];
    const toggle = createMachine({
      id: 'toggle',
      initial: 'off',
      states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } },
    });
    const actor = createActor(toggle, {
      inspect: directInspection({ next: (event) => first.push(event.type) }),
    });
    const system = actor.system as unknown as { _sendInspectionEvent: unknown };
    const taken = system._sendInspectionEvent;
    actor.start();
    actor.send({ type: 'flip' });
    expect(first).toEqual([
      '@xstate.actor',
      '@xstate.event',
      '@xstate.snapshot',
      '@xstate.event',
      '@xstate.microstep',
      '@xstate.snapshot',
    ]);
    // a second inspector added later: XState delivers to both from then on
    const subscription = actor.system.inspect((event) => second.push(event.type));
    expect(system._sendInspectionEvent).not.toBe(taken);
    actor.send({ type: 'flip' });
    expect(first.slice(6)).toEqual(['@xstate.event', '@xstate.microstep', '@xstate.snapshot']);
    expect(second).toEqual(['@xstate.event', '@xstate.microstep', '@xstate.snapshot']);
    subscription.unsubscribe();
    actor.stop();
  });

  it('composes: inside combineInspectors every observer still sees each event once', () => {
    const inner = directInspection({ next() {} });
    const seenTypes: string[] = [];
    const outer = combineInspectors(inner, (event) => seenTypes.push(event.type))!;
    const toggle = createMachine({ id: 'lamp', initial: 'off', states: { off: {} } });
    const actor = createActor(toggle, { inspect: outer }).start();
    expect(seenTypes).toEqual(['@xstate.actor', '@xstate.event', '@xstate.snapshot']);
    expect(directInspection(inner)).toBe(inner);
    actor.stop();
  });
});
