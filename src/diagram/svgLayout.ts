import type Dagre from '@dagrejs/dagre';
import type { Graph } from '@dagrejs/dagre';
import { optionalPeers, requirePeer } from '../ports/runtime/optionalPeers.js';
import {
  type DiagramState,
  type DiagramTransition,
  descendants,
  transitionArrows,
} from './machineGraph.js';
import { clipAtEntry, type Point, type Rect } from './svgGeometry.js';
import { type TextStyle, textWidth } from './svgText.js';

/** How state names are set. */
export const titleStyle: TextStyle = { fontSize: 14, bold: true };
/** How notes inside a state and transition labels are set. */
export const noteStyle: TextStyle = { fontSize: 12, bold: false };
/** How the machine's name above the drawing is set. */
export const machineTitleStyle: TextStyle = { fontSize: 16, bold: true };

/** Heights in px of one line of each style, and the spacing around text in a box. */
export const lineHeights = { title: 18, note: 16, machineTitle: 22 } as const;
export const boxPadding = { x: 12, y: 8, separator: 6 } as const;
const minimumStateWidth = 72;
const initialDotSize = 14;
const labelPadding = { x: 6, y: 2 } as const;
const drawingMargin = 20;
/** How far above and below a state's centre the loops of its self-transitions run. */
const selfLoopSpread = { first: 7, step: 8 } as const;

/** The text of a state box or a nested state's header: its name, then what it does. */
export interface StateText {
  readonly title: string;
  /** `invokes runEpisode`, `on termination.checkpoint / recordCheckpointVerdict`. */
  readonly notes: readonly string[];
}

/** A state drawn as a box: an atomic or final state, or a nested state around its children. */
export interface StateBox extends StateText {
  readonly path: string;
  readonly final: boolean;
  /** True for a state with children, drawn as a frame with its header at the top. */
  readonly nested: boolean;
  readonly rect: Rect;
  /** Where the title and notes go: the box itself, or the header inside a nested state's frame. */
  readonly textRect: Rect;
}

/**
 * Which transition an arrow draws: the state that declares it (`''` for the
 * machine itself), its index among that state's transitions (as
 * `machineGraph` lists them), and the source and target states of this arrow.
 */
export interface ArrowTransition {
  readonly owner: string;
  readonly index: number;
  readonly source: string;
  readonly target: string;
}

/** A transition drawn as an arrow, with its label where the layout left room for it. */
export interface TransitionArrow {
  readonly points: readonly Point[];
  /** `start`, `runEpisode done [isReady]`, or `null` for the arrow from an initial dot. */
  readonly label: { readonly text: string; readonly rect: Rect } | null;
  /** The transition the arrow draws, `null` for the arrow from an initial dot. */
  readonly transition: ArrowTransition | null;
}

/** Everything `svgFromLayout` draws, in px, with the origin at the top-left corner. */
export interface MachineLayout {
  readonly width: number;
  readonly height: number;
  /** The machine's id and what the machine itself does, above the states. */
  readonly header: StateText & { readonly rect: Rect };
  /** States in definition order, each nested state before its children. */
  readonly states: readonly StateBox[];
  /** The centres of the initial-state dots. */
  readonly initialDots: readonly Point[];
  readonly initialDotRadius: number;
  readonly arrows: readonly TransitionArrow[];
}

interface NodeLabel {
  width: number;
  height: number;
  x?: number;
  y?: number;
}

interface EdgeLabel {
  width: number;
  height: number;
  labelpos: 'c';
  minlen: number;
  points?: Point[];
  x?: number;
  y?: number;
}

type LayoutGraph = Graph<object, NodeLabel, EdgeLabel>;

/** What the layout knows of each edge it was given, to draw it afterwards. */
interface PlannedArrow {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly label: string | null;
  /** The nested state whose frame the arrow must end at (it points at the frame's header). */
  readonly entersFrame: string | null;
  readonly transition: ArrowTransition | null;
}

