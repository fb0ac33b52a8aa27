import path from 'node:path';
import { z } from 'zod';
import { JsonPointerError } from '../domain/definition/errors.js';
import { parsePointer } from '../domain/definition/pointer.js';
import { isPlainObject, type JsonValue } from '../domain/shared/json.js';
import type { SweepParameter, SweepPruner, SweepSpec } from '../domain/sweep/types.js';
import { type ConfigIssue, formatYamlPath, type PathSegment } from './configIssue.js';
import { readInputText } from './inputFile.js';
import { FileIssuesError } from './runFileError.js';
import { locateRunFileIssues } from './validateRunFile.js';
import { readYamlSource } from './yamlSource.js';
import { expecting, issuesFromZod } from './zodIssues.js';

/**
 * A sweep file that cannot be used: every problem at once, each naming its
 * YAML path (`pruner.successive_halving.eta`), line and what was expected.
 *
 * @example
 * ```ts
 * // SweepFileError: sweep.yaml: invalid sweep file, 1 problem:
 * //   pruner.successive_halving.eta: expected an integer of at least 2, got number 1 (line 14, column 45)
 * ```
 */
export class SweepFileError extends FileIssuesError {
  constructor(sourcePath: string, issues: readonly ConfigIssue[], options?: { cause?: unknown }) {
    super('SWEEP_FILE', 'invalid sweep file', sourcePath, issues, options);
  }
}

const finite = z.number({ error: expecting('a finite number') }).finite();
const positiveInteger = z
  .number({ error: expecting('a positive integer') })
  .int({ error: expecting('a positive integer') })
  .min(1, { error: expecting('a positive integer') });
const rungs = z
  .array(positiveInteger, { error: expecting('a list of checkpoint counts') })
  .min(1, { error: expecting('at least one rung') })
  .refine((list) => list.every((rung, index) => index === 0 || rung > (list[index - 1] ?? 0)), {
    error: 'expected strictly increasing checkpoint counts',
  });
const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    finite,
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

const parameterName = z
  .string({ error: expecting('a short name for the leaderboard') })
  .min(1)
  .optional();
const listed = z.strictObject({
  name: parameterName,
  pointer: z.string({ error: expecting('a JSON pointer into the run file, e.g. /seed') }),
  values: z
    .array(jsonValue, { error: expecting('a list of values') })
    .min(1, { error: expecting('at least one value') }),
});
const ranged = z.strictObject({
  name: parameterName,
  pointer: z.string({ error: expecting('a JSON pointer into the run file, e.g. /seed') }),
  low: finite,
  high: finite,
  integer: z.boolean({ error: expecting('true or false') }).optional(),
  log: z.boolean({ error: expecting('true or false') }).optional(),
});
const objective = z
  .strictObject({
    metric: z.string({ error: expecting('the name of an evaluation metric, e.g. objective') }),
    agent: z.string({ error: expecting('an agent name') }).optional(),
    weights: z.record(z.string(), finite, { error: expecting('agent name -> weight') }).optional(),
    direction: z.enum(['maximize', 'minimize'], { error: expecting('maximize or minimize') }),
  })
  .refine((value) => (value.agent === undefined) !== (value.weights === undefined), {
    error: 'expected exactly one of agent or weights',
  });

const sweepSchema = z.strictObject({
  sweep: z.string({ error: expecting("the sweep's name") }).min(1),
  run_file: z.string({ error: expecting('the base run file, relative to the sweep file') }).min(1),
  seed: z
    .number({ error: expecting('a non-negative integer') })
    .int({ error: expecting('a non-negative integer') })
    .min(0, { error: expecting('a non-negative integer') })
    .optional(),
  parameters: z
    .array(
      // chosen by its keys, so a problem is told at its field (`low`), not as a mismatch of both shapes
      z.unknown().pipe(
        z.custom<unknown>().transform((value, context) => {
          const shape = isPlainObject(value) && 'values' in value ? listed : ranged;
          const parsed = shape.safeParse(value);
          if (parsed.success) return parsed.data;
          for (const issue of parsed.error.issues)
            context.addIssue({ ...issue, input: value } as never);
          return z.NEVER;
        }),
      ) as unknown as z.ZodType<z.infer<typeof listed> | z.infer<typeof ranged>>,
      {
        error: expecting('a list of parameters'),
      },
    )
    .min(1, { error: expecting('at least one parameter') }),
  search: z
    .union(
      [z.literal('grid'), z.strictObject({ random: z.strictObject({ trials: positiveInteger }) })],
      { error: 'expected grid or { random: { trials: N } }' },
    )
    .optional(),
  objective: objective.optional(),
  objectives: z
    .array(objective)
    .min(1, { error: expecting('at least one objective') })
    .optional(),
  pruner: z
    .union(
      [
        z.strictObject({
          successive_halving: z.strictObject({
            rungs,
            eta: z
              .number({ error: expecting('an integer of at least 2') })
              .int({ error: expecting('an integer of at least 2') })
              .min(2, { error: expecting('an integer of at least 2') }),
          }),
        }),
        z.strictObject({
          median: z.strictObject({
            rungs,
            window: positiveInteger.optional(),
            min_trials: positiveInteger.optional(),
          }),
        }),
      ],
      {
        error:
          'expected { successive_halving: { rungs, eta } } or { median: { rungs, window, min_trials } }',
      },
    )
    .optional(),
});

type SweepDocument = z.infer<typeof sweepSchema>;

