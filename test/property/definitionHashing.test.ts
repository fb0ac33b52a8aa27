import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../src/domain/definition/canonicalHash.js';
import { descriptorCanonicalJson } from '../../src/domain/definition/definitionInterface.js';
import {
  interfaceFingerprint,
  patchHash,
  proposeDefinition,
  scenarioRevision,
} from '../../src/domain/definition/index.js';
import { canonicalJson, sha256Hex } from '../../src/domain/shared/canonicalJson.js';
import type { JsonValue } from '../../src/domain/shared/json.js';
import { scenarioArbitrary } from '../unit/definition/scenarioArbitrary.js';

const numRuns = 200;

describe('streamed canonical hashes equal sha256 of canonical JSON', () => {
  it('canonicalSha256(x) is sha256Hex(canonicalJson(x)) for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalSha256(value)).toBe(sha256Hex(canonicalJson(value)));
      }),
      { numRuns },
    );
  });

  it('holds past the 64 KiB chunk size, with tagged non-finite numbers', () => {
    const big = Array.from({ length: 20_000 }, (_, index) => ({
      k: index,
      v: index % 7 === 0 ? Number.NaN : index / 3,
    }));
    expect(canonicalSha256(big, { nonFinite: 'tag' })).toBe(
      sha256Hex(canonicalJson(big, { nonFinite: 'tag' })),
    );
  });

  it('rejects what canonical JSON rejects, with its error', () => {
    expect(() => canonicalSha256({ a: [Number.NaN] })).toThrowError(/\$\.a\[0\]/);
  });

  it('scenario revisions, fingerprints and descriptors match their canonical definitions', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const proposal = proposeDefinition('env', scenario);
        expect(scenarioRevision(scenario)).toBe(
          sha256Hex(canonicalJson(scenario, { nonFinite: 'tag' })),
        );
        const { environmentUid, sensors, actuators } = proposal.interface;
        expect(interfaceFingerprint(proposal.interface).value).toBe(
          sha256Hex(canonicalJson({ environmentUid, sensors, actuators })),
        );
        for (const sensor of sensors) {
          expect(descriptorCanonicalJson(sensor)).toBe(canonicalJson(sensor));
        }
      }),
      { numRuns },
    );
  });

  it('patch hashes match the canonical JSON of version, environment, base revision and operations', () => {
    const operation = fc.record({
      op: fc.constant('replace' as const),
      path: fc.string().map((text) => `/${text}`),
      value: fc.oneof(fc.double(), fc.jsonValue({ maxDepth: 2 })) as fc.Arbitrary<JsonValue>,
    });
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.array(operation, { maxLength: 5 }),
        (uid, base, ops) => {
          const content = {
            version: 1 as const,
            environmentUid: uid,
            baseRevision: base,
            operations: ops,
          };
          expect(patchHash(content)).toBe(sha256Hex(canonicalJson(content, { nonFinite: 'tag' })));
        },
      ),
      { numRuns },
    );
  });
});
