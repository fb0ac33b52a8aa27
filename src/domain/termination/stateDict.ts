import { canonicalJson, sha256Hex } from '../shared/canonicalJson.js';
import { describeValue } from '../shared/describeValue.js';
import type { TerminationConfig } from './config.js';
import { configurationFingerprint, configurationView } from './config.js';
import type { DigestTrie } from './digestTrie.js';
import { trieEntries, trieSet } from './digestTrie.js';
import { TerminationStateError } from './errors.js';
import { RECORD_DIGEST_MARK } from './recordDigest.js';
import { smoothedMetric } from './rules.js';
import type { AgentTerminationState, TerminationReason, TerminationState } from './state.js';

/**
 * The state dict format version this code writes and reads.
 *
 * @example
 * ```ts
 * toStateDict(state).version; // 1 (TERMINATION_STATE_VERSION)
 * ```
 */
export const TERMINATION_STATE_VERSION = 1;

/** A record digest: the mark, then 22 base64url characters. */
const RECORD_DIGEST = /^~[A-Za-z0-9_-]{22}$/;
/** What states written before record digests hold: a full base64url sha256. */
const LEGACY_DIGEST = /^[A-Za-z0-9_-]{43}$/;

const reasons: readonly TerminationReason[] = [
  'success',
  'plateau',
  'max_episodes',
  'cancelled',
  'failed',
];

/** One agent in a state dict (snake_case, like the seed's). */
export interface AgentStateDict {
  last_evaluation: number | null;
  /**
   * Evaluation id -> its digest, ids sorted: a record digest (`~` and 22
   * base64url characters, 128 bits), or in states written before those, the
   * full base64url sha256 (43 characters) of the canonical outcome.
   */
  seen: Record<string, string>;
  valid_evaluations: number;
  plateau_window: number[];
  success_streak: number;
  plateau_patience: number;
  best_metric: number | null;
  best_evaluation_id: string | null;
}

/** A complete, versioned, JSON-serialisable termination state for an exact resume. */
export interface TerminationStateDict {
  version: number;
  configuration_fingerprint: string;
  configuration: ReturnType<typeof configurationView>;
  termination_reason: TerminationReason | null;
  agents: Record<string, AgentStateDict>;
}

/**
 * Write `state` as a versioned state dict with its configuration fingerprint.
 *
 * @example
 * ```ts
 * toStateDict(createTerminationState(config));
 * // { version: 1, configuration_fingerprint: '0bbd6788…', configuration: { success: { SAC: {…} },
 * //   plateau: { SAC: null } },
 * //   termination_reason: null, agents: { SAC: { last_evaluation: null, seen: {},
 * //   valid_evaluations: 0, plateau_window: [], success_streak: 0, plateau_patience: 0,
 * //   best_metric: null, best_evaluation_id: null } } }
 * ```
 */
export function toStateDict(state: TerminationState): TerminationStateDict {
  const agents: Record<string, AgentStateDict> = {};
  for (const name of state.config.agentNames) {
    const agent = state.agents[name]!;
    const seen: Record<string, string> = {};
    const entries = [...trieEntries(agent.seen)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [id, digest] of entries) seen[id] = digest;
    agents[name] = {
      last_evaluation: agent.lastEvaluation,
      seen,
      valid_evaluations: agent.validEvaluations,
      plateau_window: [...agent.plateauWindow],
      success_streak: agent.successStreak,
      plateau_patience: agent.plateauPatience,
      best_metric: agent.bestMetric,
      best_evaluation_id: agent.bestEvaluationId,
    };
  }
  return {
    version: TERMINATION_STATE_VERSION,
    configuration_fingerprint: configurationFingerprint(state.config),
    configuration: configurationView(state.config),
    termination_reason: state.terminationReason,
    agents,
  };
}

/**
 * Restore a state dict, but only when it exactly matches `config`: the
 * version, fingerprint, configuration and agent set must match, and every
 * counter and value must be well formed.
 *
 * @throws TerminationStateError saying which check failed and where.
 * @example
 * ```ts
 * fromStateDict(config, toStateDict(state)); // behaves exactly like `state`
 * fromStateDict(config, { ...dict, version: 2 });
 * // throws: unsupported termination state version 2; expected 1
 * ```
 */
export function fromStateDict(config: TerminationConfig, dict: unknown): TerminationState {
  if (!isRecord(dict)) {
    throw new TerminationStateError(
      `a termination state must be a mapping, got ${describeValue(dict)}`,
    );
  }
  if (dict.version !== TERMINATION_STATE_VERSION) {
    throw new TerminationStateError(
      `unsupported termination state version ${describeValue(dict.version)}; expected ${TERMINATION_STATE_VERSION}`,
    );
  }
  const fingerprints = [configurationFingerprint(config), earlierFingerprint(config)];
  if (!fingerprints.includes(dict.configuration_fingerprint as string)) {
    throw new TerminationStateError(
      'termination state configuration_fingerprint does not match this configuration',
    );
  }
  if (!sameJson(dict.configuration, configurationView(config))) {
    throw new TerminationStateError('termination state configuration does not match the rules');
  }
  const reason = dict.termination_reason;
  if (reason !== null && !reasons.includes(reason as TerminationReason)) {
    throw new TerminationStateError(
      `termination_reason must be null or one of ${reasons.join(', ')}, got ${describeValue(reason)}`,
    );
  }
  const savedAgents = dict.agents;
  if (!isRecord(savedAgents)) {
    throw new TerminationStateError(`agents must be a mapping, got ${describeValue(savedAgents)}`);
  }
  const saved = Object.keys(savedAgents).sort();
  if (canonicalJson(saved) !== canonicalJson(config.agentNames)) {
    throw new TerminationStateError(
      `termination state has agents ${saved.join(', ') || '(none)'}; the rules have ${config.agentNames.join(', ')}`,
    );
  }
  const agents: Record<string, AgentTerminationState> = {};
  for (const name of config.agentNames) {
    agents[name] = restoreAgent(config, name, savedAgents[name]);
  }
  return { config, agents, terminationReason: reason as TerminationReason | null };
}

