import { z } from 'zod';
import { deepFreeze, isPlainObject } from '../shared/json.js';
import { ObjectiveConfigError } from './errors.js';

/**
 * One reward component of a `WeightedBoundaryObjective`: the reading `uid`
 * contributes `weight * clip((value - center) / scale, clipLow, clipHigh)`.
 */
export interface ComponentSpec {
  readonly uid: string;
  readonly weight: number;
  readonly center: number;
  readonly scale: number;
  readonly clipLow: number;
  readonly clipHigh: number;
}

const finite = z.number().refine(Number.isFinite, 'expected a finite number');

const entrySchema = z.strictObject({
  uid: z.string().min(1).optional(),
  weight: finite.optional(),
  center: finite.optional(),
  scale: finite.optional(),
  clip_low: finite.optional(),
  clip_high: finite.optional(),
  clipLow: finite.optional(),
  clipHigh: finite.optional(),
  clip: z.tuple([finite, finite]).optional(),
});

type RawEntry = z.infer<typeof entrySchema>;

/**
 * The defaults of a field a component leaves out.
 *
 * @example
 * ```ts
 * componentDefaults; // { weight: 1, center: 0, scale: 1, clipLow: -1, clipHigh: 1 }
 * ```
 */
export const componentDefaults = deepFreeze({
  weight: 1,
  center: 0,
  scale: 1,
  clipLow: -1,
  clipHigh: 1,
});

/**
 * Validate component specs from run-file parameters or code into frozen
 * `ComponentSpec`s. `raw` is a list of components, or a mapping from UID to
 * component. A component is a `ComponentSpec`-like object (`clipLow`,
 * `clipHigh`) or a run-file mapping (`clip_low`, `clip_high`), and may give
 * both clip bounds at once as `clip: [low, high]`. Omitted fields default to
 * weight 1, center 0, scale 1, clip [-1, 1]. A zero, negative or non-finite
 * scale (flip a component with a negative weight instead),
 * `clip_low > clip_high`, or two spellings of one field are config errors
 * naming the component, e.g. `components[1].scale`.
 *
 * @example
 * ```ts
 * parseComponentSpecs([{ uid: 'grid.voltage', weight: 2, center: 1, scale: 0.05, clip: [-1, 0] }]);
 * // [{ uid: 'grid.voltage', weight: 2, center: 1, scale: 0.05, clipLow: -1, clipHigh: 0 }]
 * parseComponentSpecs({ 'grid.load': { weight: -1 } });
 * // [{ uid: 'grid.load', weight: -1, center: 0, scale: 1, clipLow: -1, clipHigh: 1 }]
 * ```
 */
export function parseComponentSpecs(raw: unknown): readonly ComponentSpec[] {
  let entries: { field: string; uidFromKey?: string; value: unknown }[];
  if (Array.isArray(raw)) {
    entries = raw.map((value, index) => ({ field: `components[${index}]`, value }));
  } else if (isPlainObject(raw)) {
    entries = Object.entries(raw).map(([uid, value]) => ({
      field: `components.${uid}`,
      uidFromKey: uid,
      value,
    }));
  } else {
    throw new ObjectiveConfigError(
      'components: expected a list of components or a mapping from UID to component',
    );
  }
  if (entries.length === 0) {
    throw new ObjectiveConfigError('components: expected at least one component');
  }
  return deepFreeze(entries.map((entry) => parseEntry(entry.field, entry.value, entry.uidFromKey)));
}

function parseEntry(field: string, value: unknown, uidFromKey?: string): ComponentSpec {
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) {
    const details = parsed.error.issues
      .map((issue) => `${[field, ...issue.path.map(String)].join('.')}: ${issue.message}`)
      .join('; ');
    throw new ObjectiveConfigError(details);
  }
  const spec: RawEntry = parsed.data;
  if (uidFromKey !== undefined && spec.uid !== undefined && spec.uid !== uidFromKey) {
    throw new ObjectiveConfigError(
      `${field}.uid: "${spec.uid}" differs from its key "${uidFromKey}"`,
    );
  }
  const uid = spec.uid ?? uidFromKey;
  if (uid === undefined) throw new ObjectiveConfigError(`${field}.uid: expected a reading UID`);
  const clipLow = oneOf(field, 'clip_low', spec.clip_low, spec.clipLow, spec.clip?.[0]);
  const clipHigh = oneOf(field, 'clip_high', spec.clip_high, spec.clipHigh, spec.clip?.[1]);
  const scale = spec.scale ?? componentDefaults.scale;
  if (scale <= 0) {
    throw new ObjectiveConfigError(`${field}.scale: expected a finite number > 0, got ${scale}`);
  }
  const low = clipLow ?? componentDefaults.clipLow;
  const high = clipHigh ?? componentDefaults.clipHigh;
  if (low > high) {
    throw new ObjectiveConfigError(
      `${field}: clip_low (${low}) must not be greater than clip_high (${high})`,
    );
  }
  return {
    uid,
    weight: spec.weight ?? componentDefaults.weight,
    center: spec.center ?? componentDefaults.center,
    scale,
    clipLow: low,
    clipHigh: high,
  };
}

function oneOf(
  field: string,
  name: string,
  ...spellings: (number | undefined)[]
): number | undefined {
  const given = spellings.filter((value) => value !== undefined);
  if (given.length > 1) {
    throw new ObjectiveConfigError(
      `${field}.${name}: given more than once (as ${name}, its camelCase form, or clip: [low, high])`,
    );
  }
  return given[0];
}
