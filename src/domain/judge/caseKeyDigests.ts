/**
 * The case keys of a cases file seen so far, as 64-bit digests in an
 * open-addressing table: 8 bytes a slot, at most half the slots full, so
 * 16 to 32 bytes a case (a `Set` of the keys themselves costs the key's
 * characters and some 50 bytes more each). A digest says a key was *maybe*
 * seen: the caller confirms a repeat against the keys themselves (two keys
 * share a digest about once in 2^64 pairs).
 *
 * @example
 * ```ts
 * const seen = createCaseKeyDigests();
 * seen.add('["run","a","a"]'); // true: new
 * seen.add('["run","a","a"]'); // false: seen before
 * seen.bytes(); // 8192: the table, whatever the keys' length
 * ```
 */
export function createCaseKeyDigests(): {
  /** Remember `key`: `false` when its digest was there already. */
  add(key: string): boolean;
  /** Keys added (those whose digest was new). */
  size(): number;
  /** Bytes held by the table. */
  bytes(): number;
} {
  let slots = 1024;
  let table = new Uint32Array(slots * 2);
  let size = 0;
  const insert = (high: number, low: number): boolean => {
    const mask = slots - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const at = slot * 2;
      if (table[at] === 0 && table[at + 1] === 0) {
        table[at] = high;
        table[at + 1] = low;
        return true;
      }
      if (table[at] === high && table[at + 1] === low) return false;
    }
  };
  const grow = (): void => {
    const old = table;
    slots *= 2;
    table = new Uint32Array(slots * 2);
    for (let at = 0; at < old.length; at += 2) {
      if (old[at] !== 0 || old[at + 1] !== 0) insert(old[at]!, old[at + 1]!);
    }
  };
  return {
    add(key) {
      const [high, low] = digestOf(key);
      if (!insert(high, low)) return false;
      size++;
      if (size * 2 > slots) grow();
      return true;
    },
    size: () => size,
    bytes: () => table.byteLength,
  };
}

/** Two independent 32-bit hashes of the key's UTF-16 code units (FNV-1a and a murmur-style mix); never both 0, the empty slot. */
function digestOf(key: string): [number, number] {
  let high = 0x811c9dc5;
  let low = 0x9747b28c;
  for (let index = 0; index < key.length; index++) {
    const unit = key.charCodeAt(index);
    high = Math.imul(high ^ unit, 0x01000193);
    low = Math.imul(low ^ unit, 0x5bd1e995);
    low ^= low >>> 15;
  }
  high >>>= 0;
  low = Math.imul(low ^ (low >>> 13), 0xc2b2ae35) >>> 0;
  return high === 0 && low === 0 ? [0, 1] : [high, low];
}
