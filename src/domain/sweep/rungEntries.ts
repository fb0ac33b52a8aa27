import { SweepDecisionError } from './errors.js';
import type { RungEntry, SweepObjective } from './types.js';

/**
 * Check a rung's entries and return them sorted by trial index, so that what
 * follows depends on the set of entries, never on the order they came in.
 * Throws `SweepDecisionError` for no objectives, a trial index that is not a
 * whole number ≥ 0, two entries for one trial, a value count other than the
 * objectives', or a value that is neither finite nor `null`.
 *
 * @example
 * ```ts
 * sortedRungEntries([{ trial: 2, values: [1], prunable: true }, { trial: 0, values: [3], prunable: true }], [objective]);
 * // [{ trial: 0, ... }, { trial: 2, ... }]
 * ```
 */
export function sortedRungEntries(
  entries: readonly RungEntry[],
  objectives: readonly SweepObjective[],
): RungEntry[] {
  if (objectives.length === 0) throw new SweepDecisionError('a rung needs at least one objective');
  const seen = new Set<number>();
  for (const [i, entry] of entries.entries()) {
    if (!Number.isInteger(entry.trial) || entry.trial < 0) {
      throw new SweepDecisionError(
        `entries[${i}].trial must be a whole number ≥ 0, got ${entry.trial}`,
      );
    }
    if (seen.has(entry.trial)) {
      throw new SweepDecisionError(
        `entries[${i}]: trial ${entry.trial} has two entries at the rung`,
      );
    }
    seen.add(entry.trial);
    if (entry.values.length !== objectives.length) {
      throw new SweepDecisionError(
        `entries[${i}] (trial ${entry.trial}) has ${entry.values.length} values for ${objectives.length} objectives`,
      );
    }
    const bad = entry.values.findIndex((value) => value !== null && !Number.isFinite(value));
    if (bad >= 0) {
      throw new SweepDecisionError(
        `entries[${i}].values[${bad}] (trial ${entry.trial}) must be a finite number or null, got ${entry.values[bad]}`,
      );
    }
  }
  return [...entries].sort((a, b) => a.trial - b.trial);
}
