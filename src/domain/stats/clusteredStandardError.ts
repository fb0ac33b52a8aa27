import { StatisticsInputError } from './errors.js';

/** A mean over observations grouped in clusters (a case's trials), with its clustered standard error. */
export interface ClusteredMean {
  /** Observations. */
  readonly n: number;
  /** Clusters with at least one observation. */
  readonly clusters: number;
  readonly mean: number | null;
  /** `null` for fewer than two clusters. */
  readonly standardError: number | null;
  /** clusters - 1, for a t interval; `null` with the standard error. */
  readonly degreesOfFreedom: number | null;
}

/**
 * The mean of observations that come in clusters, with the cluster-robust
 * standard error (Miller 2024, "Adding error bars to evals", eq. 5; Liang &
 * Zeger 1986): SE^2 = sum over clusters c of (sum over its observations of
 * (x - mean))^2 / n^2, as statsmodels' OLS on a constant with
 * `cov_type='cluster'` and `use_correction=False`. Trials of one case are not
 * independent: treating them so understates the error.
 *
 * Folded in memory bounded by the clusters still open: a cluster closes once
 * `clusterSize` entries (observations or `null`, an entry that is no
 * observation) are in, and is then three sums. Open clusters close at `result()`.
 *
 * @throws StatisticsInputError for a cluster size that is not a positive integer.
 * @example
 * ```ts
 * const clustered = clusteredMeanAccumulator(2);
 * for (const [key, value] of [['a', 1], ['a', 1], ['b', 0], ['b', 1], ['c', 0], ['c', 0]]) clustered.add(key, value);
 * clustered.result(); // { n: 6, clusters: 3, mean: 0.5, standardError: 0.23570226039551587, degreesOfFreedom: 2 }
 * ```
 */
export function clusteredMeanAccumulator(clusterSize: number): {
  add(cluster: string, value: number | null): void;
  result(): ClusteredMean;
} {
  if (!Number.isInteger(clusterSize) || clusterSize < 1) {
    throw new StatisticsInputError(`cluster size must be a positive integer, got ${clusterSize}`);
  }
  const open = new Map<string, { sum: number; count: number; entries: number }>();
  let n = 0;
  let clusters = 0;
  let total = 0;
  // sum of S_c^2, of n_c * S_c and of n_c^2: SE^2 n^2 = sum (S_c - n_c * mean)^2 expanded
  let sumOfSquaredSums = 0;
  let sumOfSizeTimesSum = 0;
  let sumOfSquaredSizes = 0;
  const close = (cluster: { sum: number; count: number }): void => {
    if (cluster.count === 0) return;
    clusters++;
    n += cluster.count;
    total += cluster.sum;
    sumOfSquaredSums += cluster.sum * cluster.sum;
    sumOfSizeTimesSum += cluster.count * cluster.sum;
    sumOfSquaredSizes += cluster.count * cluster.count;
  };
  return {
    add(key, value) {
      let cluster = open.get(key);
      if (cluster === undefined) {
        cluster = { sum: 0, count: 0, entries: 0 };
        open.set(key, cluster);
      }
      cluster.entries++;
      if (value !== null) {
        cluster.sum += value;
        cluster.count++;
      }
      if (cluster.entries >= clusterSize) {
        open.delete(key);
        close(cluster);
      }
    },
    result() {
      for (const cluster of open.values()) close(cluster);
      open.clear();
      if (n === 0) {
        return { n, clusters, mean: null, standardError: null, degreesOfFreedom: null };
      }
      const mean = total / n;
      if (clusters < 2) return { n, clusters, mean, standardError: null, degreesOfFreedom: null };
      const squared =
        sumOfSquaredSums - 2 * mean * sumOfSizeTimesSum + mean * mean * sumOfSquaredSizes;
      return {
        n,
        clusters,
        mean,
        standardError: Math.sqrt(Math.max(0, squared)) / n,
        degreesOfFreedom: clusters - 1,
      };
    },
  };
}
