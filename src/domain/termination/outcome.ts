import { hash } from 'node:crypto';
import { CanonicalJsonError, canonicalJson } from '../shared/canonicalJson.js';
import type { AgentTerminationRules } from './config.js';
import type { DigestTrie } from './digestTrie.js';
import { currentTrie, pendingDigest, trieAddDigest, trieHash } from './digestTrie.js';
import {
  ConflictingDuplicateError,
  InvalidOutcomeError,
  OutOfOrderEvaluationError,
} from './errors.js';
import { digestText, RECORD_DIGEST_MARK, recordDigestWords } from './recordDigest.js';

/** One agent's result of one deterministic evaluation rollout. */
export interface EvaluationOutcome {
  readonly agentName: string;
  /** The evaluation's identity; a re-send with the same id must be identical. */
  readonly evaluationId: string;
  /** The agent's evaluation counter: consecutive, the first may be any integer ≥ 0. */
  readonly evaluationEpisode: number;
  readonly checkpointId?: string | null;
  readonly checkpointHash?: string | null;
  /** Named metrics; only finite numbers count (a boolean is not a metric). */
  readonly metrics: Readonly<Record<string, number>>;
}

/** What one outcome will do to its agent, decided before anything changes. */
export type OutcomePlan =
  | { readonly kind: 'missingIdentity' }
  | { readonly kind: 'duplicate'; readonly evaluationId: string; readonly episode: unknown }
  | {
      readonly kind: 'record';
      readonly evaluationId: string;
      /** The agent's seen ids with this one added, by its record digest (current trie scheme); the agent's own are untouched. */
      readonly seen: DigestTrie;
      readonly episode: number;
      /** The configured metrics' values when all are finite numbers, else `null` (invalid). */
      readonly successValue: number | null;
      readonly plateauValue: number | null;
      readonly valid: boolean;
    };

/**
 * Validate one outcome against its agent's state without changing anything.
 * Throws for what the seed rejects (malformed data, a conflicting duplicate, an
 * out-of-order episode); returns a plan for everything the seed records.
 *
 * @example
 * ```ts
 * planOutcome('SAC', rules, initialAgentState, {
 *   agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { objective: 0.9 },
 * });
 * // { kind: 'record', evaluationId: 'e0', seen: [[['e0', …digest words], null, …], …, 4], episode: 0,
 * //   successValue: 0.9, plateauValue: null, valid: true }
 * ```
 */
export function planOutcome(
  agentName: string,
  rules: AgentTerminationRules,
  agent: { readonly seen: DigestTrie; readonly lastEvaluation: number | null },
  outcome: Readonly<Record<string, unknown>>,
): OutcomePlan {
  const evaluationId = outcome.evaluationId;
  if (typeof evaluationId !== 'string' || evaluationId.length === 0) {
    return { kind: 'missingIdentity' };
  }
  const metrics = outcome.metrics;
  if (typeof metrics !== 'object' || metrics === null || Array.isArray(metrics)) {
    throw new InvalidOutcomeError(
      `${labelOf(agentName)}: metrics must be a mapping of metric name to number`,
    );
  }
  const checkpointId = optionalString(outcome.checkpointId, agentName, 'checkpointId');
  const checkpointHash = optionalString(outcome.checkpointHash, agentName, 'checkpointHash');
  const episode = outcome.evaluationEpisode;
  writeDigest(agentName, evaluationId, episode, checkpointId, checkpointHash, metrics);
  // Looked up and added in one walk: a new trie is only garbage if this outcome is then rejected.
  const added = trieAddDigest(currentTrie(agent.seen), evaluationId, trieHash(evaluationId));
  if (typeof added !== 'object') {
    // A text is a digest restored from before the trie kept words, or the full sha256 of a state before record digests.
    const same =
      typeof added === 'boolean'
        ? added
        : added[0] === RECORD_DIGEST_MARK
          ? added ===
            digestText(pendingDigest[0]!, pendingDigest[1]!, pendingDigest[2]!, pendingDigest[3]!)
          : added ===
            outcomeDigest(
              labelOf(agentName),
              evaluationId,
              episode,
              checkpointId,
              checkpointHash,
              metrics,
            );
    if (!same) {
      throw new ConflictingDuplicateError(
        `${labelOf(agentName)}: evaluation ${JSON.stringify(evaluationId)} was already recorded with different data`,
      );
    }
    return { kind: 'duplicate', evaluationId, episode };
  }
  const isEpisode = typeof episode === 'number' && Number.isInteger(episode) && episode >= 0;
  const expected = agent.lastEvaluation === null ? null : agent.lastEvaluation + 1;
  if (!isEpisode || (expected !== null && episode !== expected)) {
    const wanted = expected === null ? 'a non-negative integer' : String(expected);
    throw new OutOfOrderEvaluationError(
      `${labelOf(agentName)}: out-of-order evaluation episode ${describeEpisode(episode)} for evaluation ${JSON.stringify(evaluationId)}; expected ${wanted}`,
    );
  }
  const record = metrics as Record<string, unknown>;
  const successValue = rules.success === null ? null : finiteMetric(record, rules.success.metric);
  const plateauValue = rules.plateau === null ? null : finiteMetric(record, rules.plateau.metric);
  const valid =
    (rules.success === null || successValue !== null) &&
    (rules.plateau === null || plateauValue !== null);
  return {
    kind: 'record',
    evaluationId,
    seen: added,
    episode,
    successValue,
    plateauValue,
    valid,
  };
}

