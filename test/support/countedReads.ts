import type { RunStore } from '../../src/ports/store/store.js';

/**
 * The store as `store`, with its calls of `methods` counted: what a follower
 * costs the store (in tests and `bench/statusPush.ts`).
 */
export function countedReads(
  store: RunStore,
  methods: readonly string[],
): { store: RunStore; reads: { count: number } } {
  const reads = { count: 0 };
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (!methods.includes(String(name))) return value.bind(target);
      return (...args: unknown[]) => {
        reads.count += 1;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, reads };
}
