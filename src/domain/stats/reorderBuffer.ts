import { StatisticsInputError } from './errors.js';

/** A reorder buffer: see {@link reorderBuffer}. */
export interface ReorderBuffer<T> {
  /** Take the result of draw index `index`; returns the results now foldable, in draw order. */
  add(index: number, value: T): T[];
  /** The draw index the fold waits for next. */
  readonly next: number;
  /** Results held because an earlier draw index has not come in yet. */
  readonly waiting: number;
}

/**
 * Results come in as judgements finish; they leave in draw order. A result
 * waits here until every case drawn before it has come in, so the fold sees
 * the order the cases were drawn in, never the order they completed in (slow
 * failures cannot make an early pass). Holds at most the results that ran
 * ahead, which the caller bounds.
 *
 * @throws StatisticsInputError for an index already taken or already folded.
 * @example
 * ```ts
 * const buffer = reorderBuffer<string>();
 * buffer.add(1, 'b'); // []
 * buffer.add(0, 'a'); // ['a', 'b']
 * ```
 */
export function reorderBuffer<T>(start = 0): ReorderBuffer<T> {
  const held = new Map<number, T>();
  let next = start;
  return {
    add(index, value) {
      if (!Number.isSafeInteger(index) || index < next || held.has(index)) {
        throw new StatisticsInputError(
          `draw index ${index} was already taken (the fold waits for ${next})`,
        );
      }
      held.set(index, value);
      const ready: T[] = [];
      for (let found = held.get(next); found !== undefined || held.has(next); ) {
        held.delete(next);
        ready.push(found as T);
        next++;
        found = held.get(next);
      }
      return ready;
    },
    get next() {
      return next;
    },
    get waiting() {
      return held.size;
    },
  };
}
