export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapInterval,
  bootstrapRecords,
  DEFAULT_BOOTSTRAP_RESAMPLES,
} from './bootstrap.js';
export {
  type BradleyTerryFit,
  BradleyTerryInputError,
  bradleyTerry,
  ELO_PER_LOG_STRENGTH,
  MEAN_RATING,
} from './bradleyTerry.js';
export { StatsInputError } from './errors.js';
export { percentileOfSorted } from './percentile.js';
