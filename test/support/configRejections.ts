import { expect } from 'vitest';
import { RunFileError } from '../../src/config/runFileError.js';
import { validateRunFileText } from '../../src/config/runFileValidation.js';
import { parseLifecycleScript, type ScriptContext, ScriptError } from '../../src/config/script.js';

/** `[path, message]` of every issue a lifecycle script is rejected with (fails the test when it is accepted). */
export function scriptRejections(raw: unknown, context: ScriptContext): [string, string][] {
  try {
    parseLifecycleScript(raw, context);
  } catch (error) {
    expect(error).toBeInstanceOf(ScriptError);
    return (error as ScriptError).issues.map((issue) => [issue.path, issue.message]);
  }
  throw new Error('expected the script to be rejected');
}

/** `path: message` of every problem `arena validate` finds in a run file's text (fails the test unless a `RunFileError`). */
export async function runFileProblems(
  text: string,
  options: Parameters<typeof validateRunFileText>[1],
): Promise<string[]> {
  const error = await validateRunFileText(text, options).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(RunFileError);
  return (error as RunFileError).issues.map((issue) => `${issue.path}: ${issue.message}`);
}
