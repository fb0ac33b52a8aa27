import type fc from 'fast-check';
import { optionalPeers, requirePeer } from '../../ports/runtime/optionalPeers.js';

/** fast-check's default export, the `fc` of its docs. @internal */
export type FastCheck = typeof fc;

let loaded: FastCheck | undefined;

/**
 * fast-check, loaded by the first fuzz search: `arena-runtime/fuzz`'s other
 * names (`parseMetricRange`, `playSequence`, `formatFuzzReport`) do without it.
 *
 * @internal the fuzzer's own loader; its type is fast-check's.
 * @example
 * ```ts
 * const fc = fastCheck();
 * fc.sample(fc.nat(), 1).length; // 1
 * ```
 */
export function fastCheck(): FastCheck {
  loaded ??= requirePeer<{ default: FastCheck }>(
    optionalPeers['fast-check'],
    'arena-runtime/fuzz (the termination fuzzer)',
  ).default;
  return loaded;
}