/**
 * Lay out a machine graph with dagre, top to bottom: each state a box sized to
 * its text, each state with children a frame around them (a dagre cluster)
 * with its name and notes in a header at the top, a dot with an arrow to each
 * initial state, and one labelled arrow per transition target. A transition of
 * the machine itself is drawn from every top-level state that is not final,
 * as in the Mermaid diagram. The same graph always gives the same layout.
 *
 * @example
 * ```ts
 * const layout = layoutMachineGraph(machineGraph(judgeMachine));
 * layout.states.map((state) => state.path).slice(0, 2); // ['checkingSelfEvaluation', 'attempting']
 * layout.width > 0 && layout.height > 0; // true
 * ```
 */
export function layoutMachineGraph(root: DiagramState): MachineLayout {
  // dagre is loaded by the first SVG drawn: Mermaid text does without it.
  const dagre = requirePeer<{ default: typeof Dagre }>(
    optionalPeers['@dagrejs/dagre'],
    'arena-runtime/diagram and /report (SVG diagrams)',
  ).default;
  const graph: LayoutGraph = new dagre.graphlib.Graph<object, NodeLabel, EdgeLabel>({
    compound: true,
    multigraph: true,
  });
  graph.setGraph({
    rankdir: 'TB',
    nodesep: 36,
    ranksep: 36,
    edgesep: 16,
    marginx: 0,
    marginy: 0,
  });
  const states = descendants(root);
  const nested = new Set(
    states.filter((state) => state.children.length > 0).map((state) => state.path),
  );
  for (const state of states) addStateNodes(graph, state, nested);
  const initialParents = [root, ...states].filter((state) => state.initial !== null);
  for (const state of initialParents) addInitialDot(graph, state);
  const arrows = planArrows(root, states, nested);
  for (const arrow of arrows) {
    const size = arrow.label === null ? { width: 0, height: 0 } : labelSize(arrow.label);
    graph.setEdge(arrow.from, arrow.to, { ...size, labelpos: 'c', minlen: 1 }, arrow.name);
  }
  dagre.layout(graph);

  const header = machineHeader(root);
  const top = header.rect.y + header.rect.height + (header.rect.height > 0 ? 16 : 0);
  const shift = (point: Point): Point => ({ x: point.x + drawingMargin, y: point.y + top });
  const rectOf = (id: string): Rect => shiftRect(nodeRect(graph.node(id)), shift);
  const boxes = states.map((state) => stateBox(state, nested, rectOf));
  const frames = new Map(boxes.filter((box) => box.nested).map((box) => [box.path, box.rect]));
  const selfLoopCounts = new Map<string, number>();
  const laidOutArrows = arrows.map((arrow) => {
    const edge = graph.edge(arrow.from, arrow.to, arrow.name);
    const label =
      arrow.label === null
        ? null
        : { text: arrow.label, rect: shiftRect(nodeRect(edge as NodeLabel), shift) };
    if (arrow.from === arrow.to && label !== null) {
      // dagre leaves each label of a transition back to its own state beside the box, one
      // after the other: each loop reaches out to its label, around the ones before it.
      const order = selfLoopCounts.get(arrow.from) ?? 0;
      selfLoopCounts.set(arrow.from, order + 1);
      return {
        points: selfLoop(rectOf(arrow.from), label.rect, order),
        label,
        transition: arrow.transition,
      };
    }
    // An arrow from a nested state starts at its header; one to it ends at its frame.
    let points = (edge.points ?? []).map(shift);
    if (arrow.entersFrame !== null) points = clipAtEntry(points, frames.get(arrow.entersFrame)!);
    return { points, label, transition: arrow.transition };
  });
  const dots = initialParents.map((state) => {
    const rect = rectOf(initialDotId(state.path));
    return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
  });
  const size = graph.graph() as { width?: number; height?: number };
  const graphWidth = finiteOrZero(size.width);
  const graphHeight = finiteOrZero(size.height);
  return {
    width: Math.ceil(Math.max(graphWidth, header.rect.width) + 2 * drawingMargin),
    height: Math.ceil(top + graphHeight + drawingMargin),
    header,
    states: boxes,
    initialDots: dots,
    initialDotRadius: initialDotSize / 2,
    arrows: laidOutArrows,
  };
}

