import { SweepSearchError } from '../domain/sweep/errors.js';
import { expandTrials } from '../domain/sweep/expandTrials.js';
import type { SweepSpec, TrialParameters } from '../domain/sweep/types.js';
import type { ConfigIssue } from './configIssue.js';
import { readRunFileText } from './runFile.js';
import { RunFileError } from './runFileError.js';
import { type RunFileValidationOptions, validateRunFileText } from './runFileValidation.js';
import type { RunSpec } from './runSpec.js';
import { SweepFileError } from './sweepFile.js';
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
  options: RunFileValidationOptions,
): Promise<PreparedTrial[]> {
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
  if (issues.length > 0) throw new SweepFileError(sweepFilePath, issues);
  return prepared;
}
