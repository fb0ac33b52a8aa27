import { describe, expect, it } from 'vitest';
import { and, createMachine, fromPromise, not, setup } from 'xstate';
import { machineGraph } from '../../../src/diagram/machineGraph.js';
import { toMermaid } from '../../../src/diagram/mermaid.js';

const doorMachine = setup({
  actors: { openDoor: fromPromise(async () => 'open') },
  guards: { isLocked: () => false, hasKey: () => true, isJammed: () => false },
  actions: { countKnock: () => {}, logClose: () => {} },
  delays: { patience: 1000 },
}).createMachine({
  id: 'door',
  initial: 'closed',
  on: { smash: '.broken' },
  states: {
    closed: {
      on: {
        open: [
          { guard: 'isLocked', target: 'locked' },
          { guard: and(['hasKey', not('isJammed')]), target: 'opening' },
        ],
        knock: { actions: 'countKnock' },
      },
    },
    locked: { after: { patience: 'closed', 500: 'broken' } },
    opening: {
      invoke: { src: 'openDoor', onDone: 'open', onError: 'broken' },
    },
    open: {
      initial: 'swinging',
      states: {
        swinging: { always: 'resting' },
        resting: { type: 'final' },
      },
      onDone: 'closed',
    },
    broken: { type: 'final' },
  },
});

function lines(text: string): string[] {
  return text.split('\n').map((line) => line.trim());
}

describe('toMermaid', () => {
  it('starts a stateDiagram-v2 and marks the initial state of the machine and of each composite state', () => {
    const text = toMermaid(doorMachine);
    expect(text.startsWith('stateDiagram-v2\n')).toBe(true);
    expect(lines(text)[1]).toBe('[*] --> closed');
    const open = text.indexOf('state open {');
    expect(open).toBeGreaterThan(-1);
    expect(lines(text.slice(open))[1]).toBe('[*] --> swinging');
  });

  it('nests child states inside their composite state', () => {
    const text = toMermaid(doorMachine);
    const block = text.slice(
      text.indexOf('state open {'),
      text.indexOf('}', text.indexOf('state open {')),
    );
    expect(block).toContain('swinging');
    expect(block).toContain('resting --> [*]');
  });

  it('marks every final state with a transition to [*]', () => {
    const found = lines(toMermaid(doorMachine)).filter((line) => line.endsWith('--> [*]'));
    expect(found).toEqual(['resting --> [*]', 'broken --> [*]']);
  });

  it('labels transitions with the event and the guard name, higher-order guards spelled out', () => {
    const text = lines(toMermaid(doorMachine));
    expect(text).toContain('closed --> locked : open [isLocked]');
    expect(text).toContain('closed --> opening : open [and(hasKey, not(isJammed))]');
  });

  it('names the invoked actor in its state and in its done and error transitions', () => {
    const text = lines(toMermaid(doorMachine));
    expect(text).toContain('opening : opening');
    expect(text).toContain('opening : invokes openDoor');
    expect(text).toContain('opening --> open : openDoor done');
    expect(text).toContain('opening --> broken : openDoor error');
  });

  it('labels delayed, eventless and state-done transitions', () => {
    const text = lines(toMermaid(doorMachine));
    expect(text).toContain('locked --> closed : after patience');
    expect(text).toContain('locked --> broken : after 500ms');
    expect(text).toContain('swinging --> resting : always');
    expect(text).toContain('open --> closed : open done');
  });

  it('writes a targetless transition inside its state, with its actions', () => {
    expect(lines(toMermaid(doorMachine))).toContain('closed : on knock / countKnock');
  });

  it('draws a transition of the machine itself from every top-level state that is not final', () => {
    const smash = lines(toMermaid(doorMachine)).filter((line) => line.endsWith(': smash'));
    expect(smash).toEqual([
      'closed --> broken : smash',
      'locked --> broken : smash',
      'opening --> broken : smash',
      'open --> broken : smash',
    ]);
  });

  it('writes what the machine itself invokes and does in every top-level state that can move', () => {
    const machine = setup({
      actors: { heartbeat: fromPromise(async () => 'beat') },
      actions: { countPing: () => {} },
    }).createMachine({
      id: 'pinger',
      initial: 'waiting',
      invoke: { src: 'heartbeat' },
      on: { ping: { actions: 'countPing' }, reset: '#pinger' },
      states: { waiting: { on: { go: 'over' } }, over: { type: 'final' } },
    });
    const text = lines(toMermaid(machine));
    expect(text).toContain('waiting : invokes heartbeat');
    expect(text).toContain('waiting : on ping / countPing');
    expect(text.filter((line) => line.startsWith('over :'))).toEqual([]);
    expect(text).toContain('waiting --> waiting : reset');
  });

  it('gives states that share a key distinct ids and shows their key', () => {
    const machine = createMachine({
      id: 'twins',
      initial: 'left',
      states: {
        left: { initial: 'idle', states: { idle: { on: { go: '#twins.right.idle' } } } },
        right: { initial: 'idle', states: { idle: {} } },
      },
    });
    const text = lines(toMermaid(machine));
    expect(text).toContain('state "idle" as state_left_idle');
    expect(text).toContain('state "idle" as state_right_idle');
    expect(text).toContain('state_left_idle --> state_right_idle : go');
  });

  it('renames a state whose key is a Mermaid keyword or not a plain identifier', () => {
    const machine = createMachine({
      id: 'words',
      initial: 'note',
      states: { note: { on: { next: 'step two' } }, 'step two': { type: 'final' } },
    });
    const text = lines(toMermaid(machine));
    expect(text).toContain('state "note" as state_note');
    expect(text).toContain('state "step two" as state_step_two');
    expect(text).toContain('state_note --> state_step_two : next');
  });

  it('keeps Mermaid syntax characters out of labels', () => {
    const machine = createMachine({
      id: 'odd',
      initial: 'a',
      states: { a: { on: { 'say: "hi"; #1 {x}': 'b' } }, b: {} },
    });
    expect(lines(toMermaid(machine))).toContain('a --> b : say_ _hi__ _1 _x_');
  });

  it('separates the regions of a parallel state', () => {
    const machine = createMachine({
      id: 'both',
      type: 'parallel',
      states: {
        sound: { initial: 'muted', states: { muted: {} } },
        light: { initial: 'dark', states: { dark: {} } },
      },
    });
    const text = lines(toMermaid(machine));
    const separator = text.indexOf('--');
    expect(separator).toBeGreaterThan(text.indexOf('state sound {'));
    expect(separator).toBeLessThan(text.indexOf('state light {'));
  });

  it('gives the same text for the same machine every time', () => {
    expect(toMermaid(doorMachine)).toBe(toMermaid(doorMachine));
  });
});

describe('machineGraph', () => {
  it('reads states, initial states, invokes and transitions as plain data', () => {
    const graph = machineGraph(doorMachine);
    expect(graph.key).toBe('door');
    expect(graph.initial).toBe('closed');
    expect(graph.children.map((state) => [state.key, state.kind])).toEqual([
      ['closed', 'atomic'],
      ['locked', 'atomic'],
      ['opening', 'atomic'],
      ['open', 'compound'],
      ['broken', 'final'],
    ]);
    expect(graph.children[2]?.invokes).toEqual(['openDoor']);
    expect(graph.children[0]?.transitions[2]).toEqual({
      eventType: 'knock',
      event: 'knock',
      guard: null,
      targets: [],
      actions: ['countKnock'],
    });
    expect(graph.children[3]?.children[0]?.transitions[0]?.targets).toEqual(['open.resting']);
  });
});
