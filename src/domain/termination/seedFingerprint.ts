import { sha256Hex } from '../shared/canonicalJson.js';

/** The rules as the seed fingerprints them: each agent's success and plateau rule with the seed's keys, or `null`. */
export interface ConfigurationView {
  success: Record<string, Record<string, string | number> | null>;
  plateau: Record<string, Record<string, string | number> | null>;
}

/** The fields the seed parses with `float()`: Python writes them `1.0`, not `1`. */
const floatFields = new Set(['threshold', 'min_delta']);

/**
 * The seed's configuration fingerprint: sha256 (hex) of
 * `json.dumps(configuration, sort_keys=True, separators=(",", ":"))`, byte for
 * byte as Python writes it (threshold and min_delta as floats, `1.0`; keys in
 * code point order; non-ASCII as `\uXXXX`), so a state dict fingerprinted by
 * the seed restores here and the other way round.
 *
 * @example
 * ```ts
 * seedJson(configurationView(config)); // SAC: success objective ≥ 1
 * // '{"plateau":{"SAC":null},"success":{"SAC":{"consecutive":2,"direction":"greater_equal",
 * //   "metric":"objective","min_evaluations":3,"threshold":1.0}}}'
 * seedFingerprint(configurationView(config)); // sha256 of that text
 * ```
 */
export function seedFingerprint(view: ConfigurationView): string {
  return sha256Hex(seedJson(view));
}

/** {@link seedFingerprint}'s text: the configuration as Python's `json.dumps` writes it. */
export function seedJson(view: ConfigurationView): string {
  return pythonJson(view, null);
}

function pythonJson(value: unknown, key: string | null): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return pythonString(value);
  if (typeof value === 'number') {
    return key !== null && floatFields.has(key) ? pythonFloat(value) : String(value);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort(byCodePoint);
  return `{${keys.map((name) => `${pythonString(name)}:${pythonJson(record[name], name)}`).join(',')}}`;
}

/** `json.dumps` with `ensure_ascii=True`: every character outside space..~ escaped. */
function pythonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Python's `repr` of a finite float: the shortest digits (as JavaScript's),
 * in exponent form below 1e-4 and from 1e16 on (`1e-05`, `1e+16`), else fixed
 * with at least one decimal (`1.0`, `0.25`).
 *
 * @example
 * ```ts
 * pythonFloat(33); // '33.0'
 * pythonFloat(0.00001); // '1e-05'
 * ```
 */
export function pythonFloat(value: number): string {
  if (Object.is(value, -0)) return '-0.0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const fixed = String(value);
  return Number.isInteger(value) ? `${fixed}.0` : fixed;
}

function byCodePoint(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
