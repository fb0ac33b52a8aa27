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
}
