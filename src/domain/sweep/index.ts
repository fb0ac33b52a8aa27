export { decideRung } from './decideRung.js';
export { SweepDecisionError, SweepSearchError } from './errors.js';
export { trialEvidence } from './evidence.js';
export { expandTrials } from './expandTrials.js';
export { objectiveAt } from './objective.js';
export type {
  DecisionApplied,
  SweepProgress,
  TrialEvidence,
  TrialProgress,
  TrialStatus,
} from './progress.js';
export { holdOf, nextDecision, sweepEnded } from './progress.js';
export { dominates, paretoRanks, rankTrials } from './ranking.js';
export { rungValues } from './rungValues.js';
export type * from './types.js';
