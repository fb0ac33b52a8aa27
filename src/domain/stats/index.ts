export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapInterval,
  bootstrapRecords,
  DEFAULT_BOOTSTRAP_RESAMPLES,
} from './bootstrap.js';
export { StatsInputError } from './errors.js';
export { percentileOfSorted } from './percentile.js';
