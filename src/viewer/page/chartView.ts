import { activePaths, type DrawnEdge, takenEdge } from '../activeStates.js';
import type { ChartMessage, ViewerChart } from '../viewerMessages.js';
import type { ActorIdentity, ActorState } from '../viewerTimeline.js';
import { element } from './dom.js';

/** The smallest scale a chart is drawn at to fit the pane; a larger machine scrolls. */
const MIN_ZOOM = 0.6;

/**
 * The selected actor's statechart: sent once per machine by the server (laid
 * out there with `arena diagram`'s code), then lit for the state at the
 * scrubbed point: `data-active="true"` on each active state, and
 * `data-last-transition="true"` on the arrow of the last transition taken.
 */
export class ChartView {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly drawing: HTMLElement;
  private readonly charts = new Map<string, ViewerChart | string>();
  private shownKey: string | null = null;
  private shownChart: ViewerChart | null = null;
  private lit = '';

  constructor() {
    this.title = element('h2', 'chart-title', 'select an actor');
    this.drawing = element('div', 'chart');
    this.root = element('section', 'chart-pane', this.title, this.drawing);
  }

  show(actor: ActorIdentity | undefined, state: ActorState | undefined): void {
    if (actor === undefined || state === undefined) return;
    this.title.textContent = `${actor.id} · ${actor.machine ?? 'logic without states'}`;
    const key = actor.chart;
    if (key === null) {
      if (this.shownKey !== null || this.drawing.childElementCount === 0) {
        this.shownKey = null;
        this.shownChart = null;
        this.drawing.replaceChildren(
          element(
            'p',
            'no-chart',
            `${actor.id} runs no state machine: it has a status, no states.`,
          ),
        );
      }
      return;
    }
    if (key !== this.shownKey || this.shownChart === null) {
      const chart = this.charts.get(key);
      if (key === this.shownKey && chart === undefined) return;
      this.shownKey = key;
      this.shownChart = null;
      this.lit = '';
      if (chart === undefined) {
        this.drawing.replaceChildren(element('p', 'no-chart', 'drawing…'));
        return;
      }
      if (typeof chart === 'string') {
        this.drawing.replaceChildren(element('p', 'no-chart', chart));
        return;
      }
      this.shownChart = chart;
      // The server's own SVG (text escaped there); no script runs from it under the page's policy.
      this.drawing.innerHTML = chart.svg;
      this.fit();
    }
    this.light(state);
  }

  /** Scale the drawing to the pane's width, never below {@link MIN_ZOOM}: beyond that it scrolls. */
  private fit(): void {
    const svg = this.drawing.querySelector('svg');
    const natural = Number(svg?.getAttribute('width'));
    if (svg === null || !(natural > 0)) return;
    const zoom = Math.min(1, Math.max(MIN_ZOOM, (this.root.clientWidth - 24) / natural));
    svg.style.width = `${Math.round(natural * zoom)}px`;
  }

  /** Keep a chart the server sent (before the first actor that needs it). */
  store(message: ChartMessage): void {
    this.charts.set(message.key, message.chart ?? message.error ?? `no chart ${message.key}`);
  }

  private light(state: ActorState): void {
    const chart = this.shownChart;
    if (chart === null) return;
    const active = state.hasSnapshot ? activePaths(state.value) : [];
    const edge =
      state.previous === null
        ? null
        : takenEdge(chart.edges, activePaths(state.previous), active, state.event);
    const key = `${JSON.stringify(active)}|${edge === null ? '' : edgeName(edge)}`;
    if (key === this.lit) return;
    this.lit = key;
    const activeNames = new Set(active.map((path) => `${chart.machine}.${path}`));
    for (const node of this.drawing.querySelectorAll<SVGElement>('[data-state]')) {
      if (activeNames.has(node.dataset.state ?? '')) node.dataset.active = 'true';
      else delete node.dataset.active;
    }
    for (const node of this.drawing.querySelectorAll<SVGElement>('[data-last-transition]')) {
      delete node.dataset.lastTransition;
    }
    for (const node of this.drawing.querySelectorAll<SVGElement>('[data-edge-lit]')) {
      delete node.dataset.edgeLit;
    }
    // The deepest active state in view: a large machine scrolls to where it is.
    const leaf = active.at(-1);
    if (leaf !== undefined) {
      const target = this.drawing.querySelector(
        `[data-state="${CSS.escape(`${chart.machine}.${leaf}`)}"]`,
      );
      if (target != null && !within(target.getBoundingClientRect(), this.root)) {
        target.scrollIntoView({ block: 'center', inline: 'center' });
      }
    }
    if (edge === null) return;
    for (const node of this.drawing.querySelectorAll<SVGElement>(
      `[data-edge="${CSS.escape(edgeName(edge))}"]`,
    )) {
      if (node.tagName === 'path') node.dataset.lastTransition = 'true';
      else node.dataset.edgeLit = 'true';
    }
  }
}

/** Whether `box` lies in the part of `pane` in view (a lit state there needs no scrolling to). */
function within(box: DOMRect, pane: HTMLElement): boolean {
  const view = pane.getBoundingClientRect();
  return (
    box.left >= view.left &&
    box.right <= view.right &&
    box.top >= view.top &&
    box.bottom <= view.bottom
  );
}

function edgeName(edge: DrawnEdge): string {
  return `${edge.owner}|${edge.index}|${edge.source}|${edge.target}`;
}
