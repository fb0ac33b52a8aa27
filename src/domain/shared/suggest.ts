/**
 * The candidate a mistyped name most likely meant: the closest by edit
 * distance (insertions, deletions, substitutions and swaps of two adjacent
 * letters, ignoring case), if it is close enough to be a typo: at most one
 * edit for names up to five letters, two for longer ones. Ties go to the
 * candidate listed first.
 *
 * @example
 * ```ts
 * closestName('min_evaluation', ['metric', 'min_evaluations']); // 'min_evaluations'
 * closestName('episdoes', ['mode', 'episodes']);                // 'episodes'
 * closestName('envs', ['agents', 'environments']);              // null
 * closestName('episode_begin', ['episode_start', 'episode_end']); // null
 * ```
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  const limit = name.length <= 5 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `; did you mean "x"?` for the closest candidate, or `''` when none is close.
 *
 * @example
 * ```ts
 * didYouMean('populaton', ['population', 'elite_fraction']); // '; did you mean "population"?'
 * didYouMean('colour', ['uid', 'seed']);                     // ''
 * ```
 */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const suggestion = closestName(name, candidates);
  return suggestion === null ? '' : `; did you mean ${JSON.stringify(suggestion)}?`;
}

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[] = new Array(rows * columns).fill(0);
  const at = (i: number, j: number) => table[i * columns + j] as number;
  for (let i = 0; i < rows; i++) table[i * columns] = i;
  for (let j = 0; j < columns; j++) table[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      }
      table[i * columns + j] = distance;
    }
  }
  return at(a.length, b.length);
}
