/** The closed interval a metric's values are drawn from. */
export interface MetricRange {
  /**
   * The metric, or as given by `--metric` before it is resolved, `AGENT.METRIC`
   * for one agent's range (`SAC.objective`).
   */
  readonly metric: string;
  /**
   * Set when the range is one agent's only (`--metric SAC.objective=0:2`): it
   * overrides the metric's range for that agent. Absent: every agent's range.
   */
  readonly agent?: string;
  readonly low: number;
  readonly high: number;
  /**
   * `true` when the user gave no range: `0:1`, or wider when a success
   * threshold lies outside it (see `assumedFrom`).
   */
  readonly assumed: boolean;
  /** Why an assumed range is wider than `0:1` (`twice operator's success threshold 33`). */
  readonly assumedFrom?: string;
}
