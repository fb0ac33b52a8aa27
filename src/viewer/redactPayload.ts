import type { JsonValue } from '../domain/shared/json.js';

/** Keys whose values are secrets wherever they appear in an event. */
const SECRET_KEY =
  /(secret|passw(or)?d|passphrase|token|api[-_]?key|authorization|credential|private[-_]?key|cookie|session[-_]?key)/i;
/** Strings that carry a secret whatever their key: bearer credentials and keys in their usual shapes. */
const SECRET_TEXT =
  /^(bearer\s+\S+|sk-[A-Za-z0-9_-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*)$/i;
/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * An event payload as the viewer shows it: the value of every key that names
 * a secret (`apiKey`, `password`, `token`, `authorization`…) and every string
 * shaped like one (`Bearer …`, `sk-…`, a PEM private key) replaced with
 * `[redacted]`, and a URL's password hidden; nothing else changes.
 *
 * @example
 * ```ts
 * redactPayload({ type: 'login', user: 'ada', apiKey: 'k-123', url: 'nats://u:pw@h:4222' });
 * // { type: 'login', user: 'ada', apiKey: '[redacted]', url: 'nats://u:***@h:4222' }
 * ```
 */
export function redactPayload(value: JsonValue): JsonValue {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(redactPayload);
  const result: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) {
    result[key] = isSecretKey(key) && item !== null ? REDACTED : redactPayload(item);
  }
  return result;
}

/** Keys already tested, bounded (payloads with made-up keys must not grow it without end). */
const testedKeys = new Map<string, boolean>();
const MAX_TESTED_KEYS = 4096;

/**
 * Whether a payload key names a secret (`apiKey`, `password`, `Authorization`…):
 * its value is shown as `[redacted]`.
 *
 * @example
 * ```ts
 * isSecretKey('apiKey'); // true
 * isSecretKey('count');  // false
 * ```
 */
export function isSecretKey(key: string): boolean {
  const known = testedKeys.get(key);
  if (known !== undefined) return known;
  const secret = SECRET_KEY.test(key);
  if (testedKeys.size < MAX_TESTED_KEYS) testedKeys.set(key, secret);
  return secret;
}

/**
 * A string as the viewer shows it: `[redacted]` when it is shaped like a
 * credential, a URL's password hidden, else unchanged.
 *
 * @example
 * ```ts
 * redactText('Bearer abc.def');          // '[redacted]'
 * redactText('nats://u:pw@h:4222');       // 'nats://u:***@h:4222'
 * ```
 */
export function redactText(text: string): string {
  if (SECRET_TEXT.test(text.trim())) return REDACTED;
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#@]*@/i, '$1:***@');
}
