import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/domain/shared/canonicalJson.js';
import { trieEntries, trieSet } from '../../src/domain/termination/digestTrie.js';
import {
  applyCheckpoint,
  ConflictingDuplicateError,
  createTerminationState,
  fromStateDict,
  parseTerminationConfig,
  type TerminationState,
  toStateDict,
} from '../../src/domain/termination/index.js';
import { outcomeDigest } from '../../src/domain/termination/outcome.js';
import { recordDigest } from '../../src/domain/termination/recordDigest.js';
import { sacOutcome, sacSuccessConfig } from '../support/terminationRules.js';

interface Fields {
  id: string;
  episode: unknown;
  checkpointId: string | null;
  checkpointHash: string | null;
  metrics: Record<string, unknown>;
}

/** The text the seed's canonical outcome is compared by (what `outcomeDigest` hashes). */
function canonicalText(fields: Fields): string {
  return canonicalJson(
    {
      evaluation_id: fields.id,
      evaluation_episode: fields.episode,
      checkpoint_id: fields.checkpointId,
      checkpoint_hash: fields.checkpointHash,
      metrics: fields.metrics,
    },
    { nonFinite: 'tag' },
  );
}

function digestOf(fields: Fields): string {
  return recordDigest(
    fields.id,
    fields.episode,
    fields.checkpointId,
    fields.checkpointHash,
    fields.metrics,
  );
}

const metricValue = fc.oneof(
  fc.double(),
  fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, 1, 1.5),
  fc.constantFrom('__nan__', '__inf__', '1', 'x'),
  fc.constantFrom(true, false, null, undefined),
  fc.constant({ b: 1, a: [1, -0] }),
);
const fieldsArbitrary: fc.Arbitrary<Fields> = fc.record({
  id: fc.constantFrom('e0', 'e1', 'e"0', 'é', '€0', 'e€'),
  episode: fc.constantFrom(0, 1, -0, Number.NaN, '0', undefined),
  checkpointId: fc.constantFrom(null, 'c', 'null'),
  checkpointHash: fc.constantFrom(null, 'h'),
  metrics: fc.dictionary(fc.constantFrom('objective', 'reward', 'a', 'b', 'é€'), metricValue, {
    maxKeys: 3,
  }),
});

/** The same outcome written differently: keys in another order, −0 for 0, NaN for its tag. */
function rewritten(fields: Fields): Fields {
  const metrics: Record<string, unknown> = {};
  for (const key of Object.keys(fields.metrics).reverse()) {
    const value = fields.metrics[key];
    metrics[key] = value === 0 ? -0 : value === '__nan__' ? Number.NaN : value;
  }
  return { ...fields, metrics };
}

describe('record digests', () => {
  it('are equal exactly when the canonical outcomes are equal', () => {
    fc.assert(
      fc.property(fieldsArbitrary, fieldsArbitrary, fc.boolean(), (a, other, same) => {
        const b = same ? rewritten(a) : other;
        expect(digestOf(a) === digestOf(b)).toBe(canonicalText(a) === canonicalText(b));
      }),
      { numRuns: 2000 },
    );
  });

  it('are the record mark and 22 base64url characters', () => {
    const digest = digestOf({
      id: 'e0',
      episode: 0,
      checkpointId: null,
      checkpointHash: null,
      metrics: { objective: 0.5 },
    });
    expect(digest).toMatch(/^~[A-Za-z0-9_-]{22}$/);
  });
});

describe('a state dict with a bad record digest', () => {
  it('names the record digest it expected', () => {
    const config = parseTerminationConfig({
      agents: {
        SAC: {
          plateau: {
            metric: 'objective',
            direction: 'maximize',
            min_delta: 0,
            patience: 2,
            min_evaluations: 1,
            window: 1,
          },
        },
      },
    });
    const state = applyCheckpoint(createTerminationState(config), [
      { agentName: 'SAC', evaluationId: 'SAC-0', evaluationEpisode: 0, metrics: { objective: 1 } },
    ]).state;
    const dict = toStateDict(state);
    dict.agents.SAC!.seen['SAC-0'] = '~short';
    expect(() => fromStateDict(config, dict)).toThrow(
      'agents.SAC.seen["SAC-0"] must be a record digest (~ and 22 base64url characters), got "~short"',
    );
  });
});

describe('states written with full sha256 digests', () => {
  const config = sacSuccessConfig();
  const sent = sacOutcome;

  /** The state as an older arena wrote it: every digest the full sha256 of the canonical text. */
  function legacy(state: TerminationState): TerminationState {
    const agent = state.agents.SAC!;
    let seen = null as ReturnType<typeof trieSet> | null;
    for (const [id] of trieEntries(agent.seen)) {
      const episode = Number(id.slice('SAC-'.length));
      seen = trieSet(seen, id, outcomeDigest('', id, episode, null, null, { objective: 0.5 }));
    }
    return { ...state, agents: { SAC: { ...agent, seen } } };
  }

  let state = createTerminationState(config);
  for (let episode = 0; episode < 3; episode++) {
    state = applyCheckpoint(state, [sent(episode, 0.5)]).state;
  }

  it('still takes an exact re-send as a duplicate and rejects a conflicting one', () => {
    for (const old of [legacy(state), fromStateDict(config, toStateDict(legacy(state)))]) {
      const again = applyCheckpoint(old, [sent(1, 0.5)]);
      expect(again.decision.report.agents[0]?.status).toBe('duplicate');
      expect(again.state.agents.SAC).toBe(old.agents.SAC);
      expect(() => applyCheckpoint(old, [sent(1, 0.6)])).toThrow(ConflictingDuplicateError);
      expect(applyCheckpoint(old, [sent(3, 0.9)]).decision.report.agents[0]?.status).toBe(
        'accepted',
      );
    }
  });
});
