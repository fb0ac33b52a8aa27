import { expect } from 'vitest';
import { stringify } from 'yaml';
import type { ConfigIssue } from '../../../src/config/configIssue.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { RunFileError } from '../../../src/config/runFileError.js';

/** Run-file data as tests write it: any YAML shape, including wrong ones. */
// biome-ignore lint/suspicious/noExplicitAny: tests reach into and break arbitrary YAML data.
export type RunData = Record<string, any>;

/** A complete, valid two-phase run file as plain data; tests mutate a fresh copy. */
export function validRun(): RunData {
  return {
    uid: 'hosting-capacity',
    seed: 42,
    version: 1,
    schedule: [
      {
        train: {
          environments: [
            {
              environment: {
                uid: 'midas',
                name: 'arena:GridEnvironment',
                params: { scenario: { step_size: 900 } },
              },
            },
          ],
          agents: [
            { name: 'meta_agent', brain: { name: 'arena:MetaBanditBrain', params: {} } },
            {
              name: 'operating_agent',
              brain: { name: 'arena:RandomBrain' },
              sensors: ['midas.v'],
              actuators: ['midas.p'],
            },
          ],
          simulation: {
            name: 'arena:ScriptedSimulationController',
            params: {
              script: {
                episode_start: [{ agents: ['meta_agent'], environments: ['midas'] }],
                loop: [{ agents: ['operating_agent'], environments: ['midas'] }],
                episode_end: [],
              },
            },
            conditions: [{ name: 'arena:VanillaSimControllerTerminationCondition', params: {} }],
          },
          phase_config: {
            mode: 'train',
            worker: 1,
            episodes: 20,
            evaluate_every: 2,
            max_steps: 96,
          },
        },
      },
      { test: { phase_config: { mode: 'test', episodes: 1 } } },
    ],
    run_config: {
      condition: {
        name: 'arena:AgentEvaluationObjectiveTerminationCondition',
        params: { agents: {} },
      },
    },
  };
}

/** The first phase body of a `validRun()` copy. */
export function trainPhase(run: RunData): RunData {
  return run.schedule[0].train;
}

/** Parse plain data written out as YAML. */
export function parseData(data: unknown) {
  return parseRunFile(stringify(data), { sourcePath: 'test.yaml' });
}

/** The issues a run file is rejected with (fails the test when it is accepted). */
export function issuesOf(input: unknown): readonly ConfigIssue[] {
  const text = typeof input === 'string' ? input : stringify(input);
  try {
    parseRunFile(text, { sourcePath: 'test.yaml' });
  } catch (error) {
    expect(error).toBeInstanceOf(RunFileError);
    return (error as RunFileError).issues;
  }
  throw new Error('expected the run file to be rejected');
}

/** `path: message` for each issue, the way a test compares them. */
export function pathsOf(issues: readonly ConfigIssue[]): string[] {
  return issues.map((issue) => issue.path);
}
