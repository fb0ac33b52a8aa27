import { isPlainObject, type JsonValue } from '../domain/shared/json.js';
import type { MetaDecisionRecord, RunStore } from '../ports/store/store.js';
import { metricSeries } from './metricSeries.js';
import { phaseOverview, selectorChanges } from './recordViews.js';
import type { MetaDecisionRows, PhaseReport, RunReport } from './reportTypes.js';
import { type RunActivity, runActivity } from './runActivity.js';
import { storedRules } from './storedRules.js';
import { studySummary } from './studySummary.js';
import { terminationEvidence } from './terminationEvidence.js';

/**
 * Read everything a run report shows from the store: the run's metadata, and
 * per phase its metrics per checkpoint (with the success threshold and the best
 * value), episode returns, meta decisions and the evidence for its termination
 * reason. The thresholds come from the run file stored with the run.
 *
 * @throws RunNotFoundError when the store has no such run.
 * @example
 * ```ts
 * const report = collectRunReport(store, 'line-run-20261129T202409-e4e9');
 * report.phases[0]?.termination.summary;
 * // 'success: operator objective ≥ 0.8 for 2 consecutive evaluations (0.9, 0.95), 4 valid evaluations ≥ min 2'
 * ```
 */
export function collectRunReport(store: RunStore, runId: string): RunReport {
  const run = store.getRun(runId);
  const { rules, note } = storedRules(run.runFile, run.runFilePath);
  const metaDecisions = store.metaDecisions(runId);
  const phases = store.phases(runId).map((phase): PhaseReport => {
    const checkpoints = store.checkpoints(runId, phase.phaseIndex);
    const episodes = store.episodes(runId, phase.phaseIndex);
    return {
      ...phaseOverview(phase),
      episodes: phase.episodes,
      metrics: metricSeries(checkpoints, rules),
      episodeReturns: episodes.map((episode) => ({
        episode: episode.episode,
        evaluation: episode.evaluation,
        episodeReturn: episode.episodeReturn,
        steps: episode.steps,
        returnsByAgent: finiteReturns(episode.returnsByAgent),
      })),
      metaDecisions: metaDecisions
        .filter((decision) => decision.phaseIndex === phase.phaseIndex)
        .map(metaDecisionRows),
      termination: terminationEvidence({
        phase,
        checkpoints,
        episodes,
        rules,
        runError: run.error,
      }),
    };
  });
  const activity = runActivity(run);
  const unfinished = activity.status !== 'succeeded';
  return {
    run: {
      runId: run.runId,
      uid: run.uid,
      seed: run.seed,
      status: activity.status,
      unfinished: unfinished ? unfinishedNote(activity) : null,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      error: run.error,
      runFilePath: run.runFilePath,
    },
    rulesNote: note,
    phases,
    // an unfinished run has no answer yet: the page says so instead of concluding from part of it
    study: unfinished ? null : studySummary(phases),
  };
}

function finiteReturns(returnsByAgent: JsonValue): Record<string, number> {
  if (!isPlainObject(returnsByAgent)) return {};
  const returns: Record<string, number> = {};
  for (const [agentName, value] of Object.entries(returnsByAgent)) {
    if (typeof value === 'number' && Number.isFinite(value)) returns[agentName] = value;
  }
  return returns;
}

function metaDecisionRows(decision: MetaDecisionRecord): MetaDecisionRows {
  return {
    startRequest: decision.startRequest,
    firstEpisode: decision.firstEpisode,
    environmentUid: decision.environmentUid,
    agentName: decision.agentName,
    selectors: selectorRows(decision.record),
  };
}

/** A decision whose record lacks a map still gets its rows: the missing side is all `null`. */
function selectorRows(record: JsonValue): MetaDecisionRows['selectors'] {
  if (!isPlainObject(record)) return [];
  const baseline = isPlainObject(record.baseline) ? record.baseline : {};
  const candidate = isPlainObject(record.candidate) ? record.candidate : {};
  return selectorChanges(record, baseline, candidate);
}

/** The sentence that opens the report of a run that has not succeeded (yet). */
function unfinishedNote(activity: RunActivity): string {
  const why = activity.interruption === null ? '' : ` (${activity.interruption})`;
  const state =
    activity.status === 'running'
      ? `still running (lease lapses in ${activity.leaseLapsesInSeconds} s)`
      : `${activity.status}${why}`;
  return `This run is unfinished: ${state}. What follows is what it recorded so far; the study's answer is drawn only from a run that succeeded.`;
}