/**
 * The title and notes a state shows: what it invokes and its transitions that
 * stay in it (`on event [guard] / actions`).
 *
 * @example
 * ```ts
 * const simulating = machineGraph(simulationControllerMachine).children[1]!;
 * stateText(simulating);
 * // { title: 'simulating',
 * //   notes: ['invokes terminationEvents', 'on termination.checkpoint / recordCheckpointVerdict'] }
 * ```
 */
export function stateText(state: DiagramState): StateText {
  const invokes = state.invokes.map((source) => `invokes ${source}`);
  const internal = state.transitions
    .filter((transition) => transition.targets.length === 0)
    .map((transition) => {
      const actions = transition.actions.length === 0 ? '' : ` / ${transition.actions.join(', ')}`;
      return `on ${guardedEvent(transition)}${actions}`;
    });
  return { title: state.key, notes: [...invokes, ...internal] };
}

/**
 * What an arrow says: the event, then the guard in brackets when there is one.
 *
 * @example
 * ```ts
 * guardedEvent({ eventType: '', event: 'always', guard: 'isMetaProfile', targets: ['metaTurn'], actions: [] });
 * // 'always [isMetaProfile]'
 * ```
 */
export function guardedEvent(transition: DiagramTransition): string {
  return transition.guard === null ? transition.event : `${transition.event} [${transition.guard}]`;
}

/** A loop from the right side of `box` out to the edge of `label` and back, `order` loops out. */
function selfLoop(box: Rect, label: Rect, order: number): Point[] {
  const centreY = box.y + box.height / 2;
  const spread = selfLoopSpread.first + order * selfLoopSpread.step;
  const onBox = Math.min(spread, box.height / 2 - 3);
  const right = box.x + box.width;
  const reach = label.x + 2;
  return [
    { x: right, y: centreY - onBox },
    { x: reach, y: centreY - spread },
    { x: reach, y: centreY + spread },
    { x: right, y: centreY + onBox },
  ];
}

function addStateNodes(graph: LayoutGraph, state: DiagramState, nested: ReadonlySet<string>): void {
  const parentPath = parentOf(state.path);
  const parentId = parentPath === '' ? undefined : stateId(parentPath);
  graph.setNode(stateId(state.path), textBoxSize(stateText(state)));
  if (parentId !== undefined) graph.setParent(stateId(state.path), parentId);
  if (!nested.has(state.path)) return;
  // A nested state's header is a node of its own inside the frame, above every child.
  const header = headerId(state.path);
  graph.setNode(header, textBoxSize(stateText(state)));
  graph.setParent(header, stateId(state.path));
  const entered = new Set(
    state.children.flatMap((child) =>
      child.transitions.flatMap((transition) => transition.targets),
    ),
  );
  for (const child of state.children) {
    if (entered.has(child.path) || child.path === childPath(state, state.initial)) continue;
    graph.setEdge(header, anchorId(child.path, nested), hiddenEdge(), `above ${child.path}`);
  }
}

function addInitialDot(graph: LayoutGraph, state: DiagramState): void {
  const dot = initialDotId(state.path);
  graph.setNode(dot, { width: initialDotSize, height: initialDotSize });
  if (state.path !== '') {
    graph.setParent(dot, stateId(state.path));
    graph.setEdge(headerId(state.path), dot, hiddenEdge(), 'above initial');
  }
}

