import type { JsonObject, JsonValue } from '../domain/shared/json.js';
import type { PhaseRecord } from '../ports/store/store.js';
import type { PhaseOverview, SelectorChange } from './reportTypes.js';

/**
 * A stored phase as every run report opens it: position, name, mode, status
 * and termination reason, in that order (JSON output keeps it).
 *
 * @example
 * ```ts
 * phaseOverview(store.phases(runId)[0]!);
 * // { phaseIndex: 0, name: 'train', mode: 'train', status: 'done', terminationReason: 'success' }
 * ```
 */
export function phaseOverview(phase: PhaseRecord): PhaseOverview {
  return {
    phaseIndex: phase.phaseIndex,
    name: phase.name,
    mode: phase.mode,
    status: phase.status,
    terminationReason: phase.terminationReason,
  };
}

/**
 * Baseline and candidate per selector UID of a stored meta decision, in the
 * definition interface's order (`selectorOrder`: stored JSON sorts object
 * keys, so the order is kept apart), then any other UID either map holds.
 *
 * @example
 * ```ts
 * selectorChanges({ selectorOrder: ['b', 'a'] }, { a: 1, b: 2 }, { a: 1, b: 3 });
 * // [{ uid: 'b', baseline: 2, candidate: 3 }, { uid: 'a', baseline: 1, candidate: 1 }]
 * ```
 */
export function selectorChanges(
  record: JsonObject,
  baseline: JsonObject,
  candidate: JsonObject,
): SelectorChange[] {
  const order = Array.isArray(record.selectorOrder) ? record.selectorOrder.map(String) : [];
  const uids = [...new Set([...order, ...Object.keys(baseline), ...Object.keys(candidate)])];
  return uids.map((uid) => ({
    uid,
    baseline: (baseline[uid] as JsonValue | undefined) ?? null,
    candidate: (candidate[uid] as JsonValue | undefined) ?? null,
  }));
}
