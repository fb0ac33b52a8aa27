import { InvalidRecordError } from './storeErrors.js';

/**
 * Check that `record[field]` is an integer of at least `min`.
 *
 * @example
 * ```ts
 * requireInteger('episode', { episode: 0 }, 1);
 * // InvalidRecordError: episode must be an integer >= 1, got 0
 * ```
 */
export function requireInteger(field: string, record: object, min: number): void {
  const value = (record as Record<string, unknown>)[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidRecordError(field, `an integer >= ${min}`, value);
  }
}

/**
 * Check that `record[field]` is a finite number.
 *
 * @example
 * ```ts
 * requireFinite('episodeReturn', { episodeReturn: Number.NaN });
 * // InvalidRecordError: episodeReturn must be a finite number, got NaN
 * ```
 */
export function requireFinite(field: string, record: object): void {
  const value = (record as Record<string, unknown>)[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidRecordError(field, 'a finite number', value);
  }
}
