/**
 * arena's public API. Everything a host app may import is named here.
 */

export { CanonicalJsonError, canonicalJson, sha256Hex } from './domain/shared/canonicalJson.js';
// Shared building blocks
export { ArenaError } from './domain/shared/errors.js';
export type { JsonObject, JsonValue } from './domain/shared/json.js';
export type { BoxSpace, DiscreteSpace, Space } from './domain/shared/spaces.js';
export { clipToSpace, contains } from './domain/shared/spaces.js';

// Ports
export type { Clock, ManualClock } from './ports/clock.js';
export { fixedClock, systemClock } from './ports/clock.js';
export type { Logger, LoggerOptions, LogLevel } from './ports/logger.js';
export { createLogger, silentLogger } from './ports/logger.js';
