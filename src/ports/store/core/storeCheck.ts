import type { DeepCheck } from './sealedRecords.js';

/** What `arena check` found in a store, of either database. */
export interface StoreCheck {
  readonly path: string;
  /** The store's schema version. */
  readonly schemaVersion: number;
  /** Whether the schema is the newest this arena knows (an older one is upgraded by the next `arena run`). */
  readonly upToDate: boolean;
  readonly runs: number;
  /** What is wrong with it (damage, missing tables); empty when it is sound. */
  readonly problems: readonly string[];
  /**
   * `--deep`: each finished run's records (and evaluation run's verdicts and
   * cases' digests) against the digest kept when it finished; absent without
   * `--deep`, or on a schema without digests.
   */
  readonly deep?: DeepCheck;
}

/** How a store is checked. */
export interface StoreCheckOptions {
  /** Also take every finished run's digest again (reads all its records). */
  readonly deep?: boolean;
}
