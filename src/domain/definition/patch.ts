import { deepFreeze, isPlainObject, type JsonObject, type JsonValue } from '../shared/json.js';
import { CanonicalHasher, canonicalSha256 } from './canonicalHash.js';
import { DefinitionPatchError, JsonPointerError } from './errors.js';
import { isArrayIndexToken, parsePointer } from './pointer.js';
import type { DeclarativePatch, PatchOperation } from './types.js';

/** The fields of a patch its hash covers. */
export type PatchContent = Omit<DeclarativePatch, 'hash'>;

/**
 * The content hash of a patch: sha256 of the canonical JSON of
 * `{ version, environmentUid, baseRevision, operations }`.
 *
 * @example
 * ```ts
 * patchHash({ version: 1, environmentUid: 'midas', baseRevision: 'ab…', operations: [] });
 * // '<64 hex digits>', the same for the same content
 * ```
 */
export function patchHash(content: PatchContent): string {
  const { version, environmentUid, baseRevision, operations } = content;
  const hasher = new CanonicalHasher('tag');
  // Canonical key order: baseRevision, environmentUid, operations, version.
  hasher.text(
    `{"baseRevision":${JSON.stringify(baseRevision)},"environmentUid":${JSON.stringify(environmentUid)},"operations":[`,
  );
  for (let index = 0; index < operations.length; index++) {
    const operation = operations[index] as PatchOperation;
    if (index > 0) hasher.text(',');
    const { value } = operation;
    if (
      Object.keys(operation).length === 3 &&
      typeof operation.op === 'string' &&
      typeof operation.path === 'string' &&
      typeof value === 'number' &&
      Number.isFinite(value)
    ) {
      hasher.text(
        `{"op":${JSON.stringify(operation.op)},"path":${JSON.stringify(operation.path)},"value":${JSON.stringify(value)}}`,
      );
    } else if (!hasher.value(operation)) {
      return canonicalSha256(content, { nonFinite: 'tag' });
    }
  }
  hasher.text(`],"version":${JSON.stringify(version)}}`);
  return hasher.digest();
}

/**
 * A frozen `DeclarativePatch` (version 1) with its content hash.
 *
 * @example
 * ```ts
 * createDeclarativePatch({ environmentUid: 'midas', baseRevision: rev,
 *   operations: [{ op: 'replace', path: '/load', value: 2.5 }] });
 * // { version: 1, environmentUid: 'midas', baseRevision: rev,
 * //   operations: [{ op: 'replace', path: '/load', value: 2.5 }], hash: '…' }
 * ```
 */
export function createDeclarativePatch(content: {
  environmentUid: string;
  baseRevision: string;
  operations: readonly PatchOperation[];
}): DeclarativePatch {
  const fields: PatchContent = {
    version: 1,
    environmentUid: content.environmentUid,
    baseRevision: content.baseRevision,
    operations: content.operations,
  };
  return deepFreeze({ ...fields, hash: patchHash(fields) });
}

/**
 * Check that `value` has the shape of a `DeclarativePatch` (any hash) and
 * return it frozen; a patch that is not frozen yet is copied first, so a
 * caller's object is never frozen behind its back. Errors name the field.
 */
export function asDeclarativePatch(value: unknown): DeclarativePatch {
  if (!isPlainObject(value)) throw new DefinitionPatchError('a patch must be a mapping');
  if (value.version !== 1) {
    throw new DefinitionPatchError(
      `patch.version: expected 1, got ${JSON.stringify(value.version)}`,
    );
  }
  for (const field of ['environmentUid', 'baseRevision', 'hash'] as const) {
    if (typeof value[field] !== 'string') {
      throw new DefinitionPatchError(`patch.${field}: expected a string`);
    }
  }
  const operations = value.operations;
  if (!Array.isArray(operations)) {
    throw new DefinitionPatchError('patch.operations: expected a list');
  }
  operations.forEach((operation: unknown, index) => {
    if (!isPlainObject(operation) || operation.op !== 'replace') {
      throw new DefinitionPatchError(
        `patch.operations[${index}]: expected { op: 'replace', path, value }`,
      );
    }
    if (typeof operation.path !== 'string' || operation.value === undefined) {
      throw new DefinitionPatchError(
        `patch.operations[${index}]: expected a string path and a JSON value`,
      );
    }
  });
  const patch = value as unknown as DeclarativePatch;
  return Object.isFrozen(patch) ? patch : deepFreeze(structuredClone(patch));
}

/**
 * Apply replace operations to a frozen scenario without mutating it: each
 * container on a patched path is copied once (copy on write), everything else
 * is shared, and the result is frozen. A replace needs an existing target
 * (RFC 6902); the root cannot be replaced.
 *
 * @example
 * ```ts
 * applyPatchOperations({ a: { b: 1 }, c: [2] }, [{ op: 'replace', path: '/a/b', value: 5 }]);
 * // { a: { b: 5 }, c: [2] }, sharing the frozen list `c` with the input
 * ```
 */
export function applyPatchOperations(
  scenario: JsonObject,
  operations: readonly PatchOperation[],
): JsonObject {
  if (operations.length === 0) return scenario;
  const copies = new Set<object>();
  const root = { ...scenario };
  copies.add(root);
  operations.forEach((operation, index) => {
    const tokens = tokensOf(operation, index);
    let container: Record<string, JsonValue> | JsonValue[] = root;
    for (let depth = 0; depth < tokens.length; depth++) {
      const token = tokens[depth] as string;
      const isLast = depth === tokens.length - 1;
      if (!hasChild(container, token)) {
        throw new DefinitionPatchError(
          `patch.operations[${index}]: nothing to replace at "${operation.path}" ("${token}" does not exist)`,
        );
      }
      if (isLast) {
        setChild(container, token, operation.value);
        break;
      }
      let child = getChild(container, token);
      if (typeof child !== 'object' || child === null) {
        throw new DefinitionPatchError(
          `patch.operations[${index}]: "${operation.path}" goes through a ${child === null ? 'null' : typeof child}`,
        );
      }
      if (!copies.has(child)) {
        child = Array.isArray(child) ? child.slice() : { ...child };
        copies.add(child);
        setChild(container, token, child);
      }
      container = child;
    }
  });
  for (const copy of copies) Object.freeze(copy);
  return root;
}

function tokensOf(operation: PatchOperation, index: number): string[] {
  let tokens: string[];
  try {
    tokens = parsePointer(operation.path);
  } catch (error) {
    if (!(error instanceof JsonPointerError)) throw error;
    throw new DefinitionPatchError(`patch.operations[${index}].path: ${error.message}`, {
      cause: error,
    });
  }
  if (tokens.length === 0) {
    throw new DefinitionPatchError(
      `patch.operations[${index}].path: the whole scenario cannot be replaced`,
    );
  }
  return tokens;
}

function hasChild(container: Record<string, JsonValue> | JsonValue[], token: string): boolean {
  if (Array.isArray(container)) {
    return isArrayIndexToken(token) && Number(token) < container.length;
  }
  return Object.hasOwn(container, token);
}

function getChild(container: Record<string, JsonValue> | JsonValue[], token: string): JsonValue {
  return (Array.isArray(container) ? container[Number(token)] : container[token]) as JsonValue;
}

function setChild(
  container: Record<string, JsonValue> | JsonValue[],
  token: string,
  value: JsonValue,
): void {
  if (Array.isArray(container)) container[Number(token)] = value;
  else container[token] = value;
}
