import type { JsonValue } from '../../domain/shared/json.js';

/** Limits that keep a converted value small and finite. */
export interface JsonSafeOptions {
  /** Nesting depth kept; deeper values become `"[depth limit]"` (default 8). */
  readonly maxDepth?: number;
  /** Longest string kept whole; longer ones are cut with `…` (default 2000). */
  readonly maxStringLength?: number;
}

/**
 * Turn any value (an XState event, a snapshot value, an error) into plain
 * JSON data that `JSON.stringify` writes faithfully: non-finite numbers become
 * the tagged strings `"__nan__"`, `"__inf__"`, `"__-inf__"` (like canonical
 * JSON), actor refs become `{ "$actor": sessionId }`, errors `{ name, message }`,
 * functions `"[function name]"`, Maps and Sets arrays, cycles `"[circular]"`;
 * `undefined` properties are dropped. No live object survives.
 *
 * @example
 * ```ts
 * toJsonSafe({ type: 'tick', value: Number.NaN, at: new Date(0), cb() {} });
 * // { type: 'tick', value: '__nan__', at: '1970-01-01T00:00:00.000Z', cb: '[function cb]' }
 * ```
 */
export function toJsonSafe(value: unknown, options: JsonSafeOptions = {}): JsonValue {
  const limits = {
    maxDepth: options.maxDepth ?? 8,
    maxStringLength: options.maxStringLength ?? 2000,
  };
  return convert(value, 0, new Set<object>(), limits);
}

function convert(
  value: unknown,
  depth: number,
  ancestors: Set<object>,
  limits: Required<JsonSafeOptions>,
): JsonValue {
  switch (typeof value) {
    case 'string':
      return value.length > limits.maxStringLength
        ? `${value.slice(0, limits.maxStringLength)}…`
        : value;
    case 'number':
      if (Number.isFinite(value)) return value;
      return Number.isNaN(value) ? '__nan__' : value > 0 ? '__inf__' : '__-inf__';
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return null;
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return '[circular]';
  if (depth >= limits.maxDepth) return '[depth limit]';
  if (object instanceof Date) {
    return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
  }
  if (object instanceof Error) return { name: object.name, message: object.message };
  if (isActorRef(object)) return { $actor: object.sessionId };
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) {
    return `[binary ${object.byteLength} bytes]`;
  }
  ancestors.add(object);
  try {
    if (Array.isArray(object) || object instanceof Set) {
      return [...object].map((item) => convert(item, depth + 1, ancestors, limits));
    }
    if (object instanceof Map) {
      return [...object].map(([key, item]) => [
        convert(key, depth + 1, ancestors, limits),
        convert(item, depth + 1, ancestors, limits),
      ]);
    }
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue;
      result[key] = convert(item, depth + 1, ancestors, limits);
    }
    return result;
  } finally {
    ancestors.delete(object);
  }
}

function isActorRef(value: object): value is { sessionId: string } {
  const candidate = value as { sessionId?: unknown; send?: unknown; getSnapshot?: unknown };
  return (
    typeof candidate.sessionId === 'string' &&
    typeof candidate.send === 'function' &&
    typeof candidate.getSnapshot === 'function'
  );
}
