/**
 * What the inspector relay accepts from the clients that connect to it. The
 * clients are viewers: they receive what the run emits and send nothing of
 * their own, so the only messages they may send are the Stately inspector
 * protocol's control messages, and only pages from the Stately inspector or
 * from this machine may open a WebSocket.
 * @module
 */

/**
 * The Stately inspector's origin: `@statelyai/inspect` 0.7.2 opens
 * `https://stately.ai/inspect` for the browser inspector and for Sky sessions.
 */
export const STATELY_INSPECTOR_ORIGIN = 'https://stately.ai';

/**
 * The Stately inspector protocol's control messages, each exactly
 * `{ "type": … }`: the inspector page announces itself with
 * `@statelyai.connected` and is told `@statelyai.disconnected` when the
 * source stops. Nothing else a client sends has a meaning for the relay.
 */
export const INSPECTOR_CONTROL_MESSAGES: readonly string[] = [
  '@statelyai.connected',
  '@statelyai.disconnected',
];

/** The host names of this machine's loopback interface, as a URL spells them. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a WebSocket handshake with this `Origin` header may connect: the
 * Stately inspector, an `http(s)` page on localhost / 127.0.0.1 / [::1] (any
 * port: the relay's own bridge page is one), or one of `extraOrigins`. A
 * handshake without an Origin header is allowed: browsers always send one, so
 * it comes from a local program (a Node `ws` client), which can only watch.
 *
 * @example
 * ```ts
 * isAllowedOrigin('http://127.0.0.1:8080'); // true
 * isAllowedOrigin('https://stately.ai');    // true
 * isAllowedOrigin(undefined);               // true (not a browser)
 * isAllowedOrigin('https://evil.example');  // false
 * isAllowedOrigin('null');                  // false (a file: page or a sandboxed frame)
 * ```
 */
export function isAllowedOrigin(
  origin: string | undefined,
  extraOrigins: readonly string[] = [],
): boolean {
  if (origin === undefined) return true;
  if (origin === STATELY_INSPECTOR_ORIGIN || extraOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // An Origin is scheme://host[:port] only; anything more is not a browser's.
  if (url.origin !== origin) return false;
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
  );
}

/**
 * Whether a message a client sent is one of the
 * {@link INSPECTOR_CONTROL_MESSAGES}: a text frame holding a JSON object whose
 * only key is a known `type`. Everything else (inspection events, other JSON,
 * binary frames) is dropped by the relay, never broadcast or stored.
 *
 * @example
 * ```ts
 * isControlMessage('{"type":"@statelyai.connected"}', false);            // true
 * isControlMessage('{"type":"@xstate.event","sessionId":"x:0"}', false); // false
 * isControlMessage('{"type":"@statelyai.connected"}', true);             // false (binary)
 * ```
 */
export function isControlMessage(text: string, isBinary: boolean): boolean {
  if (isBinary) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const keys = Object.keys(parsed);
  const type = (parsed as { type?: unknown }).type;
  return (
    keys.length === 1 &&
    keys[0] === 'type' &&
    typeof type === 'string' &&
    INSPECTOR_CONTROL_MESSAGES.includes(type)
  );
}
