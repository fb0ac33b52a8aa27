import { describe, expect, it, vi } from 'vitest';
import { checkInvariants } from '../../../src/fuzz/termination/invariants.js';
import { sacSuccessConfig } from '../../support/terminationRules.js';

// A termination domain with a seeded bug: conflicting duplicates are swallowed
// instead of rejected. The fuzzer's invariant check must catch it.
vi.mock('../../../src/domain/termination/checkpoint.js', async (importOriginal) => {
  const original =
    await importOriginal<typeof import('../../../src/domain/termination/checkpoint.js')>();
  return {
    ...original,
    applyCheckpoint: (...args: Parameters<typeof original.applyCheckpoint>) => {
      try {
        return original.applyCheckpoint(...args);
      } catch (error) {
        if ((error as Error).name !== 'ConflictingDuplicateError') throw error;
        const [state] = args;
        return {
          state,
          decision: {
            control: 'CONTINUE' as const,
            reason: null,
            report: { checkpoint: 'applied' as const, agents: [], unknownAgents: [] },
          },
        };
      }
    },
  };
});

describe('checkInvariants on a broken domain', () => {
  it('reports the broken invariant with its error and a shrunk counterexample', () => {
    const config = sacSuccessConfig();
    const findings = checkInvariants(
      config,
      [{ metric: 'objective', low: 0, high: 1, assumed: false }],
      null,
      { runs: 30, seed: 1 },
    );
    const broken = findings.filter((finding) => !finding.held);
    expect(broken.map((finding) => finding.name)).toEqual([
      'a conflicting duplicate is rejected and changes nothing',
    ]);
    expect(broken[0]?.error).toBe(
      'InvariantBroken: expected ConflictingDuplicateError, got an accepted checkpoint',
    );
    // Shrunk: one recorded checkpoint at the low end of the range.
    expect(JSON.parse(broken[0]!.counterexample!)).toEqual([
      [{ SAC: { objective: 0 } }],
      0,
      { SAC: { objective: 0 } },
    ]);
  });
});
