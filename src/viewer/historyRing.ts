/**
 * The last `capacity` items pushed, oldest first: memory stays at
 * `capacity` items however many are pushed.
 *
 * @example
 * ```ts
 * const ring = new HistoryRing<number>(3);
 * for (const n of [1, 2, 3, 4, 5]) ring.push(n);
 * ring.toArray();  // [3, 4, 5]
 * ring.dropped;    // 2
 * ```
 */
export class HistoryRing<T> {
  readonly capacity: number;
  private readonly items: T[] = [];
  private start = 0;
  /** Items pushed out by newer ones so far. */
  dropped = 0;

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`a ring holds at least 1 item, got ${capacity}`);
    this.capacity = capacity;
  }

  /** Items held now. */
  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
    this.dropped += 1;
  }

  /** The items held, oldest first. */
  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }
}
