import type { JsonObject } from '../shared/json.js';
import { canonicalSha256 } from './canonicalHash.js';

/**
 * The revision of a scenario: sha256 of its canonical JSON. Key order does
 * not matter; non-finite numbers (YAML `.inf`, `.nan`) are hashed as tagged
 * strings so every scenario a YAML file can hold has a revision.
 *
 * @example
 * ```ts
 * scenarioRevision({ b: 1, a: 2 }) === scenarioRevision({ a: 2, b: 1 }); // true
 * scenarioRevision({}); // '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'
 * ```
 */
export function scenarioRevision(scenario: JsonObject): string {
  return canonicalSha256(scenario, { nonFinite: 'tag' });
}
