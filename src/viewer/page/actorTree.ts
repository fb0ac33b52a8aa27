import { valueLabel } from '../activeStates.js';
import type { ViewerTimeline } from '../viewerTimeline.js';
import { element, setText } from './dom.js';

/** Height of one row in px: the list draws only the rows in view. */
const ROW_HEIGHT = 24;
/** Rows drawn above and below the visible ones. */
const OVERSCAN = 8;

/**
 * The actor tree, virtualised: a spacer as tall as every row, and only the
 * rows in view drawn, each `data-actor="<id>"` with its machine, state and
 * status. A click selects the actor.
 */
export class ActorTree {
  readonly root: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly rows: HTMLElement;
  private selected: string | null = null;

  constructor(
    private readonly timeline: ViewerTimeline,
    private readonly onSelect: (sid: string) => void,
  ) {
    this.spacer = element('div', 'tree-spacer');
    this.rows = element('div', 'tree-rows');
    this.spacer.append(this.rows);
    this.root = element('section', 'tree', this.spacer);
    this.root.addEventListener('scroll', () => this.render());
    this.rows.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('[data-session]');
      if (row?.dataset.session !== undefined) this.onSelect(row.dataset.session);
    });
  }

  select(sid: string | null): void {
    this.selected = sid;
  }

  render(): void {
    const all = this.timeline.treeRows();
    this.spacer.style.height = `${all.length * ROW_HEIGHT}px`;
    const first = Math.max(0, Math.floor(this.root.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const visible = Math.ceil(this.root.clientHeight / ROW_HEIGHT) + 2 * OVERSCAN;
    const shown = all.slice(first, first + visible);
    this.rows.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    while (this.rows.children.length > shown.length) this.rows.lastElementChild?.remove();
    while (this.rows.children.length < shown.length) this.rows.append(newRow());
    shown.forEach(({ sid, depth }, index) => {
      const row = this.rows.children[index] as HTMLElement;
      const actor = this.timeline.actors.get(sid);
      const state = this.timeline.stateOf(sid);
      if (actor === undefined || state === undefined) return;
      const label = state.hasSnapshot ? valueLabel(state.value, state.status) : '';
      const status = !state.created ? 'not started' : state.status === '' ? 'active' : state.status;
      row.dataset.actor = actor.id;
      row.dataset.session = sid;
      row.dataset.stateLabel = label;
      row.dataset.status = status;
      row.classList.toggle('selected', sid === this.selected);
      row.style.paddingLeft = `${8 + depth * 14}px`;
      const [name, machine, value, badge] = row.children as unknown as HTMLElement[];
      setText(name!, actor.id);
      if (name!.title !== sid) name!.title = sid;
      setText(machine!, actor.machine ?? 'logic');
      setText(value!, label);
      setText(badge!, status);
      const badgeClass = `status status-${status.replace(' ', '-')}`;
      if (badge!.className !== badgeClass) badge!.className = badgeClass;
    });
  }
}

function newRow(): HTMLElement {
  return element(
    'div',
    'tree-row',
    element('span', 'actor-id'),
    element('span', 'actor-machine'),
    element('span', 'actor-state'),
    element('span', 'status'),
  );
}
