import { describe, expect, it } from 'vitest';
import {
  applyPatchOperations,
  createDeclarativePatch,
  DefinitionPatchError,
  patchHash,
} from '../../../src/domain/definition/index.js';
import { asDeclarativePatch } from '../../../src/domain/definition/patch.js';
import { canonicalJson, sha256Hex } from '../../../src/domain/shared/canonicalJson.js';
import { deepFreeze, type JsonObject } from '../../../src/domain/shared/json.js';

const scenario: JsonObject = deepFreeze({
  list: [1, 2, 3],
  nested: { a: { b: 1 } },
  other: { c: 2 },
});

describe('createDeclarativePatch', () => {
  it('is version 1, frozen, and hashed over version, environment, base revision and operations', () => {
    const patch = createDeclarativePatch({
      environmentUid: 'env',
      baseRevision: 'r1',
      operations: [{ op: 'replace', path: '/list/0', value: 5 }],
    });
    const { hash, ...content } = patch;
    expect(content.version).toBe(1);
    expect(hash).toBe(sha256Hex(canonicalJson(content)));
    expect(patchHash(content)).toBe(hash);
    expect(Object.isFrozen(patch.operations[0])).toBe(true);
  });
});

describe('applyPatchOperations', () => {
  it('copies each patched container once and shares the rest, leaving the input untouched', () => {
    const patched = applyPatchOperations(scenario, [
      { op: 'replace', path: '/list/0', value: 10 },
      { op: 'replace', path: '/list/2', value: 30 },
      { op: 'replace', path: '/nested/a/b', value: { deep: true } },
    ]);
    expect(patched).toEqual({
      list: [10, 2, 30],
      nested: { a: { b: { deep: true } } },
      other: { c: 2 },
    });
    expect(scenario).toEqual({ list: [1, 2, 3], nested: { a: { b: 1 } }, other: { c: 2 } });
    expect(patched.other).toBe(scenario.other);
    expect(Object.isFrozen(patched)).toBe(true);
    expect(Object.isFrozen(patched.list)).toBe(true);
  });

  it('returns the scenario itself for no operations', () => {
    expect(applyPatchOperations(scenario, [])).toBe(scenario);
  });

  it.each([
    ['the root', '', /the whole scenario cannot be replaced/],
    ['a missing key', '/nested/x', /nothing to replace at "\/nested\/x"/],
    ['an index past the end', '/list/3', /nothing to replace at "\/list\/3"/],
    ['a path through a number', '/list/0/x', /"\/list\/0\/x" goes through a number/],
    ['a malformed pointer', 'list', /operations\[0\].path: pointer "list" must be/],
  ])('rejects a replace at %s', (_what, path, message) => {
    const operations = [{ op: 'replace' as const, path, value: 1 }];
    expect(() => applyPatchOperations(scenario, operations)).toThrowError(DefinitionPatchError);
    expect(() => applyPatchOperations(scenario, operations)).toThrowError(message);
  });
});

describe('asDeclarativePatch', () => {
  const valid = { version: 1, environmentUid: 'env', baseRevision: 'r', operations: [], hash: 'h' };

  it('freezes a copy of a patch that is not frozen, never the caller object', () => {
    const mine = { ...valid, operations: [{ op: 'replace', path: '/a', value: 1 }] };
    const checked = asDeclarativePatch(mine);
    expect(checked).toEqual(mine);
    expect(Object.isFrozen(checked)).toBe(true);
    expect(Object.isFrozen(mine)).toBe(false);
  });

  it.each([
    ['a list', [], /a patch must be a mapping/],
    ['version 2', { ...valid, version: 2 }, /patch.version: expected 1, got 2/],
    ['no hash', { ...valid, hash: undefined }, /patch.hash: expected a string/],
    [
      'operations that are not a list',
      { ...valid, operations: {} },
      /patch.operations: expected a list/,
    ],
    [
      'an add operation',
      { ...valid, operations: [{ op: 'add', path: '/a', value: 1 }] },
      /operations\[0\]: expected \{ op: 'replace'/,
    ],
    [
      'an operation without a value',
      { ...valid, operations: [{ op: 'replace', path: '/a' }] },
      /operations\[0\]: expected a string path and a JSON value/,
    ],
  ])('rejects %s', (_what, raw, message) => {
    expect(() => asDeclarativePatch(raw)).toThrowError(message);
  });
});
