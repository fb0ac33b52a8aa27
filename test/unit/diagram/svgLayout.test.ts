import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createMachine } from 'xstate';
import { machinesByName } from '../../../src/diagram/machineCatalog.js';
import { machineGraph } from '../../../src/diagram/machineGraph.js';
import type { Rect } from '../../../src/diagram/svgGeometry.js';
import {
  boxPadding,
  layoutMachineGraph,
  noteStyle,
  titleStyle,
} from '../../../src/diagram/svgLayout.js';
import { textWidth } from '../../../src/diagram/svgText.js';

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function contains(outer: Rect, inner: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** A parallel state with nested regions, transitions across them, to the machine and to itself. */
const regionsMachine = createMachine({
  id: 'regions',
  initial: 'working',
  on: { stop: '.stopped' },
  states: {
    working: {
      type: 'parallel',
      on: { jump: '.left.two' },
      states: {
        left: {
          initial: 'one',
          states: { one: { on: { next: 'two', restart: '#regions.working' } }, two: {} },
        },
        right: {
          initial: 'x',
          states: {
            x: { after: { 100: 'y' }, on: { poke: 'x', prod: 'x' } },
            y: { type: 'final' },
          },
        },
      },
    },
    stopped: { type: 'final' },
  },
});

const machines: [string, AnyStateMachine][] = [...machinesByName, ['regions', regionsMachine]];

describe('layoutMachineGraph', () => {
  for (const [name, machine] of machines) {
    describe(`the ${name} machine`, () => {
      const layout = layoutMachineGraph(machineGraph(machine));

      it('makes every box wide enough for its title and notes', () => {
        for (const state of layout.states) {
          const room = state.textRect.width - 2 * boxPadding.x + 0.5;
          expect(textWidth(state.title, titleStyle), state.path).toBeLessThanOrEqual(room);
          for (const note of state.notes) {
            expect(textWidth(note, noteStyle), note).toBeLessThanOrEqual(room);
          }
        }
      });

      it('puts each nested state inside its parent frame', () => {
        const byPath = new Map(layout.states.map((state) => [state.path, state]));
        for (const state of layout.states) {
          const parent = byPath.get(state.path.split('.').slice(0, -1).join('.'));
          if (parent !== undefined)
            expect(contains(parent.rect, state.rect), state.path).toBe(true);
          if (state.nested) expect(contains(state.rect, state.textRect), state.path).toBe(true);
        }
      });

      it('overlaps no state box, header or label with another', () => {
        const boxes = [
          ...layout.states.map((state) => ({ what: state.path, rect: state.textRect })),
          ...layout.arrows.flatMap((arrow) =>
            arrow.label === null ? [] : [{ what: arrow.label.text, rect: arrow.label.rect }],
          ),
        ];
        const clashes = boxes.flatMap((a, index) =>
          boxes
            .slice(index + 1)
            .filter((b) => overlaps(a.rect, b.rect))
            .map((b) => `${a.what} / ${b.what}`),
        );
        expect(clashes).toEqual([]);
      });

      it('keeps everything inside the drawing', () => {
        const whole = { x: 0, y: 0, width: layout.width, height: layout.height };
        for (const state of layout.states) expect(contains(whole, state.rect)).toBe(true);
        for (const point of layout.arrows.flatMap((arrow) => arrow.points)) {
          expect(contains(whole, { ...point, width: 0, height: 0 })).toBe(true);
        }
      });
    });
  }
});

describe('layoutMachineGraph, edge cases', () => {
  it('lays out a machine with no states as just its name', () => {
    const layout = layoutMachineGraph(machineGraph(createMachine({ id: 'empty' })));
    expect(layout.states).toEqual([]);
    expect(layout.arrows).toEqual([]);
    expect(Number.isFinite(layout.width) && layout.width > 0).toBe(true);
    expect(Number.isFinite(layout.height) && layout.height > 0).toBe(true);
  });

  it('draws a transition back to its own state as a loop from the box out to its label', () => {
    const layout = layoutMachineGraph(machineGraph(regionsMachine));
    const box = layout.states.find((state) => state.path === 'working.right.x')!.rect;
    const loops = layout.arrows.filter((arrow) =>
      ['poke', 'prod'].includes(arrow.label?.text ?? ''),
    );
    expect(loops).toHaveLength(2);
    for (const loop of loops) {
      const first = loop.points[0]!;
      const last = loop.points.at(-1)!;
      expect(first.x).toBe(box.x + box.width);
      expect(last.x).toBe(box.x + box.width);
      expect(first.y).toBeLessThan(last.y);
      const farthest = Math.max(...loop.points.map((point) => point.x));
      expect(farthest).toBeCloseTo(loop.label!.rect.x + 2);
    }
  });

  it('ends an arrow into a nested state at the border of its frame', () => {
    const layout = layoutMachineGraph(machineGraph(regionsMachine));
    const frame = layout.states.find((state) => state.path === 'working')!.rect;
    const initial = layout.arrows.find(
      (arrow) => arrow.label === null && arrow.points[0]!.y < frame.y,
    )!;
    expect(initial.points.at(-1)!.y).toBeCloseTo(frame.y);
  });
});
