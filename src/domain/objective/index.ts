export type { ComponentSpec } from './componentSpec.js';
export { componentDefaults, parseComponentSpecs } from './componentSpec.js';
export { ObjectiveConfigError, ObjectiveInputError } from './errors.js';
export { WeightedBoundaryObjective } from './weightedBoundaryObjective.js';
