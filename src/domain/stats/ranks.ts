/**
 * The ranks of values, 1-based, ties given the mean of the ranks they span
 * (SciPy's `rankdata(method='average')`).
 *
 * @example
 * ```ts
 * averageRanks([10, 20, 20, 5]); // Float64Array [2, 3.5, 3.5, 1]
 * ```
 */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const order = Array.from({ length: values.length }, (_, index) => index).sort(
    (a, b) => values[a]! - values[b]!,
  );
  const ranks = new Float64Array(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    // positions start..end-1 hold ranks start+1..end: their mean
    const rank = (start + 1 + end) / 2;
    for (let position = start; position < end; position++) ranks[order[position]!] = rank;
    start = end;
  }
  return ranks;
}
