import type { JsonValue } from './json.js';

/**
 * A readable label of a state value, as `arena trace` prints it: the dotted
 * path, parallel regions joined with `, `; the status for logic without
 * states.
 *
 * @example
 * ```ts
 * valueLabel({ running: 'acting' }, 'active'); // 'running.acting'
 * valueLabel(null, 'done');                     // 'done'
 * ```
 */
export function valueLabel(value: JsonValue, status: string): string {
  const label = labelOf(value);
  return label === '' ? status : label;
}

function labelOf(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
  return Object.entries(value)
    .map(([key, inner]) => {
      const innerLabel = labelOf(inner);
      return innerLabel === '' ? key : `${key}.${innerLabel}`;
    })
    .join(', ');
}
