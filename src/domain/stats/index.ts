export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapInterval,
  bootstrapRecords,
  DEFAULT_BOOTSTRAP_RESAMPLES,
} from './bootstrap.js';
export { cohenKappa, kappaOfConfusion, kappaOfMatrix } from './cohenKappa.js';
export { type ConfusionMatrix, confusionMatrix } from './confusionMatrix.js';
export { StatisticsInputError } from './errors.js';
export { fleissKappa, ratingAgreementAccumulator } from './fleissKappa.js';
export { type LabelScores, labelScores } from './labelScores.js';
export { meanAbsoluteDifference } from './meanAbsoluteDifference.js';
export { pearson } from './pearson.js';
export { percentileOfSorted } from './percentile.js';
export { averageRanks } from './ranks.js';
export { spearman } from './spearman.js';
