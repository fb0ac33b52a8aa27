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
    result[key] = SECRET_KEY.test(key) && item !== null ? REDACTED : redactPayload(item);
  }
  return result;
}

function redactText(text: string): string {
  if (SECRET_TEXT.test(text.trim())) return REDACTED;
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#@]*@/i, '$1:***@');
}
