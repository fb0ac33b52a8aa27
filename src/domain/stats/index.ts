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
export { type ClusteredMean, clusteredMeanAccumulator } from './clusteredStandardError.js';
export { cohenKappa, kappaOfConfusion, kappaOfMatrix } from './cohenKappa.js';
export { type ConfusionMatrix, confusionMatrix } from './confusionMatrix.js';
export { binomialCdf, normalQuantile, studentTCdf, studentTQuantile } from './distributions.js';
export { StatisticsInputError } from './errors.js';
export { fleissKappa, ratingAgreementAccumulator } from './fleissKappa.js';
export {
  type ConfidenceInterval,
  DEFAULT_CONFIDENCE,
  formatEstimate,
  formatInterval,
} from './interval.js';
export { type LabelScores, labelScores } from './labelScores.js';
export { type McNemarTest, mcnemarExact } from './mcnemarExact.js';
export { meanAbsoluteDifference } from './meanAbsoluteDifference.js';
export { meanInterval, tInterval } from './meanInterval.js';
export { type PairedComparison, pairedComparisonAccumulator } from './pairedTTest.js';
export { passAtK } from './passAtK.js';
export { pearson } from './pearson.js';
export { percentileOfSorted } from './percentile.js';
export { averageRanks } from './ranks.js';
export {
  addMoment,
  emptyMoments,
  type RunningMoments,
  sampleVariance,
  standardErrorOfMean,
} from './runningMoments.js';
export { spearman } from './spearman.js';
export { wilsonInterval } from './wilsonInterval.js';
