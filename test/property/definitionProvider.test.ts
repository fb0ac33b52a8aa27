import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeclarativePatch, PatchOperation } from '../../src/domain/definition/index.js';
import {
  createDeclarativePatch,
  DefinitionFingerprintError,
  DefinitionPatchError,
  DefinitionProvider,
  escapePointerToken,
  getAtPointer,
  parsePointer,
  proposeDefinition,
  scenarioRevision,
} from '../../src/domain/definition/index.js';
import type { JsonObject, JsonValue } from '../../src/domain/shared/json.js';
import { contains } from '../../src/domain/shared/spaces.js';
import { scenarioArbitrary } from '../unit/definition/scenarioArbitrary.js';

const numRuns = 150;

function providerFor(scenario: JsonObject) {
  const provider = new DefinitionProvider(proposeDefinition('env', scenario));
  return { provider, map: { env: provider.proposal.scenario } };
}

/** A scenario with at least one selector, and random in-bounds actions for some of them. */
const scenarioWithActions = scenarioArbitrary
  .filter((scenario) => proposeDefinition('env', scenario).selectors.length > 0)
  .chain((scenario) => {
    const { selectors } = proposeDefinition('env', scenario);
    const actions = selectors.map((selector) =>
      fc.option(
        selector.space.type === 'Box'
          ? fc.double({ min: selector.space.low, max: selector.space.high, noNaN: true })
          : fc.constantFrom(...selector.space.values),
        { nil: undefined },
      ),
    );
    return fc.tuple(fc.constant(scenario), fc.tuple(...actions)).map(([base, values]) => {
      const chosen: Record<string, number> = {};
      values.forEach((value, index) => {
        const uid = selectors[index]?.uid;
        if (value !== undefined && uid !== undefined) chosen[uid] = value;
      });
      return { scenario: base, actions: chosen };
    });
  });

describe('DefinitionProvider properties', () => {
  it('every discovered value lies within its bounds', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        for (const selector of proposeDefinition('env', scenario).selectors) {
          expect(contains(selector.space, selector.value)).toBe(true);
          expect(getAtPointer(scenario, selector.pointer)).toBe(selector.value);
        }
      }),
      { numRuns },
    );
  });

  it('vectorize -> proposePatch with the same values -> validate gives the input definition', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const { provider, map } = providerFor(scenario);
        const vector = provider.vectorize(map);
        const same = Object.fromEntries(vector.uids.map((uid, i) => [uid, vector.values[i]]));
        const patch = provider.proposePatch(map, same as Record<string, number>);
        expect(patch.operations).toEqual([]);
        const candidate = provider.validate(map, patch);
        expect(candidate.definition).toEqual(scenario);
        expect(candidate.revision).toBe(scenarioRevision(scenario));
      }),
      { numRuns },
    );
  });

  it('an accepted patch keeps the interface fingerprint and changes only the patched values', () => {
    fc.assert(
      fc.property(scenarioWithActions, ({ scenario, actions }) => {
        const { provider, map } = providerFor(scenario);
        const candidate = provider.validate(map, provider.proposePatch(map, actions));
        expect(candidate.fingerprint).toEqual(provider.fingerprint);
        expect(provider.describe({ env: candidate.definition })).toEqual(
          provider.proposal.interface,
        );
        const after = provider.vectorize({ env: candidate.definition });
        const before = provider.vectorize(map);
        after.uids.forEach((uid, index) => {
          expect(after.values[index]).toBe(actions[uid] ?? before.values[index]);
        });
      }),
      { numRuns },
    );
  });

  it('a patch that adds, removes or renames a numeric leaf is rejected by the fingerprint', () => {
    const mutation = scenarioWithActions.chain(({ scenario }) => {
      const { selectors } = proposeDefinition('env', scenario);
      return fc.record({
        scenario: fc.constant(scenario),
        selector: fc.constantFrom(...selectors),
        kind: fc.constantFrom('add', 'remove', 'rename'),
      });
    });
    fc.assert(
      fc.property(mutation, ({ scenario, selector, kind }) => {
        const { provider, map } = providerFor(scenario);
        const operation = structuralChange(scenario, selector.pointer, kind);
        const patch = createDeclarativePatch({
          environmentUid: 'env',
          baseRevision: scenarioRevision(scenario),
          operations: [operation],
        });
        expect(() => provider.validate(map, patch)).toThrowError(DefinitionFingerprintError);
      }),
      { numRuns },
    );
  });

  it('a tampered patch hash or a stale base revision is rejected', () => {
    const tampering = scenarioWithActions.chain((input) =>
      fc.record({ input: fc.constant(input), how: fc.constantFrom('hash', 'operations', 'stale') }),
    );
    fc.assert(
      fc.property(tampering, ({ input: { scenario, actions }, how }) => {
        const { provider, map } = providerFor(scenario);
        const patch = provider.proposePatch(map, actions);
        if (how === 'stale') {
          const moved = { env: { ...scenario, moved: 1 } };
          expect(() => provider.validate(moved, patch)).toThrowError(/stale patch/);
          return;
        }
        const tampered: DeclarativePatch =
          how === 'hash'
            ? { ...patch, hash: `${patch.hash.slice(1)}${patch.hash[0] === '0' ? '1' : '0'}` }
            : {
                ...patch,
                operations: [
                  ...patch.operations,
                  {
                    op: 'replace',
                    path: provider.proposal.selectors[0]?.pointer ?? '/s',
                    value: 0,
                  },
                ],
              };
        expect(() => provider.validate(map, tampered)).toThrowError(DefinitionPatchError);
        expect(() => provider.validate(map, tampered)).toThrowError(/patch.hash/);
      }),
      { numRuns },
    );
  });
});

/** One replace operation that adds, removes or renames the numeric leaf at `pointer`. */
function structuralChange(scenario: JsonObject, pointer: string, kind: string): PatchOperation {
  const tokens = parsePointer(pointer);
  const last = tokens.at(-1) as string;
  const parentPointer = pointer.slice(0, pointer.length - escapePointerToken(last).length - 1);
  const parent = getAtPointer(scenario, parentPointer) as JsonValue;
  if (kind === 'remove') return { op: 'replace', path: pointer, value: 'no longer a number' };
  if (Array.isArray(parent)) {
    // In a list, adding appends a number; renaming moves the leaf one index on.
    const next =
      kind === 'add'
        ? [...parent, 1]
        : [...parent.slice(0, Number(last)), 'shifted', ...parent.slice(Number(last))];
    return { op: 'replace', path: parentPointer, value: next };
  }
  const mapping = parent as JsonObject;
  const fresh = freshKey(mapping);
  if (kind === 'add')
    return { op: 'replace', path: parentPointer, value: { ...mapping, [fresh]: 1 } };
  const renamed: JsonObject = {};
  for (const [key, item] of Object.entries(mapping)) renamed[key === last ? fresh : key] = item;
  return { op: 'replace', path: parentPointer, value: renamed };
}

function freshKey(mapping: JsonObject): string {
  let index = 0;
  while (Object.hasOwn(mapping, `added_${index}`)) index++;
  return `added_${index}`;
}
