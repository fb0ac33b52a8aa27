import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { machinesByName } from '../../../src/diagram/machineCatalog.js';
import { type DiagramState, machineGraph } from '../../../src/diagram/machineGraph.js';
import { toSvg } from '../../../src/diagram/svg.js';
import { guardedEvent, stateText } from '../../../src/diagram/svgLayout.js';
import { allElements, parseXml, type XmlElement } from './svgXml.js';

function texts(root: XmlElement): string[] {
  return allElements(root)
    .filter((element) => element.name === 'text')
    .map((element) => element.text);
}

function states(state: DiagramState): DiagramState[] {
  return state.children.flatMap((child) => [child, ...states(child)]);
}

/** A machine with XML's special characters in a state name, an event, a guard and an action. */
function awkwardMachine() {
  return createMachine({
    id: 'm<&>',
    initial: 'a<b',
    states: {
      'a<b': {
        on: {
          'go&"now"': { target: 'c>d', guard: "x<'y'" },
          'note<&>': { actions: 'log&<' },
        },
      },
      'c>d': { type: 'final' },
    },
  });
}

describe('toSvg', () => {
  for (const [name, machine] of machinesByName) {
    describe(`the ${name} machine`, () => {
      const svg = toSvg(machine);
      const root = parseXml(svg);
      const graph = machineGraph(machine);

      it('is a well-formed SVG document sized by its viewBox', () => {
        expect(root.name).toBe('svg');
        expect(root.attributes.get('xmlns')).toBe('http://www.w3.org/2000/svg');
        const width = Number(root.attributes.get('width'));
        const height = Number(root.attributes.get('height'));
        expect(width).toBeGreaterThan(100);
        expect(height).toBeGreaterThan(100);
        expect(root.attributes.get('viewBox')).toBe(`0 0 ${width} ${height}`);
        const background = root.children.find((child) => child.name === 'rect');
        expect(background?.attributes.get('fill')).toBe('#ffffff');
        expect(background?.attributes.get('width')).toBe(String(width));
      });

      it('shows every state, what it invokes, and every transition label', () => {
        const shown = texts(root);
        expect(shown).toContain(machine.id);
        for (const state of states(graph)) {
          expect(shown).toContain(state.key);
          for (const note of stateText(state).notes) expect(shown).toContain(note);
          for (const source of state.invokes) expect(shown).toContain(`invokes ${source}`);
          for (const transition of state.transitions) {
            if (transition.targets.length > 0) expect(shown).toContain(guardedEvent(transition));
          }
        }
      });

      it('draws one arrow per initial state and per transition target', () => {
        const all = [graph, ...states(graph)];
        const topLevelSources = graph.children.filter((child) => child.kind !== 'final').length;
        const expected =
          all.filter((state) => state.initial !== null).length +
          all
            .flatMap((state) =>
              state.transitions.map(
                (transition) => transition.targets.length * (state === graph ? topLevelSources : 1),
              ),
            )
            .reduce((sum, count) => sum + count, 0);
        const arrows = allElements(root).filter(
          (element) => element.name === 'path' && element.attributes.has('marker-end'),
        );
        expect(arrows).toHaveLength(expected);
        const dots = allElements(root).filter((element) => element.name === 'circle');
        expect(dots).toHaveLength(all.filter((state) => state.initial !== null).length);
      });

      it('is byte-identical each time it is drawn', () => {
        expect(toSvg(machine)).toBe(svg);
      });
    });
  }

  it('escapes <, &, >, quotes and apostrophes in names, events, guards and actions', () => {
    const svg = toSvg(awkwardMachine());
    const shown = texts(parseXml(svg));
    expect(shown).toContain('m<&>');
    expect(shown).toContain('a<b');
    expect(shown).toContain('c>d');
    expect(shown).toContain(`go&"now" [x<'y']`);
    expect(shown).toContain('on note<&> / log&<');
    expect(svg).not.toContain('a<b');
    expect(svg).toContain('a&lt;b');
  });

  it('draws a final state with a second border inside its box', () => {
    const svg = toSvg(awkwardMachine());
    const rects = allElements(parseXml(svg)).filter((element) => element.name === 'rect');
    const innerBorders = rects.filter((rect) => rect.attributes.get('fill') === 'none');
    expect(innerBorders).toHaveLength(1);
  });

  it('gives the same bytes for two separately built copies of a machine', () => {
    expect(toSvg(awkwardMachine())).toBe(toSvg(awkwardMachine()));
  });

  it('draws a machine with no states as its name alone, in a finite viewBox', () => {
    const root = parseXml(toSvg(createMachine({ id: 'empty' })));
    expect(texts(root)).toEqual(['empty']);
    expect(root.attributes.get('viewBox')).toMatch(/^0 0 \d+ \d+$/);
  });
});