/** Built only when a message needs it: one string per outcome is measurable at a million outcomes. */
function labelOf(agentName: string): string {
  return `agent ${JSON.stringify(agentName)}`;
}

/** The outcome's record digest into {@link pendingDigest}. */
function writeDigest(
  agentName: string,
  evaluationId: string,
  episode: unknown,
  checkpointId: string | null,
  checkpointHash: string | null,
  metrics: object,
): void {
  try {
    recordDigestWords(evaluationId, episode, checkpointId, checkpointHash, metrics, pendingDigest);
  } catch (error) {
    if (error instanceof CanonicalJsonError) {
      throw new InvalidOutcomeError(
        `${labelOf(agentName)}: outcome is not JSON data: ${error.message}`,
      );
    }
    throw error;
  }
}

function optionalString(value: unknown, agentName: string, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    throw new InvalidOutcomeError(
      `${labelOf(agentName)}: ${field} must be a string or null, got ${typeof value}`,
    );
  }
  return value;
}

/**
 * sha256 (base64url, 43 characters) of the canonical JSON of the seed's canonical outcome: the
 * digest states written before {@link recordDigest} hold, still compared against on a re-send
 * `{ checkpoint_hash, checkpoint_id, evaluation_episode, evaluation_id, metrics }`
 * with non-finite numbers tagged. The fixed keys are written in sorted order by
 * hand (the same text `canonicalJson` gives) so only `metrics` pays for sorting.
 *
 * @example
 * ```ts
 * outcomeDigest('agent "SAC"', 'e0', 0, null, null, { objective: Number.NaN });
 * // sha256 of '{"checkpoint_hash":null,"checkpoint_id":null,"evaluation_episode":0,
 * //   "evaluation_id":"e0","metrics":{"objective":"__nan__"}}'
 * ```
 */
export function outcomeDigest(
  label: string,
  evaluationId: string,
  episode: unknown,
  checkpointId: string | null,
  checkpointHash: string | null,
  metrics: object,
): string {
  try {
    const tagged = { nonFinite: 'tag' } as const;
    const episodeMember =
      episode === undefined ? '' : `"evaluation_episode":${canonicalJson(episode, tagged)},`;
    const text = `{"checkpoint_hash":${JSON.stringify(checkpointHash)},"checkpoint_id":${JSON.stringify(checkpointId)},${episodeMember}"evaluation_id":${JSON.stringify(evaluationId)},"metrics":${canonicalJson(metrics, tagged)}}`;
    return hash('sha256', text, 'base64url');
  } catch (error) {
    if (error instanceof CanonicalJsonError) {
      throw new InvalidOutcomeError(`${label}: outcome is not JSON data: ${error.message}`);
    }
    throw error;
  }
}

function finiteMetric(metrics: Record<string, unknown>, name: string): number | null {
  if (!Object.hasOwn(metrics, name)) return null;
  const value = metrics[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function describeEpisode(episode: unknown): string {
  if (episode === undefined) return '(missing)';
  if (typeof episode === 'number') return String(episode);
  return JSON.stringify(episode) ?? String(episode);
}
