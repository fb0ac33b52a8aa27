import { z } from 'zod';
import { definitionBlockSchema } from '../../domain/definition/discoveryOptions.js';
import { GridScenarioError } from './errors.js';
import {
  buildFeeder,
  defaultFeederLines,
  type Feeder,
  generatedFeederLines,
  type LineSpec,
} from './feeder.js';
import { LOAD_PROFILE_NAMES, loadProfile, PV_PROFILE_NAME } from './profiles.js';

/** Defaults that complete a partial MIDAS-shaped scenario (documented in `GridEnvironment`). */
export const GRID_DEFAULTS = {
  stepSize: 900,
  end: 86_400,
  nominalKv: 20,
  slackVmPu: 1,
  slackBus: 0,
  noiseStd: 0.02,
  voltageBand: [0.95, 1.05] as const,
  reactivePowerRatio: 0.3,
  loadPowerFactor: 0.95,
} as const;

const busKey = z.string().regex(/^\d+$/, 'expected a bus number such as "3"');
const mappingOf = <Entry extends z.ZodType>(entry: Entry) => z.record(busKey, z.array(entry));
const loadEntry = z.tuple([z.string(), z.number().min(0)]);
const pvEntry = z.tuple([z.literal(PV_PROFILE_NAME), z.number().min(0)]);
const busNumber = z.int().min(0);

const gridTopologySchema = z
  .looseObject({
    v_nom_kv: z.number().positive().optional(),
    slack_vm_pu: z.number().min(0.5).max(1.5).optional(),
    slack_bus: busNumber.optional(),
    lines: z
      .array(
        z.tuple([
          busNumber,
          busNumber,
          z.number().min(0),
          z.number().min(0),
          z.number().positive(),
        ]),
      )
      .min(1)
      .optional(),
    buses: z.int().min(2).max(1_000_000).optional(),
  })
  .refine((grid) => grid.lines === undefined || grid.buses === undefined, {
    message: 'give either lines or buses, not both',
  });

const scenarioSchema = z.looseObject({
  step_size: z.number().positive().optional(),
  end: z.number().positive().optional(),
  comdata_params: z
    .looseObject({
      midasmv: z.looseObject({ active_mapping: mappingOf(loadEntry).optional() }).optional(),
    })
    .optional(),
  der_params: z
    .looseObject({ midasmv: z.looseObject({ mapping: mappingOf(pvEntry).optional() }).optional() })
    .optional(),
  grid_params: gridTopologySchema.optional(),
});

/**
 * The zod schema of a grid environment's `params` (documented in
 * `GridEnvironment`), its `definition` block included: `parseGridParams`
 * reads params with it and `arena validate` checks them with it.
 *
 * @example
 * ```ts
 * gridParamsSchema.safeParse({ noise_std: 2 }).error?.issues[0]?.path; // ['noise_std']
 * ```
 */
export const gridParamsSchema = z.strictObject({
  scenario: scenarioSchema.optional(),
  definition: definitionBlockSchema.nullable().optional(),
  noise_std: z.number().min(0).max(0.5).optional(),
  voltage_band: z
    .tuple([z.number().positive(), z.number().positive()])
    .refine(([low, high]) => low < high, { message: 'expected [low, high] with low < high' })
    .optional(),
  reactive_power_ratio: z.number().min(0).max(1).optional(),
  load_power_factor: z.number().gt(0).max(1).optional(),
});

/** A load at a bus: `peakMw * profile(t)` MW at the configured power factor. */
export interface GridLoad {
  readonly busId: number;
  readonly bus: number;
  readonly profileName: string;
  readonly profile: readonly number[];
  readonly peakMw: number;
}

/** A PV unit: `peakMw * pvProfile(t)` MW available; `label` is its UID suffix. */
export interface GridPvUnit {
  readonly busId: number;
  readonly bus: number;
  readonly label: string;
  readonly peakMw: number;
}

/** Everything `GridEnvironment.start` needs to build the world. */
export interface GridModel {
  readonly feeder: Feeder;
  readonly loads: readonly GridLoad[];
  readonly pvUnits: readonly GridPvUnit[];
  readonly stepSize: number;
  readonly end: number;
  readonly nominalKv: number;
  readonly slackVmPu: number;
  readonly noiseStd: number;
  readonly voltageBand: readonly [number, number];
  readonly reactivePowerRatio: number;
  readonly loadPowerFactor: number;
}