/**
 * Parse a sweep file: every problem reported at once as a `SweepFileError`
 * (YAML path, line, what was expected). The base run file is resolved
 * against the sweep file's folder; it is read and checked by the caller.
 *
 * @example
 * ```ts
 * const spec = parseSweepFile(text, { path: 'examples/sweep.yaml' });
 * spec.pruner; // { kind: 'successive_halving', rungs: [3, 6], eta: 2 }
 * ```
 */
export function parseSweepFile(text: string, options: { readonly path: string }): SweepSpec {
  const source = readYamlSource(text);
  const fail = (issues: ConfigIssue[]): never => {
    // in document order, as a run file's problems are
    throw new SweepFileError(options.path, locateRunFileIssues(text, issues));
  };
  if (source.syntaxIssues.length > 0) fail([...source.syntaxIssues]);
  const at = (segments: readonly PathSegment[], message: string): ConfigIssue => ({
    path: formatYamlPath(segments),
    message,
    location: source.locate(segments),
  });
  const parsed = sweepSchema.safeParse(source.value);
  if (!parsed.success) {
    fail(
      issuesFromZod(parsed.error, sweepSchema).map((issue) => at(issue.segments, issue.message)),
    );
  }
  const document = parsed.data as SweepDocument;
  const issues: ConfigIssue[] = [];
  const search = document.search ?? 'grid';
  const pointers = new Set<string>();
  const parameters: SweepParameter[] = document.parameters.map((parameter, index) => {
    try {
      parsePointer(parameter.pointer);
    } catch (error) {
      if (!(error instanceof JsonPointerError)) throw error;
      issues.push(
        at(['parameters', index, 'pointer'], `expected a JSON pointer: ${error.message}`),
      );
    }
    if (pointers.has(parameter.pointer)) {
      issues.push(at(['parameters', index, 'pointer'], `${parameter.pointer} is varied twice`));
    }
    pointers.add(parameter.pointer);
    if ('values' in parameter)
      return {
        kind: 'values',
        pointer: parameter.pointer,
        values: parameter.values,
        ...(parameter.name !== undefined ? { name: parameter.name } : {}),
      };
    if (parameter.low >= parameter.high) {
      issues.push(
        at(
          ['parameters', index, 'high'],
          `expected more than low (${parameter.low}), got ${parameter.high}`,
        ),
      );
    }
    if (parameter.log === true && parameter.low <= 0) {
      issues.push(at(['parameters', index, 'low'], 'expected a positive number for a log range'));
    }
    if (search === 'grid') {
      issues.push(
        at(
          ['parameters', index],
          'a range needs a random search (search: { random: { trials: N } }); a grid needs listed values',
        ),
      );
    }
    return {
      kind: 'range',
      pointer: parameter.pointer,
      ...(parameter.name !== undefined ? { name: parameter.name } : {}),
      low: parameter.low,
      high: parameter.high,
      integer: parameter.integer === true,
      log: parameter.log === true,
    };
  });
  if ((document.objective === undefined) === (document.objectives === undefined)) {
    issues.push(at([], 'expected exactly one of objective or objectives'));
  }
  if (issues.length > 0) fail(issues);
  const written = document.objectives ?? (document.objective ? [document.objective] : []);
  const objectives = written.map((each) => ({
    metric: each.metric,
    weights: each.weights ?? { [each.agent as string]: 1 },
    direction: each.direction,
  }));
  const objectiveSources = written.map((each, index) => {
    const at: PathSegment[] =
      document.objectives === undefined ? ['objective'] : ['objectives', index];
    const agents = Object.keys(each.weights ?? { [each.agent as string]: 1 });
    return {
      metric: formatYamlPath([...at, 'metric']),
      agents: Object.fromEntries(
        agents.map((agent) => [
          agent,
          formatYamlPath(each.weights === undefined ? [...at, 'agent'] : [...at, 'weights', agent]),
        ]),
      ),
    };
  });
  return {
    uid: document.sweep,
    seed: document.seed ?? 0,
    runFile: path.resolve(path.dirname(path.resolve(options.path)), document.run_file),
    parameters,
    search: search === 'grid' ? { kind: 'grid' } : { kind: 'random', trials: search.random.trials },
    objectives,
    pruner: prunerOf(document.pruner),
    objectiveSources,
  };
}

/**
 * Read and parse a sweep file (`parseSweepFile`), with its text.
 *
 * @example
 * ```ts
 * const { spec, text } = loadSweepFile('examples/sweep.yaml');
 * spec.uid; // 'plateau-sizes'
 * ```
 */
export function loadSweepFile(filePath: string): { spec: SweepSpec; text: string } {
  const text = readInputText(filePath);
  return { spec: parseSweepFile(text, { path: filePath }), text };
}

/** Whether a YAML text is a sweep file (a top-level `sweep:` key) rather than a run file. */
export function isSweepFileText(text: string): boolean {
  return /^sweep\s*:/m.test(text);
}

function prunerOf(pruner: SweepDocument['pruner']): SweepPruner {
  if (pruner === undefined) return { kind: 'none', rungs: [] };
  if ('successive_halving' in pruner) {
    return { kind: 'successive_halving', ...pruner.successive_halving };
  }
  return {
    kind: 'median',
    rungs: pruner.median.rungs,
    window: pruner.median.window ?? 1,
    minTrials: pruner.median.min_trials ?? 1,
  };
}
