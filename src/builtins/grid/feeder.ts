import { GridTopologyError } from './errors.js';

/** One line of the feeder as the scenario declares it: `[from, to, r_ohm, x_ohm, max_mva]`. */
export interface LineSpec {
  readonly from: number;
  readonly to: number;
  readonly rOhm: number;
  readonly xOhm: number;
  readonly maxMva: number;
}

/**
 * A radial feeder in tree order, ready for an O(buses) power flow.
 *
 * Buses are indexed in breadth-first order from the slack bus (index 0), so
 * every bus comes after its parent. Bus `k > 0` has exactly one upstream
 * line, whose data sits at index `k` of `rOhm`, `xOhm` and `maxMva`.
 */
export interface Feeder {
  /** Bus numbers in tree order; `busIds[0]` is the slack bus. */
  readonly busIds: readonly number[];
  /** Bus number to tree index. */
  readonly indexOfBus: ReadonlyMap<number, number>;
  /** Tree index of each bus's parent; `-1` for the slack bus. */
  readonly parent: Int32Array;
  readonly rOhm: Float64Array;
  readonly xOhm: Float64Array;
  readonly maxMva: Float64Array;
  /** Lines in declaration order, each with the tree index of its downstream bus. */
  readonly lines: readonly (LineSpec & { readonly downstream: number })[];
}

/**
 * Build the tree order of a radial feeder from its lines.
 *
 * @throws GridTopologyError when a line repeats or loops, a bus has two
 * upstream paths, or a bus cannot be reached from the slack bus.
 * @example
 * ```ts
 * const feeder = buildFeeder([{ from: 0, to: 1, rOhm: 1, xOhm: 0.6, maxMva: 6 }], 0);
 * feeder.busIds; // [0, 1]
 * feeder.parent; // Int32Array [-1, 0]
 * ```
 */
export function buildFeeder(lines: readonly LineSpec[], slackBus: number): Feeder {
  const neighbours = new Map<number, { line: number; bus: number }[]>();
  const link = (bus: number, line: number, other: number): void => {
    const list = neighbours.get(bus) ?? [];
    list.push({ line, bus: other });
    neighbours.set(bus, list);
  };
  lines.forEach((line, index) => {
    if (line.from === line.to) {
      throw new GridTopologyError(`line ${index} connects bus ${line.from} to itself`);
    }
    link(line.from, index, line.to);
    link(line.to, index, line.from);
  });
  if (lines.length > 0 && !neighbours.has(slackBus)) {
    throw new GridTopologyError(`the slack bus ${slackBus} is on no line`);
  }

  const busIds = [slackBus];
  const indexOfBus = new Map([[slackBus, 0]]);
  const parentIndex = [-1];
  const upstreamLine = [-1];
  for (let cursor = 0; cursor < busIds.length; cursor++) {
    const bus = busIds[cursor]!;
    for (const { line, bus: other } of neighbours.get(bus) ?? []) {
      if (line === upstreamLine[cursor]) continue;
      if (indexOfBus.has(other)) {
        throw new GridTopologyError(
          `line ${line} (${lines[line]!.from}-${lines[line]!.to}) closes a loop: the feeder must be radial`,
        );
      }
      indexOfBus.set(other, busIds.length);
      busIds.push(other);
      parentIndex.push(cursor);
      upstreamLine.push(line);
    }
  }
  const unreachable = [...neighbours.keys()].filter((bus) => !indexOfBus.has(bus));
  if (unreachable.length > 0) {
    throw new GridTopologyError(
      `buses ${unreachable.join(', ')} are not connected to the slack bus ${slackBus}`,
    );
  }

  const size = busIds.length;
  const parent = Int32Array.from(parentIndex);
  const rOhm = new Float64Array(size);
  const xOhm = new Float64Array(size);
  const maxMva = new Float64Array(size);
  const downstreamOfLine = new Array<number>(lines.length);
  for (let bus = 1; bus < size; bus++) {
    const line = lines[upstreamLine[bus]!]!;
    rOhm[bus] = line.rOhm;
    xOhm[bus] = line.xOhm;
    maxMva[bus] = line.maxMva;
    downstreamOfLine[upstreamLine[bus]!] = bus;
  }
  return {
    busIds,
    indexOfBus,
    parent,
    rOhm,
    xOhm,
    maxMva,
    lines: lines.map((line, index) => ({ ...line, downstream: downstreamOfLine[index]! })),
  };
}

/** Line data of the generated feeders: a 20 kV overhead segment of about 4 km. */
export const GENERATED_LINE = { rOhm: 1.2, xOhm: 0.8, maxMva: 6 } as const;

/**
 * The lines of the default feeder: 7 buses in a chain `0-1-2-3-4-5-6`.
 *
 * @example
 * ```ts
 * defaultFeederLines().length; // 6
 * ```
 */
export function defaultFeederLines(): LineSpec[] {
  return chainLines(7);
}

function chainLines(buses: number): LineSpec[] {
  return Array.from({ length: buses - 1 }, (_, index) => ({
    from: index,
    to: index + 1,
    ...GENERATED_LINE,
  }));
}

/**
 * The lines of a generated radial feeder of `buses` buses numbered `0..buses-1`:
 * a binary tree (bus `i` hangs off bus `floor((i - 1) / 2)`), so depth grows
 * with log2(buses) and voltages stay plausible for large feeders.
 *
 * @example
 * ```ts
 * generatedFeederLines(4).map((line) => [line.from, line.to]); // [[0, 1], [0, 2], [1, 3]]
 * ```
 */
export function generatedFeederLines(buses: number): LineSpec[] {
  return Array.from({ length: buses - 1 }, (_, index) => ({
    from: Math.floor(index / 2),
    to: index + 1,
    ...GENERATED_LINE,
  }));
}
