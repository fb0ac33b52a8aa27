import { parseRunFile } from '../config/runFile.js';
import { isPlainObject } from '../domain/shared/json.js';
import { parseTerminationConfig, type TerminationConfig } from '../domain/termination/config.js';

/** The termination rules of a stored run, or why there are none. */
export type StoredRules =
  | { readonly rules: TerminationConfig; readonly note: null }
  | { readonly rules: null; readonly note: string };

/**
 * The evaluation-aware termination rules (success thresholds, plateau rules)
 * of a run, read from the run file text stored with it:
 * `run_config.condition.params.agents`. A run without such rules, or whose
 * stored file no longer parses, gets a note saying why instead.
 *
 * @example
 * ```ts
 * storedRules(run.runFile, run.runFilePath).rules?.agents.operator?.success?.threshold; // 0.8
 * storedRules('uid: x\n', 'x.yaml').note;
 * // 'the stored run file x.yaml does not parse: x.yaml: invalid run file, ...'
 * ```
 */
export function storedRules(runFileText: string, runFilePath: string): StoredRules {
  let condition: ReturnType<typeof parseRunFile>['runCondition'];
  try {
    condition = parseRunFile(runFileText, { sourcePath: runFilePath }).runCondition;
  } catch (error) {
    return {
      rules: null,
      note: `the stored run file ${runFilePath} does not parse: ${firstLine(error)}`,
    };
  }
  if (condition === null || !isPlainObject(condition.params.agents)) {
    return {
      rules: null,
      note: 'the run has no evaluation-aware termination rules (run_config.condition.params.agents)',
    };
  }
  try {
    return { rules: parseTerminationConfig(condition.params), note: null };
  } catch (error) {
    return {
      rules: null,
      note: `${condition.yamlPath}.params: ${firstLine(error)}`,
    };
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
