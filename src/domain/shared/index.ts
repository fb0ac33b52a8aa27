export {
  CanonicalJsonError,
  canonicalJson,
  type NonFinitePolicy,
  sha256Hex,
} from './canonicalJson.js';
export { ArenaError } from './errors.js';
export { deepFreeze, isPlainObject, type JsonObject, type JsonValue } from './json.js';
export { createRng, deriveSeed, type Rng } from './random.js';
export {
  type BoxSpace,
  clipToSpace,
  contains,
  type DiscreteSpace,
  type Space,
} from './spaces.js';
export { closestName, didYouMean } from './suggest.js';
