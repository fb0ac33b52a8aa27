import { canonicalJson, sha256Hex } from '../shared/canonicalJson.js';
import { deepFreeze, isPlainObject } from '../shared/json.js';
import { ScenarioContractError } from './errors.js';
import {
  createScenarioState,
  requireName,
  type ScenarioState,
  scenarioStateFromCandidate,
} from './scenarioState.js';
import type { DeclarativePatch, ValidatedCandidate } from './types.js';

/** Which catalogue action a decision took, when it was made through a catalogue. */
export interface CatalogueChoice {
  readonly index: number;
  readonly patchId: string;
}

/**
 * Immutable evidence of one scenario planning decision: which agent, from
 * which state, with which actions, giving which patch and which validated
 * candidate, and when.
 */
export interface ScenarioDecisionRecord {
  readonly version: 1;
  /** sha256 of the canonical JSON of every other field: the record's identity. */
  readonly recordId: string;
  readonly environmentUid: string;
  readonly agentName: string;
  /** Revision of the state the decision started from (the patch's base). */
  readonly fromRevision: string;
  /** Revision of the validated candidate. */
  readonly toRevision: string;
  /** The agent's actions by definition actuator UID (`{}` when it proposed nothing). */
  readonly actions: Readonly<Record<string, number>>;
  readonly catalogueChoice: CatalogueChoice | null;
  readonly patch: DeclarativePatch;
  readonly candidate: ValidatedCandidate;
  /** ISO 8601 UTC instant of the decision, e.g. `2026-11-29T20:00:00.000Z`. */
  readonly decidedAt: string;
}

/** What `createScenarioDecisionRecord` takes. */
export interface ScenarioDecisionInput {
  readonly environmentUid: string;
  readonly agentName: string;
  readonly fromRevision: string;
  readonly actions: Readonly<Record<string, number>>;
  readonly patch: DeclarativePatch;
  readonly candidate: ValidatedCandidate;
  /** Any ISO 8601 instant with a zone; stored as UTC `toISOString()`. */
  readonly decidedAt: string;
  readonly catalogueChoice?: CatalogueChoice | null;
}

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A frozen, self-consistent decision record. The patch must be for the
 * environment and start from `fromRevision`; the candidate must be the
 * validation of exactly that patch (same base revision, same patch hash).
 *
 * @example
 * ```ts
 * createScenarioDecisionRecord({ environmentUid: 'midas', agentName: 'meta_agent',
 *   fromRevision: patch.baseRevision, actions, patch, candidate,
 *   decidedAt: '2026-11-29T21:00:00+01:00' });
 * // { version: 1, recordId: '…', ..., toRevision: candidate.revision,
 * //   catalogueChoice: null, decidedAt: '2026-11-29T20:00:00.000Z' }
 * ```
 */
export function createScenarioDecisionRecord(input: ScenarioDecisionInput): ScenarioDecisionRecord {
  const { environmentUid, agentName, fromRevision, patch, candidate } = input;
  requireName(environmentUid, 'ScenarioDecisionRecord.environmentUid');
  requireName(agentName, 'ScenarioDecisionRecord.agentName');
  requireName(fromRevision, 'ScenarioDecisionRecord.fromRevision');
  const problems: string[] = [];
  if (patch.environmentUid !== environmentUid) {
    problems.push(`patch.environmentUid is "${patch.environmentUid}"`);
  }
  if (patch.baseRevision !== fromRevision) {
    problems.push(`patch.baseRevision ${patch.baseRevision} is not fromRevision`);
  }
  if (candidate.environmentUid !== environmentUid) {
    problems.push(`candidate.environmentUid is "${candidate.environmentUid}"`);
  }
  if (candidate.provenance.baseRevision !== fromRevision) {
    problems.push(
      `candidate.provenance.baseRevision ${candidate.provenance.baseRevision} is not fromRevision`,
    );
  }
  if (candidate.provenance.patchHash !== patch.hash) {
    problems.push(
      `candidate.provenance.patchHash ${candidate.provenance.patchHash} is not patch.hash`,
    );
  }
  if (problems.length > 0) {
    throw new ScenarioContractError(
      `the decision of "${agentName}" for "${environmentUid}" from ${fromRevision} is inconsistent: ${problems.join('; ')}`,
    );
  }
  const actions = checkedActions(input.actions);
  const decidedAt = normalisedInstant(input.decidedAt);
  const content = {
    version: 1 as const,
    environmentUid,
    agentName,
    fromRevision,
    toRevision: candidate.revision,
    actions,
    catalogueChoice: checkedChoice(input.catalogueChoice ?? null),
    patch,
    candidate,
    decidedAt,
  };
  const recordId = sha256Hex(canonicalJson(content, { nonFinite: 'tag' }));
  const { version, ...evidence } = content;
  return deepFreeze({ version, recordId, ...evidence });
}

