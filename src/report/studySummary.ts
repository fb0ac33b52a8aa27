import { trainingEpisodesThrough } from '../domain/shared/episodeCounts.js';
import type { JsonValue } from '../domain/shared/json.js';
import { mean } from '../domain/shared/mean.js';
import { formatNumber } from './formatNumber.js';
import type { PhaseReport, StudyOutcome, StudyPhase, StudySummary } from './reportTypes.js';

/**
 * The answer of a study whose meta agent chooses a design phase by phase:
 * each phase's chosen values (the candidates of its meta decisions) beside its
 * outcome (the mean return of its evaluation episodes, or of all its episodes
 * when it ran none), and findings computed from them: the best outcome, the
 * best outcome per chosen value of each drawn selector, and whether the last
 * decision keeps the value of the best outcome. `null` unless two or more
 * phases made a meta decision: one decision is not a comparison.
 *
 * @example
 * ```ts
 * studySummary(report.phases)?.findings[0];
 * // 'The best outcome is 29.9433 (evaluation mean return) in phase explore_2,
 * //  with midas.definition.pv_bus_6_peak_mw = 4.4.'
 * ```
 */
export function studySummary(phases: readonly PhaseReport[]): StudySummary | null {
  const studyPhases = phases.flatMap((phase) =>
    phase.metaDecisions.length > 1 ? decisionSpans(phase) : [studyPhase(phase)],
  );
  const decided = studyPhases.filter((phase) => phase.decision !== null);
  if (decided.length < 2) return null;
  const selectors = drawnSelectors(decided);
  return { selectors, phases: studyPhases, findings: findings(decided, selectors) };
}

function studyPhase(phase: PhaseReport): StudyPhase {
  return {
    phaseIndex: phase.phaseIndex,
    name: phase.name,
    mode: phase.mode,
    terminationReason: phase.terminationReason,
    decision: candidatesOf(phase.metaDecisions),
    outcome: outcomeOf(phase.episodeReturns),
  };
}

/**
 * A phase of the repeated meta loop, one row per decision: the episodes from
 * the decision to the next one, named by that span, against their outcome.
 */
function decisionSpans(phase: PhaseReport): StudyPhase[] {
  return phase.metaDecisions.map((decision, index) => {
    const next = phase.metaDecisions[index + 1];
    const last = next === undefined ? phase.episodes : next.firstEpisode - 1;
    const episodes = phase.episodeReturns.filter(
      (entry) => entry.episode >= decision.firstEpisode && entry.episode <= last,
    );
    return {
      phaseIndex: phase.phaseIndex,
      name: `${phase.name} ${phase.mode === 'test' ? 'test' : 'training'} episodes ${trainingSpan(phase, episodes)}`,
      mode: phase.mode,
      terminationReason: next === undefined ? phase.terminationReason : null,
      decision: candidatesOf([decision]),
      outcome: outcomeOf(episodes),
    };
  });
}

function candidatesOf(
  decisions: PhaseReport['metaDecisions'],
): Readonly<Record<string, JsonValue>> | null {
  const candidates: Record<string, JsonValue> = {};
  for (const decision of decisions) {
    for (const selector of decision.selectors) {
      if (selector.candidate !== null) candidates[selector.uid] = selector.candidate;
    }
  }
  return Object.keys(candidates).length === 0 ? null : candidates;
}

function outcomeOf(episodeReturns: PhaseReport['episodeReturns']): StudyOutcome | null {
  const evaluation = episodeReturns.filter((entry) => entry.evaluation);
  const counted = evaluation.length > 0 ? evaluation : episodeReturns;
  if (counted.length === 0) return null;
  return {
    value: mean(counted.map((entry) => entry.episodeReturn)) ?? 0,
    measure: evaluation.length > 0 ? 'evaluation mean return' : 'mean return',
    episodes: counted.length,
  };
}

/** Numeric selectors whose chosen value is not the same in every deciding phase, in first-seen order. */
function drawnSelectors(decided: readonly StudyPhase[]): string[] {
  const uids = [...new Set(decided.flatMap((phase) => Object.keys(phase.decision ?? {})))];
  return uids.filter((uid) => {
    const values = decided.map((phase) => phase.decision?.[uid]);
    return values.every((value) => typeof value === 'number') && new Set(values).size > 1;
  });
}

