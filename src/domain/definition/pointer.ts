import { deepFreeze, isPlainObject, type JsonValue } from '../shared/json.js';
import { JsonPointerError } from './errors.js';

/**
 * RFC 6901 JSON pointers over plain JSON trees.
 *
 * A pointer is `''` (the whole document) or a sequence of `/`-prefixed
 * reference tokens. Inside a token `~` is written `~0` and `/` is written
 * `~1`. Array tokens are decimal indices without leading zeros.
 */

/**
 * Escape one reference token: `~` becomes `~0` first, then `/` becomes `~1`.
 *
 * @example
 * ```ts
 * escapePointerToken('a/b~c'); // 'a~1b~0c'
 * ```
 */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Unescape one reference token: `~1` becomes `/` first, then `~0` becomes `~`,
 * so `~01` stays the literal `~1`.
 *
 * @example
 * ```ts
 * unescapePointerToken('a~1b~0c'); // 'a/b~c'
 * unescapePointerToken('~01'); // '~1'
 * ```
 */
export function unescapePointerToken(token: string): string {
  if (!token.includes('~')) return token;
  if (/~(?![01])/.test(token)) {
    throw new JsonPointerError(
      `pointer token "${token}" has a "~" that is not followed by 0 or 1 (write "~" as "~0")`,
    );
  }
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * Build a pointer from unescaped tokens.
 *
 * @example
 * ```ts
 * buildPointer(['der_params', 'mapping', '6', '0', '1']); // '/der_params/mapping/6/0/1'
 * buildPointer([]); // ''
 * ```
 */
export function buildPointer(tokens: readonly string[]): string {
  let pointer = '';
  for (const token of tokens) pointer += `/${escapePointerToken(token)}`;
  return pointer;
}

/**
 * Split a pointer into unescaped tokens.
 *
 * @example
 * ```ts
 * parsePointer('/a~1b/0'); // ['a/b', '0']
 * parsePointer(''); // []
 * ```
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) {
    throw new JsonPointerError(`pointer "${pointer}" must be "" or start with "/"`);
  }
  return pointer.slice(1).split('/').map(unescapePointerToken);
}

/** Whether `token` is a valid RFC 6901 array index (no sign, no leading zeros). */
export function isArrayIndexToken(token: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(token);
}

/**
 * The value at `pointer`, or `undefined` when the pointer leads nowhere.
 * Only own properties of mappings are followed.
 *
 * @example
 * ```ts
 * getAtPointer({ mapping: { '6': [['PV', 2.2]] } }, '/mapping/6/0/1'); // 2.2
 * getAtPointer({ a: 1 }, '/b'); // undefined
 * ```
 */
export function getAtPointer(value: JsonValue, pointer: string): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const token of parsePointer(pointer)) {
    current = childOf(current, token);
    if (current === undefined) return undefined;
  }
  return current;
}

function childOf(container: JsonValue | undefined, token: string): JsonValue | undefined {
  if (Array.isArray(container)) {
    return isArrayIndexToken(token) ? container[Number(token)] : undefined;
  }
  if (isPlainObject(container) && Object.hasOwn(container, token)) return container[token];
  return undefined;
}

/**
 * A new tree with `newValue` at `pointer`; the input is never mutated. Only
 * the containers along the path are copied (the rest is shared), and the
 * copies and `newValue` are frozen. A missing mapping key is added; an array
 * index must exist (or equal the length, to append). `''` returns `newValue`.
 *
 * @example
 * ```ts
 * const before = { mapping: { '6': [['PV', 2.2]] } };
 * setAtPointer(before, '/mapping/6/0/1', 2.4); // { mapping: { '6': [['PV', 2.4]] } }
 * before.mapping['6'][0][1]; // 2.2
 * ```
 */
export function setAtPointer(value: JsonValue, pointer: string, newValue: JsonValue): JsonValue {
  const tokens = parsePointer(pointer);
  return setTokens(value, tokens, 0, deepFreeze(newValue), pointer);
}

function setTokens(
  container: JsonValue,
  tokens: readonly string[],
  depth: number,
  newValue: JsonValue,
  pointer: string,
): JsonValue {
  const token = tokens[depth];
  if (token === undefined) return newValue;
  if (Array.isArray(container)) {
    if (!isArrayIndexToken(token) || Number(token) > container.length) {
      throw new JsonPointerError(
        `pointer "${pointer}": "${token}" is not an index of the ${container.length}-item list at "${buildPointer(tokens.slice(0, depth))}"`,
      );
    }
    const index = Number(token);
    const copy = container.slice();
    copy[index] = setTokens(container[index] ?? null, tokens, depth + 1, newValue, pointer);
    return Object.freeze(copy) as JsonValue;
  }
  if (isPlainObject(container)) {
    const present = Object.hasOwn(container, token);
    if (!present && depth + 1 < tokens.length) {
      throw new JsonPointerError(
        `pointer "${pointer}": mapping at "${buildPointer(tokens.slice(0, depth))}" has no key "${token}"`,
      );
    }
    const child = present ? (container[token] as JsonValue) : null;
    const copy = { ...container, [token]: setTokens(child, tokens, depth + 1, newValue, pointer) };
    return Object.freeze(copy) as JsonValue;
  }
  throw new JsonPointerError(
    `pointer "${pointer}": the value at "${buildPointer(tokens.slice(0, depth))}" is a ${container === null ? 'null' : typeof container}, not a mapping or list`,
  );
}
