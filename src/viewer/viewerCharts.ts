import type { AnyStateMachine } from 'xstate';
import { type DiagramState, machineGraph, transitionArrows } from '../diagram/machineGraph.js';
import { svgFromLayout } from '../diagram/svg.js';
import { layoutMachineGraph } from '../diagram/svgLayout.js';
import type { DrawnEdge } from './activeStates.js';
import type { ViewerChart } from './viewerMessages.js';

/**
 * The statecharts a viewer can draw, by key: each machine's graph is read
 * once (from the live machine of an `@xstate.actor` event, or from arena's own
 * machines for a trace), and laid out with `arena diagram`'s SVG code the
 * first time a page asks for it.
 *
 * @example
 * ```ts
 * const charts = new ViewerCharts();
 * const key = charts.keyForLogic(judgeMachine); // 'judge'
 * charts.chart(key)?.svg.includes('data-state="judge.attempting"'); // true
 * ```
 */
export class ViewerCharts {
  private readonly graphs = new Map<string, DiagramState>();
  private readonly drawn = new Map<string, ViewerChart>();
  private readonly keysByLogic = new WeakMap<object, string | null>();

  /** The chart key of an actor's logic: a key for a state machine, `null` for other logic. */
  keyForLogic(logic: unknown): string | null {
    if (typeof logic !== 'object' || logic === null) return null;
    const known = this.keysByLogic.get(logic);
    if (known !== undefined) return known;
    const key = isStateMachine(logic) ? this.addGraph(machineGraph(logic)) : null;
    this.keysByLogic.set(logic, key);
    return key;
  }

  /** Keep a graph and give its key: the machine id, with `~2`, `~3`… for another machine of the same id. */
  addGraph(graph: DiagramState): string {
    let key = graph.key;
    for (let copy = 2; this.graphs.has(key); copy++) key = `${graph.key}~${copy}`;
    this.graphs.set(key, graph);
    return key;
  }

  /** The key a graph was added under for `machineId` first, if any. */
  has(key: string): boolean {
    return this.graphs.has(key);
  }

  /** The chart under `key`, laid out on the first call; `undefined` for an unknown key. */
  chart(key: string): ViewerChart | undefined {
    const done = this.drawn.get(key);
    if (done !== undefined) return done;
    const graph = this.graphs.get(key);
    if (graph === undefined) return undefined;
    const chart = {
      machine: graph.key,
      svg: svgFromLayout(layoutMachineGraph(graph), { annotate: true }),
      edges: edgesOf(graph),
    };
    this.drawn.set(key, chart);
    return chart;
  }
}

/** Every transition target of a graph as an arrow the layout draws it with. */
function edgesOf(root: DiagramState): DrawnEdge[] {
  return transitionArrows(root).map(({ owner, transition, index, source, target }) => ({
    owner: owner.path,
    index,
    source,
    target,
    eventType: transition.eventType,
  }));
}

function isStateMachine(logic: object): logic is AnyStateMachine {
  const candidate = logic as { root?: unknown; config?: unknown; transition?: unknown };
  return (
    typeof candidate.root === 'object' &&
    candidate.root !== null &&
    typeof candidate.config === 'object' &&
    typeof candidate.transition === 'function'
  );
}