function checkedActions(actions: unknown): Record<string, number> {
  if (!isPlainObject(actions)) {
    throw new ScenarioContractError(
      'ScenarioDecisionRecord.actions: expected a mapping of UID to number',
    );
  }
  const copy: Record<string, number> = {};
  for (const [uid, value] of Object.entries(actions)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new ScenarioContractError(
        `ScenarioDecisionRecord.actions["${uid}"]: expected a finite number, got ${String(value)}`,
      );
    }
    copy[uid] = value;
  }
  return copy;
}

function checkedChoice(choice: CatalogueChoice | null): CatalogueChoice | null {
  if (choice === null) return null;
  if (!Number.isInteger(choice.index) || choice.index < 0) {
    throw new ScenarioContractError(
      `ScenarioDecisionRecord.catalogueChoice.index: expected an integer >= 0, got ${choice.index}`,
    );
  }
  requireName(choice.patchId, 'ScenarioDecisionRecord.catalogueChoice.patchId');
  return { index: choice.index, patchId: choice.patchId };
}

function normalisedInstant(value: unknown): string {
  const time = typeof value === 'string' && isoInstant.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new ScenarioContractError(
      `ScenarioDecisionRecord.decidedAt: expected an ISO 8601 instant with a zone, e.g. 2026-11-29T20:00:00.000Z, got ${JSON.stringify(value)}`,
    );
  }
  return new Date(time).toISOString();
}

/** A decision applied: the state before, the state after, and the evidence. */
export interface ScenarioTransition {
  readonly version: 1;
  readonly environmentUid: string;
  readonly from: ScenarioState;
  readonly to: ScenarioState;
  readonly decision: ScenarioDecisionRecord;
}

/**
 * The transition a decision makes from `from`; `to` is the decision's
 * validated candidate. `from` must be the state the decision started from.
 *
 * @example
 * ```ts
 * const transition = createScenarioTransition({ from: baselineState, decision });
 * transition.to.revision === decision.toRevision; // true
 * ```
 */
export function createScenarioTransition(input: {
  from: ScenarioState;
  decision: ScenarioDecisionRecord;
}): ScenarioTransition {
  const { decision } = input;
  const from = createScenarioState(input.from);
  if (input.from.revision !== from.revision) {
    throw new ScenarioContractError(
      `ScenarioTransition.from.revision ${input.from.revision} does not match its definition (${from.revision})`,
    );
  }
  if (from.environmentUid !== decision.environmentUid || from.revision !== decision.fromRevision) {
    throw new ScenarioContractError(
      `the decision ${decision.recordId} starts from "${decision.environmentUid}" at ${decision.fromRevision}, not from "${from.environmentUid}" at ${from.revision}`,
    );
  }
  const to = scenarioStateFromCandidate(decision.candidate);
  return deepFreeze({
    version: 1,
    environmentUid: decision.environmentUid,
    from,
    to,
    decision,
  });
}
