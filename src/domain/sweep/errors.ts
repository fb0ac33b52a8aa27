import { arenaErrorClass } from '../shared/errors.js';

/** A search the sweep cannot expand (a range parameter in a grid search). */
export class SweepSearchError extends arenaErrorClass('SWEEP_SEARCH') {}

/** A rung's entries the pruner cannot decide on (a trial twice, a value per objective missing). */
export class SweepDecisionError extends arenaErrorClass('SWEEP_DECISION') {}
