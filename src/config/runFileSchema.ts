import { z } from 'zod';
import { lifecycleScriptSchema, partialLifecycleScriptSchema } from './scriptSchema.js';
import { expecting } from './zodIssues.js';

/**
 * The zod schema of an arena run file, shaped like palaestrAI's run files.
 *
 * The first phase of `schedule` must be complete; each later phase inherits
 * everything from the phase before it and declares only what it overrides, so
 * its schema has every key optional and no defaults. Unknown keys are errors
 * everywhere, and a boolean is never accepted as a number.
 */

const COMPONENT_NAME =
  /^(arena:[A-Za-z_][A-Za-z0-9_]*|code:[A-Za-z_$][A-Za-z0-9_$]*|\.{1,2}\/[^:]+:[A-Za-z_$][A-Za-z0-9_$]*|nats:[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)$/;
const COMPONENT_EXPECTED =
  'a component name: arena:BuiltinName, code:Name (passed to runExperiment in code), ./path.js:ExportName or nats:<service> (served by arena serve)';

const componentName = z
  .string({ error: expecting(COMPONENT_EXPECTED) })
  .regex(COMPONENT_NAME, { error: expecting(COMPONENT_EXPECTED) })
  .describe(
    'arena:BuiltinName, code:Name (a component the host app passes to runExperiment), ./path.js:ExportName relative to the run file, or nats:<service>, a component hosted by `arena serve --as <service>`.',
  );

const params = z
  .record(z.string(), z.json(), { error: expecting('a params mapping') })
  .describe('Free-form parameters handed to the component.');

const nonEmptyString = (what: string) =>
  z.string({ error: expecting(what) }).min(1, { error: expecting(what) });

const positiveInteger = (what: string) =>
  z.int({ error: expecting(`${what} (a positive integer)`) }).min(1, {
    error: expecting(`${what} (a positive integer)`),
  });

const INSTANCE_KEY_EXPECTED = 'instance keys as arena serve prints them (MCowBQYDK2VwAyEA…)';
const instanceKey = z
  .string({ error: expecting(`an instance key as arena serve prints it (MCowBQYDK2VwAyEA…)`) })
  .regex(/^MCowBQYDK2VwAyEA[A-Za-z0-9+/]{43}=$/, {
    error: expecting('an instance key as arena serve prints it (MCowBQYDK2VwAyEA…, 60 characters)'),
  });

/** A component with its parameters: `{ name, params }`. */
export const componentRefSchema = z.strictObject(
  { name: componentName, params: params.default({}) },
  { error: expecting('a component mapping with name and params') },
);

const environmentEntry = z.strictObject(
  {
    environment: z.strictObject(
      {
        uid: nonEmptyString('an environment UID (a non-empty string)').describe(
          'Logical environment UID; the script names environments by it.',
        ),
        name: componentName,
        params: params.default({}),
      },
      { error: expecting('an environment mapping with uid, name and params') },
    ),
  },
  { error: expecting('a list item with one key, environment') },
);

const uidList = (what: string) =>
  z.array(nonEmptyString(`a ${what} UID (a non-empty string)`), {
    error: expecting(`a list of ${what} UIDs`),
  });

const agentEntry = z.strictObject(
  {
    name: nonEmptyString('an agent name (a non-empty string)').describe(
      'Agent name; the script names agents by it.',
    ),
    brain: componentRefSchema,
    muscle: componentRefSchema.default({ name: 'arena:DefaultMuscle', params: {} }),
    objective: componentRefSchema.default({ name: 'arena:SumObjective', params: {} }),
    sensors: uidList('sensor').default([]),
    actuators: uidList('actuator').default([]),
  },
  { error: expecting('an agent mapping with name, brain, muscle, objective, sensors, actuators') },
);

const SIMULATION_CONTROLLER = 'arena:ScriptedSimulationController';
const simulationName = z
  .literal(SIMULATION_CONTROLLER, { error: expecting(SIMULATION_CONTROLLER) })
  .describe('The simulation controller; arena has one.');
const conditions = z
  .array(componentRefSchema, { error: expecting('a list of termination conditions') })
  .describe('Simulation termination conditions.');
const simulationError = expecting('a simulation mapping with name, params and conditions');
const simulationParamsError = expecting('a params mapping with script');

const mode = z
  .enum(['train', 'test'], { error: expecting('train or test') })
  .describe('train learns; test does not.');
const worker = positiveInteger('the number of workers');
const episodes = positiveInteger('an episode cap')
  .nullable()
  .describe('Episode cap; null runs until the termination rules stop the phase.');
const evaluateEvery = positiveInteger('an evaluation interval in training episodes')
  .nullable()
  .describe('Run an evaluation episode every N training episodes; null never evaluates.');
const maxSteps = positiveInteger('a step limit per episode');
const phaseConfigError = expecting('a phase_config mapping');

const environments = z
  .array(environmentEntry, { error: expecting('a non-empty list of environments') })
  .min(1, { error: expecting('a non-empty list of environments') });
const agents = z
  .array(agentEntry, { error: expecting('a non-empty list of agents') })
  .min(1, { error: expecting('a non-empty list of agents') });

/** A complete phase: the first phase of a schedule, or any phase after inheritance. */
export const completePhaseSchema = z.strictObject(
  {
    environments,
    agents,
    simulation: z.strictObject(
      {
        name: simulationName,
        params: z.strictObject({ script: lifecycleScriptSchema }, { error: simulationParamsError }),
        conditions: conditions.default([]),
      },
      { error: simulationError },
    ),
    phase_config: z.strictObject(
      {
        mode,
        worker: worker.default(1),
        episodes: episodes.default(null),
        evaluate_every: evaluateEvery.default(null),
        max_steps: maxSteps,
      },
      { error: phaseConfigError },
    ),
  },
  { error: expecting('a phase mapping with environments, agents, simulation, phase_config') },
);

/** A later phase: only what it overrides (mappings deep-merge; lists and scalars replace). */
export const partialPhaseSchema = z.strictObject(
  {
    environments: environments.optional(),
    agents: agents.optional(),
    simulation: z
      .strictObject(
        {
          name: simulationName.optional(),
          params: z
            .strictObject(
              { script: partialLifecycleScriptSchema.optional() },
              { error: simulationParamsError },
            )
            .optional(),
          conditions: conditions.optional(),
        },
        { error: simulationError },
      )
      .optional(),
    phase_config: z
      .strictObject(
        {
          mode: mode.optional(),
          worker: worker.optional(),
          episodes: episodes.optional(),
          evaluate_every: evaluateEvery.optional(),
          max_steps: maxSteps.optional(),
        },
        { error: phaseConfigError },
      )
      .optional(),
  },
  { error: expecting('a phase mapping (later phases declare only what they override)') },
);

const PHASE_ENTRY_EXPECTED = 'a mapping with one key, the phase name';

function phaseEntry(phase: z.ZodType, description: string) {
  return z
    .record(z.string(), phase, { error: expecting(PHASE_ENTRY_EXPECTED) })
    .meta({ minProperties: 1, maxProperties: 1, description });
}

/**
 * The whole run file as written in YAML.
 *
 * @example
 * ```ts
 * runFileSchema.safeParse(parseYamlWithKeyOrder(readFileSync('examples/hosting-capacity.yaml', 'utf8')).value).success; // true
 * ```
 */
export const runFileSchema = z
  .strictObject(
    {
      uid: nonEmptyString('a run file uid (a non-empty string)').describe('Run file UID.'),
      seed: z
        .int({ error: expecting('a non-negative integer') })
        .min(0, { error: expecting('a non-negative integer') })
        .describe('Seed of every random choice in the run.'),
      version: z
        .literal(1, { error: expecting('1 (the arena run-file version)') })
        .describe('arena run-file version.'),
      schedule: z
        .tuple(
          [phaseEntry(completePhaseSchema, 'The first phase: complete.')],
          phaseEntry(partialPhaseSchema, 'A later phase: inherits, then overrides.'),
          { error: expecting('a non-empty list of phases') },
        )
        .describe('Ordered phases, each a one-key mapping {phaseName: phase}.'),
      run_config: z
        .strictObject(
          {
            condition: componentRefSchema.optional(),
            trust_services: z
              .record(
                z.string().regex(/^[A-Za-z0-9_-]+$/, {
                  error: expecting('a service name (letters, digits, - and _)'),
                }),
                z
                  .array(instanceKey, { error: expecting(`a list of ${INSTANCE_KEY_EXPECTED}`) })
                  .min(1, { error: expecting(`a list of ${INSTANCE_KEY_EXPECTED}`) }),
                { error: expecting('a mapping of service names to lists of instance keys') },
              )
              .optional()
              .describe(
                'Instance keys trusted per nats:<service> (as arena serve prints them): a service named here is used only through an instance holding one of its keys.',
              ),
          },
          { error: expecting('a run_config mapping with condition, trust_services') },
        )
        .optional(),
    },
    { error: expecting('a run file mapping with uid, seed, version, schedule') },
  )
  .describe('An arena run file.');

/** The run file as written, after zod has accepted its structure. */
export type RunFileDocument = z.output<typeof runFileSchema>;
/** One complete phase as written in YAML, after inheritance. */
export type CompletePhaseDocument = z.output<typeof completePhaseSchema>;