/**
 * Read a grid environment's `params` (with its MIDAS-shaped `scenario`) into a
 * model, filling what is missing with `GRID_DEFAULTS` and the default 7-bus
 * feeder. Never mutates `params`.
 *
 * @throws GridScenarioError naming the pointer of the first bad field.
 * @example
 * ```ts
 * const model = parseGridParams({ scenario: {
 *   comdata_params: { midasmv: { active_mapping: { 3: [['Hospital', 0.427]] } } },
 * } });
 * model.feeder.busIds.length; // 7
 * model.loads[0]; // { busId: 3, bus: 3, profileName: 'Hospital', peakMw: 0.427, profile: [...] }
 * ```
 */
export function parseGridParams(params: unknown): GridModel {
  const parsed = gridParamsSchema.safeParse(params);
  if (!parsed.success) throw new GridScenarioError(describeIssue(parsed.error.issues[0]!));
  const scenario = parsed.data.scenario ?? {};
  const grid = scenario.grid_params ?? {};
  const slackBus = grid.slack_bus ?? GRID_DEFAULTS.slackBus;
  const lines: LineSpec[] =
    grid.lines?.map(([from, to, rOhm, xOhm, maxMva]) => ({ from, to, rOhm, xOhm, maxMva })) ??
    (grid.buses === undefined ? defaultFeederLines() : generatedFeederLines(grid.buses));
  const feeder = buildFeeder(lines, slackBus);

  const busOf = (pointer: string, key: string): number => {
    const busId = Number(key);
    const bus = feeder.indexOfBus.get(busId);
    if (bus === undefined) {
      throw new GridScenarioError(
        `${pointer}: bus ${key} is not on the feeder (buses ${feeder.busIds.join(', ')})`,
      );
    }
    if (bus === 0) throw new GridScenarioError(`${pointer}: bus ${key} is the slack bus`);
    return bus;
  };

  const loadMapping = scenario.comdata_params?.midasmv?.active_mapping ?? {};
  const loads = Object.entries(loadMapping).flatMap(([key, entries]) => {
    const pointer = `/scenario/comdata_params/midasmv/active_mapping/${key}`;
    const bus = busOf(pointer, key);
    return entries.map(([profileName, peakMw], index) => {
      const profile = loadProfile(profileName);
      if (profile === undefined) {
        throw new GridScenarioError(
          `${pointer}/${index}/0: unknown load profile '${profileName}', expected one of ${LOAD_PROFILE_NAMES.join(', ')}`,
        );
      }
      return { busId: Number(key), bus, profileName, profile, peakMw };
    });
  });

  const pvMapping = scenario.der_params?.midasmv?.mapping ?? {};
  const pvUnits = Object.entries(pvMapping).flatMap(([key, entries]) => {
    const bus = busOf(`/scenario/der_params/midasmv/mapping/${key}`, key);
    return entries.map(([, peakMw], index) => ({
      busId: Number(key),
      bus,
      label: index === 0 ? key : `${key}.${index}`,
      peakMw,
    }));
  });

  const stepSize = scenario.step_size ?? GRID_DEFAULTS.stepSize;
  const end = scenario.end ?? GRID_DEFAULTS.end;
  if (end / stepSize > 10_000_000) {
    throw new GridScenarioError(
      `/scenario/end: expected at most 10,000,000 steps of step_size ${stepSize}, got end ${end}`,
    );
  }
  return {
    feeder,
    loads,
    pvUnits,
    stepSize,
    end,
    nominalKv: grid.v_nom_kv ?? GRID_DEFAULTS.nominalKv,
    slackVmPu: grid.slack_vm_pu ?? GRID_DEFAULTS.slackVmPu,
    noiseStd: parsed.data.noise_std ?? GRID_DEFAULTS.noiseStd,
    voltageBand: parsed.data.voltage_band ?? GRID_DEFAULTS.voltageBand,
    reactivePowerRatio: parsed.data.reactive_power_ratio ?? GRID_DEFAULTS.reactivePowerRatio,
    loadPowerFactor: parsed.data.load_power_factor ?? GRID_DEFAULTS.loadPowerFactor,
  };
}

function pointerOf(path: readonly PropertyKey[]): string {
  const escaped = path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1'));
  return escaped.length === 0 ? 'params' : `/${escaped.join('/')}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key') {
    return `${pointerOf(issue.path)}: expected bus numbers such as "3" as keys`;
  }
  if (issue.code === 'unrecognized_keys') {
    const known =
      issue.path.length === 0 ? ` (known: ${Object.keys(gridParamsSchema.shape).join(', ')})` : '';
    return `${pointerOf(issue.path)}: unknown key ${issue.keys.map((key) => `"${key}"`).join(', ')}${known}`;
  }
  return `${pointerOf(issue.path)}: ${issue.message}`;
}
