/**
 * Built-in daily profiles: 24 hourly values (hour 0 = midnight), each
 * normalised to a peak of 1, interpolated linearly between hours and wrapping
 * at midnight. A load `[[Hospital, 0.427]]` draws `0.427 * shape(t)` MW.
 * Shapes are typical weekday curves of their building types (no downloads).
 */
const LOAD_SHAPES = {
  Household: [
    0.42, 0.36, 0.33, 0.32, 0.33, 0.38, 0.52, 0.66, 0.62, 0.55, 0.53, 0.55, 0.6, 0.57, 0.53, 0.54,
    0.6, 0.72, 0.88, 1, 0.97, 0.86, 0.7, 0.53,
  ],
  Office: [
    0.3, 0.29, 0.29, 0.29, 0.3, 0.34, 0.45, 0.68, 0.88, 0.96, 1, 0.99, 0.93, 0.96, 0.98, 0.95, 0.88,
    0.74, 0.55, 0.43, 0.38, 0.35, 0.33, 0.31,
  ],
  Hospital: [
    0.68, 0.66, 0.65, 0.65, 0.66, 0.7, 0.78, 0.87, 0.95, 0.99, 1, 1, 0.98, 0.98, 0.97, 0.95, 0.92,
    0.88, 0.84, 0.8, 0.77, 0.74, 0.71, 0.69,
  ],
  LargeHotel: [
    0.55, 0.5, 0.47, 0.46, 0.47, 0.53, 0.66, 0.8, 0.84, 0.8, 0.76, 0.76, 0.78, 0.77, 0.75, 0.75,
    0.79, 0.87, 0.96, 1, 0.98, 0.9, 0.77, 0.64,
  ],
  Industry: [
    0.55, 0.54, 0.54, 0.54, 0.56, 0.66, 0.85, 0.97, 1, 1, 0.99, 0.96, 0.92, 0.97, 0.98, 0.96, 0.9,
    0.78, 0.68, 0.63, 0.6, 0.58, 0.57, 0.56,
  ],
  Retail: [
    0.25, 0.24, 0.24, 0.24, 0.25, 0.28, 0.36, 0.55, 0.78, 0.92, 0.98, 1, 1, 0.99, 0.98, 0.97, 0.97,
    0.95, 0.88, 0.72, 0.5, 0.36, 0.3, 0.27,
  ],
} as const satisfies Record<string, readonly number[]>;

/** Profile names accepted in `active_mapping`, with their aliases. */
const PROFILE_ALIASES: Readonly<Record<string, keyof typeof LOAD_SHAPES>> = {
  Household: 'Household',
  household: 'Household',
  residential: 'Household',
  Residential: 'Household',
  Office: 'Office',
  Hospital: 'Hospital',
  LargeHotel: 'LargeHotel',
  Industry: 'Industry',
  Retail: 'Retail',
};

/** The load profile names (and aliases) `active_mapping` accepts. */
export const LOAD_PROFILE_NAMES: readonly string[] = Object.keys(PROFILE_ALIASES);

/** The generator profile name `der_params.midasmv.mapping` accepts. */
export const PV_PROFILE_NAME = 'PV';

/** Clear-sky PV: zero outside 06:00-20:00, a sine bell peaking at 13:00. */
const PV_SHAPE: readonly number[] = Array.from({ length: 24 }, (_, hour) => {
  const daylight = Math.sin((Math.PI * (hour - 6)) / 14);
  return hour <= 6 || hour >= 20 ? 0 : Math.round(daylight ** 1.5 * 1000) / 1000;
});

/**
 * The 24 hourly values of a named load profile, or `undefined` for an unknown name.
 *
 * @example
 * ```ts
 * loadProfile('residential')?.[19]; // 1 (the evening peak of Household)
 * loadProfile('Bakery'); // undefined
 * ```
 */
export function loadProfile(name: string): readonly number[] | undefined {
  const canonical = PROFILE_ALIASES[name];
  return canonical === undefined ? undefined : LOAD_SHAPES[canonical];
}

/**
 * The 24 hourly values of the built-in PV profile (peak 1 at 13:00).
 *
 * @example
 * ```ts
 * pvProfile()[13]; // 1
 * pvProfile()[3]; // 0
 * ```
 */
export function pvProfile(): readonly number[] {
  return PV_SHAPE;
}

/**
 * The value of a 24-hour profile at `secondsOfDay`, interpolated linearly
 * between the hourly points and wrapping at midnight.
 *
 * @example
 * ```ts
 * profileAt([0, 1, ...Array(22).fill(0)], 1800); // 0.5 (half way to 01:00)
 * ```
 */
export function profileAt(hourly: readonly number[], secondsOfDay: number): number {
  const hours = (((secondsOfDay / 3600) % 24) + 24) % 24;
  const hour = Math.floor(hours);
  const fraction = hours - hour;
  const here = hourly[hour] ?? 0;
  const next = hourly[(hour + 1) % 24] ?? 0;
  return here + (next - here) * fraction;
}
