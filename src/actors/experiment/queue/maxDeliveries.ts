/**
 * How many deliveries a run with a permanent cause gets before it is failed.
 *
 * @example
 * ```ts
 * defaultMaxDeliveries; // 5: arena worker --max-deliveries N (or ARENA_MAX_DELIVERIES) changes it
 * ```
 */
export const defaultMaxDeliveries = 5;
