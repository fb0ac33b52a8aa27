import path from 'node:path';
import { countTrials, DEFAULT_MAX_TRIALS } from '../domain/sweep/countTrials.js';
import { SweepSearchError } from '../domain/sweep/errors.js';
import { expandTrials } from '../domain/sweep/expandTrials.js';
import type { SweepSpec, TrialParameters } from '../domain/sweep/types.js';
import type { ConfigIssue } from './configIssue.js';
import { readRunFileText } from './runFile.js';
import { RunFileError } from './runFileError.js';
import { type RunFileValidationOptions, validateRunFileText } from './runFileValidation.js';
import type { RunSpec } from './runSpec.js';
import { SweepFileError } from './sweepFile.js';
import { objectiveIssues } from './sweepObjectives.js';
import { trialRunFileText } from './trialRunFile.js';

/** One trial, ready to run: what it varies and its run file, checked as `arena run` checks one. */
export interface PreparedTrial {
  readonly parameters: TrialParameters;
  readonly text: string;
  readonly spec: RunSpec;
}

/**
 * Every trial of a sweep, each run file made from the base run file and
 * checked with `arena validate`'s checks (what `validate` accepts, `sweep`
 * runs). Every trial's problems are reported at once as a `SweepFileError`:
 * `trials[2] (/seed = 7)`, then the run file's root cause.
 *
 * @example
 * ```ts
 * const trials = await prepareSweepTrials(spec, 'examples/sweep.yaml', { builtins: builtinComponents });
 * trials.length; // 8
 * ```
 */
export async function prepareSweepTrials(
  spec: SweepSpec,
  sweepFilePath: string,
  options: RunFileValidationOptions & {
    /** The most trials the sweep may make (default 10,000): counted before any is expanded. */
    readonly maxTrials?: number;
  },
): Promise<PreparedTrial[]> {
  const maxTrials = options.maxTrials ?? DEFAULT_MAX_TRIALS;
  const count = countTrials(spec);
  if (count > maxTrials) {
    throw new SweepFileError(sweepFilePath, [
      {
        path: spec.search.kind === 'grid' ? 'parameters' : 'search.random.trials',
        message: `the sweep makes ${trialCountText(spec, count)}, more than --max-trials ${maxTrials}: narrow it, or raise --max-trials`,
        location: null,
      },
    ]);
  }
  let baseText: string;
  try {
    baseText = await readRunFileText(spec.runFile);
  } catch (error) {
    if (!(error instanceof RunFileError)) throw error;
    throw new SweepFileError(sweepFilePath, [
      { path: 'run_file', message: error.issues[0]?.message ?? error.message, location: null },
    ]);
  }
  let trials: TrialParameters[];
  try {
    trials = expandTrials(spec);
  } catch (error) {
    if (!(error instanceof SweepSearchError)) throw error;
    throw new SweepFileError(sweepFilePath, [
      { path: 'search', message: error.message, location: null },
    ]);
  }
  const issues: ConfigIssue[] = [];
  const prepared: PreparedTrial[] = [];
  for (const [index, parameters] of trials.entries()) {
    const text = trialRunFileText(baseText, parameters, { path: sweepFilePath });
    try {
      const trialSpec = await validateRunFileText(text, { ...options, sourcePath: spec.runFile });
      prepared.push({ parameters, text, spec: trialSpec });
    } catch (error) {
      if (!(error instanceof RunFileError)) throw error;
      const values = parameters.map(
        ({ pointer, value }) => `${pointer} = ${JSON.stringify(value)}`,
      );
      for (const issue of error.issues) {
        issues.push({
          path: `trials[${index}]`,
          message: `(${values.join(', ')}) makes an invalid run file: ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`,
          location: null,
        });
      }
    }
  }
  const first = prepared[0];
  if (issues.length === 0 && first !== undefined) {
    issues.push(...objectiveIssues(spec, first.spec, path.basename(spec.runFile)));
  }
  if (issues.length > 0) throw new SweepFileError(sweepFilePath, issues);
  return prepared;
}

/** `1000000 trials (1000 × 1000 values)` for a grid, `5000 trials` for a random search. */
function trialCountText(spec: SweepSpec, count: number): string {
  const trials = Number.isFinite(count) ? `${count} trials` : 'more than 2^53 trials';
  if (spec.search.kind !== 'grid') return trials;
  const axes = spec.parameters.map((parameter) =>
    parameter.kind === 'values' ? parameter.values.length : 1,
  );
  return `${trials} (${axes.join(' × ')} values)`;
}