function planArrows(
  root: DiagramState,
  states: readonly DiagramState[],
  nested: ReadonlySet<string>,
): PlannedArrow[] {
  const arrows: PlannedArrow[] = [];
  for (const state of [root, ...states]) {
    if (state.initial === null) continue;
    const target = childPath(state, state.initial);
    arrows.push({
      name: `initial ${state.path}`,
      from: initialDotId(state.path),
      to: anchorId(target, nested),
      label: null,
      entersFrame: nested.has(target) ? target : null,
      transition: null,
    });
  }
  for (const { owner, transition, index, source, target } of transitionArrows(root)) {
    const inside = isWithin(target, source) || isWithin(source, target);
    arrows.push({
      name: `${owner.path} ${index} ${source} ${target}`,
      from: anchorId(source, nested),
      to: anchorId(target, nested),
      label: guardedEvent(transition),
      entersFrame: nested.has(target) && !inside ? target : null,
      transition: { owner: owner.path, index, source, target },
    });
  }
  return arrows;
}

function stateBox(
  state: DiagramState,
  nested: ReadonlySet<string>,
  rectOf: (id: string) => Rect,
): StateBox {
  const isNested = nested.has(state.path);
  const rect = rectOf(stateId(state.path));
  return {
    ...stateText(state),
    path: state.path,
    final: state.kind === 'final',
    nested: isNested,
    rect,
    textRect: isNested ? rectOf(headerId(state.path)) : rect,
  };
}

function machineHeader(root: DiagramState): StateText & { readonly rect: Rect } {
  const text = stateText(root);
  const width = Math.max(
    textWidth(text.title, machineTitleStyle),
    ...text.notes.map((note) => textWidth(note, noteStyle)),
  );
  const height = lineHeights.machineTitle + text.notes.length * lineHeights.note;
  return { ...text, rect: { x: drawingMargin, y: drawingMargin, width, height } };
}

/** The size of a box that shows a title, and under a line, its notes. */
function textBoxSize(text: StateText): { width: number; height: number } {
  const widest = Math.max(
    textWidth(text.title, titleStyle),
    ...text.notes.map((note) => textWidth(note, noteStyle)),
  );
  const notesHeight =
    text.notes.length === 0 ? 0 : boxPadding.separator + text.notes.length * lineHeights.note;
  return {
    width: Math.ceil(Math.max(minimumStateWidth, widest + 2 * boxPadding.x)),
    height: Math.ceil(2 * boxPadding.y + lineHeights.title + notesHeight),
  };
}

function labelSize(text: string): { width: number; height: number } {
  return {
    width: Math.ceil(textWidth(text, noteStyle) + 2 * labelPadding.x),
    height: lineHeights.note + 2 * labelPadding.y,
  };
}

function hiddenEdge(): EdgeLabel {
  return { width: 0, height: 0, labelpos: 'c', minlen: 1 };
}

function nodeRect(node: { width: number; height: number; x?: number; y?: number }): Rect {
  return {
    x: (node.x ?? 0) - node.width / 2,
    y: (node.y ?? 0) - node.height / 2,
    width: node.width,
    height: node.height,
  };
}

function shiftRect(rect: Rect, shift: (point: Point) => Point): Rect {
  return { ...rect, ...shift(rect) };
}

/** dagre leaves the size of an empty graph at -Infinity. */
function finiteOrZero(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) ? value : 0;
}

function stateId(path: string): string {
  return `state ${path}`;
}

function headerId(path: string): string {
  return `header ${path}`;
}

function initialDotId(path: string): string {
  return `initial ${path}`;
}

/** The node an arrow to or from a state attaches to: a nested state's header stands for its frame. */
function anchorId(path: string, nested: ReadonlySet<string>): string {
  return nested.has(path) ? headerId(path) : stateId(path);
}

function childPath(state: DiagramState, key: string | null): string {
  return state.path === '' ? `${key}` : `${state.path}.${key}`;
}

function parentOf(path: string): string {
  const end = path.lastIndexOf('.');
  return end === -1 ? '' : path.slice(0, end);
}

function isWithin(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(`${ancestor}.`);
}
