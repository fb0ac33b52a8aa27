/** A point of a drawing, in px from its top-left corner. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** An axis-aligned rectangle: its top-left corner and its size. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * A polyline cut where it first enters `rect`: the points up to the border and
 * the point on the border. A polyline that starts inside `rect`, or never
 * enters it, comes back unchanged. This is how an arrow drawn to a nested
 * state ends at the border of its frame.
 *
 * @example
 * ```ts
 * clipAtEntry([{ x: 0, y: 0 }, { x: 0, y: 100 }], { x: -10, y: 50, width: 20, height: 20 });
 * // [{ x: 0, y: 0 }, { x: 0, y: 50 }]
 * ```
 */
export function clipAtEntry(points: readonly Point[], rect: Rect): Point[] {
  const first = points[0];
  if (first === undefined || isInside(first, rect)) return [...points];
  for (let index = 1; index < points.length; index += 1) {
    const start = points[index - 1]!;
    const entry = entryFraction(start, points[index]!, rect);
    if (entry !== null) return [...points.slice(0, index), along(start, points[index]!, entry)];
  }
  return [...points];
}

/**
 * The SVG path data of a polyline with its corners rounded: straight to the
 * middle of each segment, then a quadratic curve around each inner point.
 *
 * @example
 * ```ts
 * smoothPath([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }]);
 * // 'M0 0L5 0Q10 0 10 5L10 10'
 * ```
 */
export function smoothPath(points: readonly Point[]): string {
  const [first, ...rest] = points;
  if (first === undefined) return '';
  let path = `M${svgNumber(first.x)} ${svgNumber(first.y)}`;
  rest.forEach((point, index) => {
    const next = rest[index + 1];
    if (next === undefined) {
      path += `L${svgNumber(point.x)} ${svgNumber(point.y)}`;
      return;
    }
    const previous = index === 0 ? first : rest[index - 1]!;
    const into = midpoint(previous, point);
    const out = midpoint(point, next);
    path += `L${svgNumber(into.x)} ${svgNumber(into.y)}`;
    path += `Q${svgNumber(point.x)} ${svgNumber(point.y)} ${svgNumber(out.x)} ${svgNumber(out.y)}`;
  });
  return path;
}

/**
 * A coordinate as SVG text: rounded to one decimal, without trailing zeros and
 * never `-0`, so the same layout always gives the same text.
 *
 * @example
 * ```ts
 * svgNumber(12.345); // '12.3'
 * svgNumber(-0.04); // '0'
 * ```
 */
export function svgNumber(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

function isInside(point: Point, rect: Rect): boolean {
  return (
    point.x > rect.x &&
    point.x < rect.x + rect.width &&
    point.y > rect.y &&
    point.y < rect.y + rect.height
  );
}

/**
 * How far along the segment from `start` to `end` it enters `rect` (0 to 1),
 * or `null` when it does not touch it (Liang-Barsky clipping).
 */
function entryFraction(start: Point, end: Point, rect: Rect): number | null {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const bounds: readonly (readonly [number, number])[] = [
    [-dx, start.x - rect.x],
    [dx, rect.x + rect.width - start.x],
    [-dy, start.y - rect.y],
    [dy, rect.y + rect.height - start.y],
  ];
  let enter = 0;
  let leave = 1;
  for (const [direction, distance] of bounds) {
    if (direction === 0) {
      if (distance < 0) return null;
      continue;
    }
    const fraction = distance / direction;
    if (direction < 0) enter = Math.max(enter, fraction);
    else leave = Math.min(leave, fraction);
  }
  return enter <= leave ? enter : null;
}

function along(from: Point, to: Point, fraction: number): Point {
  return { x: from.x + (to.x - from.x) * fraction, y: from.y + (to.y - from.y) * fraction };
}

function midpoint(a: Point, b: Point): Point {
  return along(a, b, 0.5);
}