function findings(decided: readonly StudyPhase[], selectors: readonly string[]): string[] {
  const withOutcome = decided.filter((phase) => phase.outcome !== null);
  const best = withOutcome.reduce<StudyPhase | null>(
    (held, phase) =>
      held === null || (phase.outcome?.value ?? 0) > (held.outcome?.value ?? 0) ? phase : held,
    null,
  );
  if (best === null || best.outcome === null) {
    return [
      'No phase with a meta decision finished an episode, so there is no outcome to compare.',
    ];
  }
  const lines = [
    `The best outcome is ${formatNumber(best.outcome.value)} (${best.outcome.measure}) in phase ${best.name}, with ${choiceText(best, selectors)}.`,
  ];
  for (const uid of selectors) lines.push(perValueLine(uid, withOutcome));
  const last = decided[decided.length - 1] as StudyPhase;
  const tail = decided
    .slice(decided.length - trailingRun(decided, last))
    .map((phase) => phase.name);
  const kept = sameChoice(last, best)
    ? 'the choice of the best outcome'
    : `not the choice of the best outcome (${choiceText(best, selectors)})`;
  lines.push(
    `The last decision (phase${tail.length === 1 ? '' : 's'} ${tail.join(', ')}) keeps ${choiceText(last, selectors)}: ${kept}.`,
  );
  return lines;
}

/** The best outcome per chosen value of one selector, values ascending, highest and next named. */
function perValueLine(uid: string, phases: readonly StudyPhase[]): string {
  const byValue = new Map<number, number>();
  for (const phase of phases) {
    const value = phase.decision?.[uid];
    if (typeof value !== 'number' || phase.outcome === null) continue;
    byValue.set(value, Math.max(byValue.get(value) ?? -Infinity, phase.outcome.value));
  }
  const ascending = [...byValue].sort(([left], [right]) => left - right);
  const ranked = [...byValue].sort(([, left], [, right]) => right - left);
  const listing = ascending
    // Words, not an arrow: "→" is a glyph some fonts lack, and a page shows it blank.
    .map(([value, outcome]) => `${formatNumber(outcome)} at ${formatNumber(value)}`)
    .join(', ');
  const [first, second] = ranked;
  const peak =
    first === undefined
      ? ''
      : `; highest at ${formatNumber(first[0])}${second === undefined ? '' : `, next ${formatNumber(second[0])}`}`;
  return `Best outcome per ${uid}: ${listing}${peak}.`;
}

/** How many deciding phases at the end made the same choice as the last one. */
function trailingRun(decided: readonly StudyPhase[], last: StudyPhase): number {
  let run = 0;
  for (let index = decided.length - 1; index >= 0; index -= 1) {
    if (!sameChoice(decided[index] as StudyPhase, last)) break;
    run += 1;
  }
  return run;
}

function sameChoice(left: StudyPhase, right: StudyPhase): boolean {
  return (
    JSON.stringify(sortedEntries(left.decision)) === JSON.stringify(sortedEntries(right.decision))
  );
}

function sortedEntries(decision: StudyPhase['decision']): Array<[string, JsonValue]> {
  return Object.entries(decision ?? {}).sort(([left], [right]) => left.localeCompare(right));
}

/** `uid = value` for the drawn selectors, or for every chosen selector when none is drawn. */
function choiceText(phase: StudyPhase, selectors: readonly string[]): string {
  const decision = phase.decision ?? {};
  const uids = selectors.length > 0 ? selectors : Object.keys(decision);
  return uids.map((uid) => `${uid} = ${valueText(decision[uid])}`).join(', ');
}

function valueText(value: JsonValue | undefined): string {
  if (typeof value === 'number') return formatNumber(value);
  return value === undefined ? '–' : JSON.stringify(value);
}

/** `21–40`: the training (or test) episodes of a span, counted as the phase counts them. */
function trainingSpan(phase: PhaseReport, span: PhaseReport['episodeReturns']): string {
  const counted = span.filter((entry) => !entry.evaluation);
  const first = counted[0];
  const last = counted.at(-1);
  if (first === undefined || last === undefined) return '–';
  const ordinal = (entry: { episode: number }) =>
    trainingEpisodesThrough(phase.episodeReturns, entry.episode);
  return first === last ? String(ordinal(first)) : `${ordinal(first)}–${ordinal(last)}`;
}
