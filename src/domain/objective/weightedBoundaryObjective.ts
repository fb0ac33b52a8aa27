import { isPlainObject } from '../shared/json.js';
import { type ComponentSpec, parseComponentSpecs } from './componentSpec.js';
import { ObjectiveConfigError, ObjectiveInputError } from './errors.js';

/**
 * The meta agent's utility: one scalar from several reward components,
 *
 * `sum(weight * clip((value - center) / scale, clip_low, clip_high))`.
 *
 * It applies no online normalisation: the same readings always give the same
 * value. A component whose reading is missing or not finite is an error, never
 * a silent zero.
 *
 * @example
 * ```ts
 * const objective = new WeightedBoundaryObjective([
 *   { uid: 'grid.voltage', weight: 2, center: 100, scale: 10, clip: [-1, 1] },
 *   { uid: 'grid.load', weight: -1, clip: [0, 3] },
 * ]);
 * objective.evaluate({ 'grid.voltage': 104, 'grid.load': 5 }); // 2 * 0.4 - 1 * 3 = -2.2
 * ```
 */
export class WeightedBoundaryObjective {
  readonly components: readonly ComponentSpec[];

  /** `components` as `parseComponentSpecs` takes them (a list or a mapping by UID). */
  constructor(components: unknown) {
    this.components = parseComponentSpecs(components);
  }

  /**
   * Build from objective `params` of a run file: `{ components: [...] }`.
   *
   * @example
   * ```ts
   * WeightedBoundaryObjective.fromParams({ components: { 'grid.load': { weight: -1 } } }).components.length; // 1
   * ```
   */
  static fromParams(params: unknown): WeightedBoundaryObjective {
    if (!isPlainObject(params) || params.components === undefined) {
      throw new ObjectiveConfigError('params.components: expected the objective components');
    }
    return new WeightedBoundaryObjective(params.components);
  }

  /**
   * The weighted, clipped sum over the components for `readings`.
   *
   * @example
   * ```ts
   * new WeightedBoundaryObjective([{ uid: 'r', weight: 3 }]).evaluate({ r: 0.5 }); // 1.5
   * new WeightedBoundaryObjective([{ uid: 'r' }]).evaluate({}); // throws ObjectiveInputError
   * ```
   */
  evaluate(readings: Readonly<Record<string, number>>): number {
    let total = 0;
    for (const component of this.components) {
      const value = Object.hasOwn(readings, component.uid) ? readings[component.uid] : undefined;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new ObjectiveInputError(
          `reading "${component.uid}" is ${value === undefined ? 'missing' : `not a finite number (${String(value)})`}; the objective needs every component's reading`,
        );
      }
      const normalised = (value - component.center) / component.scale;
      total +=
        component.weight * Math.min(component.clipHigh, Math.max(component.clipLow, normalised));
    }
    return total;
  }
}
