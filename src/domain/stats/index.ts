export { type ClusteredMean, clusteredMeanAccumulator } from './clusteredStandardError.js';
export { binomialCdf, normalQuantile, studentTCdf, studentTQuantile } from './distributions.js';
export { StatisticsInputError } from './errors.js';
export {
  type ConfidenceInterval,
  DEFAULT_CONFIDENCE,
  formatEstimate,
  formatInterval,
} from './interval.js';
export { type McNemarTest, mcnemarExact } from './mcnemarExact.js';
export { meanInterval, tInterval } from './meanInterval.js';
export { type PairedComparison, pairedComparisonAccumulator } from './pairedTTest.js';
export { passAtK } from './passAtK.js';
export {
  addMoment,
  emptyMoments,
  type RunningMoments,
  sampleVariance,
  standardErrorOfMean,
} from './runningMoments.js';
export { wilsonInterval } from './wilsonInterval.js';