function restoreAgent(
  config: TerminationConfig,
  name: string,
  raw: unknown,
): AgentTerminationState {
  const where = `agents.${name}`;
  if (!isRecord(raw)) {
    throw new TerminationStateError(`${where} must be a mapping, got ${describeValue(raw)}`);
  }
  const lastEvaluation =
    raw.last_evaluation === null
      ? null
      : nonNegativeInteger(raw.last_evaluation, `${where}.last_evaluation`);
  if (!isRecord(raw.seen)) {
    throw new TerminationStateError(`${where}.seen must be a mapping of evaluation id to digest`);
  }
  let seen: DigestTrie = null;
  let seenCount = 0;
  for (const [id, digest] of Object.entries(raw.seen)) {
    if (typeof digest === 'string' && digest.startsWith(RECORD_DIGEST_MARK)) {
      if (!RECORD_DIGEST.test(digest)) {
        throw new TerminationStateError(
          `${where}.seen[${JSON.stringify(id)}] must be a record digest (${RECORD_DIGEST_MARK} and 22 base64url characters), got ${describeValue(digest)}`,
        );
      }
    } else if (typeof digest !== 'string' || !LEGACY_DIGEST.test(digest)) {
      // Without the record mark, the only digest it can be is a legacy one.
      throw new TerminationStateError(
        `${where}.seen[${JSON.stringify(id)}] must be a base64url sha256 digest, got ${describeValue(digest)}`,
      );
    }
    seen = trieSet(seen, id, digest);
    seenCount++;
  }
  if ((lastEvaluation === null) !== (seenCount === 0)) {
    throw new TerminationStateError(
      `${where}.seen and ${where}.last_evaluation disagree: a recorded evaluation needs both`,
    );
  }
  const validEvaluations = nonNegativeInteger(raw.valid_evaluations, `${where}.valid_evaluations`);
  if (validEvaluations > seenCount) {
    throw new TerminationStateError(
      `${where}.valid_evaluations (${validEvaluations}) exceeds the ${seenCount} evaluations seen`,
    );
  }
  const plateau = config.agents[name]?.plateau ?? null;
  const plateauWindow = finiteList(raw.plateau_window, `${where}.plateau_window`);
  const expectedWindow = plateau === null ? 0 : Math.min(validEvaluations, plateau.window);
  if (plateauWindow.length !== expectedWindow) {
    throw new TerminationStateError(
      `${where}.plateau_window must hold ${expectedWindow} values, got ${plateauWindow.length}`,
    );
  }
  const bestMetric =
    raw.best_metric === null ? null : finiteNumber(raw.best_metric, `${where}.best_metric`);
  const bestEvaluationId = raw.best_evaluation_id;
  if (bestEvaluationId !== null && typeof bestEvaluationId !== 'string') {
    throw new TerminationStateError(
      `${where}.best_evaluation_id must be a string or null, got ${describeValue(bestEvaluationId)}`,
    );
  }
  if (
    plateau !== null &&
    (bestMetric === null) !== (smoothedMetric(plateauWindow, plateau.window) === null)
  ) {
    throw new TerminationStateError(
      `${where}.best_metric must be set exactly when the plateau window is full`,
    );
  }
  return {
    lastEvaluation,
    seen,
    seenCount,
    validEvaluations,
    plateauWindow,
    successStreak: nonNegativeInteger(raw.success_streak, `${where}.success_streak`),
    plateauPatience: nonNegativeInteger(raw.plateau_patience, `${where}.plateau_patience`),
    bestMetric,
    bestEvaluationId,
  };
}

function nonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TerminationStateError(
      `${field} must be a non-negative integer, got ${describeValue(value)}`,
    );
  }
  return value;
}

function finiteNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TerminationStateError(
      `${field} must be a finite number, got ${describeValue(value)}`,
    );
  }
  return value;
}

function finiteList(value: unknown, field: string): number[] {
  if (!Array.isArray(value)) {
    throw new TerminationStateError(
      `${field} must be a list of finite numbers, got ${describeValue(value)}`,
    );
  }
  return value.map((item, index) => finiteNumber(item, `${field}[${index}]`));
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** What arena wrote before it wrote the seed's fingerprint (JavaScript's `1`, not `1.0`): such states still restore. */
function earlierFingerprint(config: TerminationConfig): string {
  return sha256Hex(canonicalJson(configurationView(config)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
