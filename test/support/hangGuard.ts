/**
 * How much longer than on a quiet machine a test may take before it counts as
 * hung: `ARENA_TEST_TIMEOUT_SCALE` when set (a positive number), else 3, room
 * for a machine whose cores are shared with two other busy processes. A
 * timeout is a guard against a hang, never a measure of speed: it costs time
 * only when something hangs, and a test that fails because the machine is busy
 * is a bug.
 */
export const loadScale = (() => {
  const set = Number(process.env.ARENA_TEST_TIMEOUT_SCALE);
  return Number.isFinite(set) && set > 0 ? set : 3;
})();

/**
 * A hang guard of `quietMs` (what a test may take on a quiet machine) scaled
 * for load by {@link loadScale}.
 *
 * @example
 * ```ts
 * it('survives a restart', async () => { ... }, hangGuard(60_000)); // 180 s by default
 * ```
 */
export function hangGuard(quietMs: number): number {
  return Math.round(quietMs * loadScale);
}
