import type { JsonValue } from '../domain/shared/json.js';

export { valueLabel } from '../domain/shared/stateValueLabel.js';

/**
 * The state paths a state value makes active: every state on the way to each
 * active leaf, parents before children, parallel regions in value order.
 *
 * @example
 * ```ts
 * activePaths('idle');                            // ['idle']
 * activePaths({ running: 'acting' });             // ['running', 'running.acting']
 * activePaths({ p: { left: 'a', right: 'b' } });  // ['p', 'p.left', 'p.left.a', 'p.right', 'p.right.b']
 * activePaths(null);                              // []
 * ```
 */
export function activePaths(value: JsonValue, prefix = ''): string[] {
  const join = (key: string): string => (prefix === '' ? key : `${prefix}.${key}`);
  if (typeof value === 'string') return [join(value)];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    join(key),
    ...activePaths(inner, join(key)),
  ]);
}

/** One drawn arrow as the annotated SVG names it: `owner|index|source|target`. */
export interface DrawnEdge {
  readonly owner: string;
  readonly index: number;
  readonly source: string;
  readonly target: string;
  /** The event type of the transition (`''` for `always`). */
  readonly eventType: string;
}

/**
 * The arrow of the transition most likely taken from the active states
 * `before` to `after` on `eventType`: an arrow whose source was active before
 * and whose target is active after, for that event (an `always` or `after`
 * arrow when none is, or the eventless arrow out of a state the event led to
 * and that was left at once), the deepest source first. `null` when no arrow
 * explains the change (the first snapshot, a transition without a target).
 *
 * @example
 * ```ts
 * const edges = [
 *   { owner: 'idle', index: 0, source: 'idle', target: 'running', eventType: 'start' },
 *   { owner: 'running', index: 0, source: 'running', target: 'idle', eventType: 'stop' },
 * ];
 * takenEdge(edges, ['idle'], ['running'], 'start')?.source; // 'idle'
 * takenEdge(edges, ['idle'], ['idle'], 'start');            // null
 * ```
 */
export function takenEdge(
  edges: readonly DrawnEdge[],
  before: readonly string[],
  after: readonly string[],
  eventType: string | null,
): DrawnEdge | null {
  if (before.length === 0 || eventType === null) return null;
  const wasActive = new Set(before);
  const isActive = new Set(after);
  const candidates = edges.filter(
    (edge) => wasActive.has(edge.source) && isActive.has(edge.target),
  );
  const depth = (edge: DrawnEdge): number => edge.source.split('.').length;
  const deepest = (list: readonly DrawnEdge[]): DrawnEdge | null =>
    list.reduce<DrawnEdge | null>(
      (best, edge) => (best === null || depth(edge) > depth(best) ? edge : best),
      null,
    );
  const onEvent = deepest(candidates.filter((edge) => edge.eventType === eventType));
  if (onEvent !== null) return onEvent;
  const isEventless = (edge: DrawnEdge): boolean =>
    edge.eventType === '' || edge.eventType.startsWith('xstate.after');
  // Reached through an eventless or delayed hop after the event.
  const direct = deepest(candidates.filter(isEventless));
  if (direct !== null) return direct;
  // The event led to a passing state, left at once by an eventless arrow: that arrow is the last.
  const passedThrough = new Set(
    edges
      .filter((edge) => wasActive.has(edge.source) && edge.eventType === eventType)
      .map((edge) => edge.target),
  );
  return deepest(
    edges.filter(
      (edge) => isEventless(edge) && passedThrough.has(edge.source) && isActive.has(edge.target),
    ),
  );
}
