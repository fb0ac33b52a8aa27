export { compareValues } from './compareValues.js';
export { decideRung } from './decideRung.js';
export { dominates } from './dominates.js';
export { SweepDecisionError, SweepSearchError } from './errors.js';
export { trialEvidence } from './evidence.js';
export { expandTrials } from './expandTrials.js';
export { medianOf } from './medianOf.js';
export { objectiveAt } from './objectiveAt.js';
export { paretoRanks } from './paretoRanks.js';
export type {
  DecisionApplied,
  SweepProgress,
  TrialEvidence,
  TrialProgress,
  TrialStatus,
} from './progress.js';
export { holdOf, nextDecision, sweepEnded } from './progress.js';
export { rankTrials } from './rankTrials.js';
export { rungValues } from './rungValues.js';
export type * from './types.js';
