import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createMachine } from 'xstate';
import { type DiagramState, machineGraph } from '../../../src/diagram/machineGraph.js';
import { toMermaid } from '../../../src/diagram/mermaid.js';
import { mermaidStateIds } from '../../../src/diagram/mermaidIds.js';

/** A state of a generated chart: children (for a compound state) and transitions by event. */
interface StateShape {
  readonly final: boolean;
  readonly children: Record<string, StateShape>;
  readonly transitions: ReadonlyArray<{ event: string; targetPick: number; guard: string | null }>;
}

// Keys that repeat across levels, Mermaid keywords and a key with a space.
const keyArbitrary = fc.constantFrom('idle', 'running', 'done', 'note', 'end', 'step two', 'a');
const eventArbitrary = fc.constantFrom('go', 'stop', 'retry', 'tick.tock');
const transitionArbitrary = fc.record({
  event: eventArbitrary,
  targetPick: fc.nat(),
  guard: fc.option(fc.constantFrom('isReady', 'hasBudget'), { nil: null }),
});

const stateArbitrary = fc.letrec<{ state: StateShape }>((tie) => ({
  state: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      final: fc.boolean(),
      children: fc.constant({}),
      transitions: fc.array(transitionArbitrary, { maxLength: 3 }),
    }),
    fc.record({
      final: fc.constant(false),
      children: fc.dictionary(keyArbitrary, tie('state'), { minKeys: 1, maxKeys: 3 }),
      transitions: fc.array(transitionArbitrary, { maxLength: 2 }),
    }),
  ),
})).state;

const chartArbitrary = fc.dictionary(keyArbitrary, stateArbitrary, { minKeys: 1, maxKeys: 4 });

function paths(states: Record<string, StateShape>, prefix: string[] = []): string[][] {
  return Object.entries(states).flatMap(([key, state]) => [
    [...prefix, key],
    ...paths(state.children, [...prefix, key]),
  ]);
}

/** The XState config of a generated chart; targets are picked among all its states by id. */
function machineOf(chart: Record<string, StateShape>) {
  const all = paths(chart);
  const configOf = (states: Record<string, StateShape>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(states).map(([key, state]) => {
        const on: Record<string, unknown[]> = {};
        for (const transition of state.transitions) {
          const target = all[transition.targetPick % all.length]!;
          const candidates = on[transition.event] ?? [];
          candidates.push({
            target: `#chart.${target.join('.')}`,
            ...(transition.guard === null ? {} : { guard: transition.guard }),
          });
          on[transition.event] = candidates;
        }
        const children = Object.keys(state.children);
        if (children.length > 0) {
          return [key, { initial: children[0], states: configOf(state.children), on }];
        }
        return [key, state.final ? { type: 'final' } : { on }];
      }),
    );
  const config = { id: 'chart', initial: Object.keys(chart)[0], states: configOf(chart) };
  return createMachine(config as Parameters<typeof createMachine>[0]);
}

function descendants(state: DiagramState): DiagramState[] {
  return state.children.flatMap((child) => [child, ...descendants(child)]);
}

describe('toMermaid on generated charts', () => {
  test.prop([chartArbitrary], { numRuns: 150 })(
    'gives every state its own id, declares it, and draws one edge per transition target',
    (chart) => {
      const machine = machineOf(chart);
      const text = toMermaid(machine);
      expect(toMermaid(machineOf(chart))).toBe(text);

      const graph = machineGraph(machine);
      const ids = mermaidStateIds(graph);
      const states = descendants(graph);
      expect(new Set(ids.values()).size).toBe(states.length);

      const lines = text.split('\n').map((line) => line.trim());
      for (const state of states) {
        const id = ids.get(state.path)!;
        const declared = [
          `state "${state.key}" as ${id}`,
          `state ${id} {`,
          `${id} : ${state.key}`,
          id,
        ];
        expect(lines.some((line) => declared.includes(line))).toBe(true);
      }

      const edges = lines.filter((line) => / --> /.test(line) && !line.includes('[*]'));
      const expected = states.reduce(
        (count, state) =>
          count + state.transitions.reduce((sum, transition) => sum + transition.targets.length, 0),
        0,
      );
      expect(edges).toHaveLength(expected);
      for (const edge of edges)
        expect(edge).toMatch(/^[A-Za-z][\w]* --> [A-Za-z][\w]* : [^:;#"{}]+$/);
    },
  );
});
