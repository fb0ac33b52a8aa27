import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinComponents } from '../../../src/builtins/index.js';
import {
  ComponentResolutionError,
  remoteComponentProblem,
  remoteServiceOf,
  resolveComponent,
  userModuleOf,
} from '../../../src/config/components.js';
import { validateRunFileText } from '../../../src/config/runFileValidation.js';
import type { ComponentRef } from '../../../src/config/runSpec.js';
import { repoRoot } from '../../support/cli.js';
import { runFileProblems } from '../../support/configRejections.js';

const examples = path.join(repoRoot, 'examples');
const environmentPath = 'schedule[0].train.environments[0].environment';
const ref = (name: string, yamlPath = environmentPath): ComponentRef => ({
  name,
  params: {},
  yamlPath,
});
const customText = readFileSync(path.join(examples, 'custom-environment.yaml'), 'utf8');

describe('nats:<service> component names', () => {
  it('resolves to what the remote hook makes, given the service', async () => {
    const made: string[] = [];
    const factory = () => 'adapter';
    const resolved = await resolveComponent(ref('nats:grid.sim-2'), {
      baseDir: examples,
      builtins: new Map(),
      remote: (component, service) => {
        made.push(`${component.yamlPath} ${service}`);
        return factory;
      },
    });
    expect(resolved).toBe(factory);
    expect(made).toEqual([`${environmentPath} grid.sim-2`]);
  });

  it('without a remote hook names the missing --nats at the YAML path', async () => {
    const error = await resolveComponent(ref('nats:grid'), {
      baseDir: examples,
      builtins: new Map(),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComponentResolutionError);
    expect((error as Error).message).toBe(
      `${environmentPath}: nats:grid is a remote component: name the NATS server with --nats <url> (or ARENA_NATS)`,
    );
  });

  it('takes letters, digits, _ and - in dot-separated words, nothing else', () => {
    expect(remoteServiceOf('nats:a_b-1.c')).toEqual({ service: 'a_b-1.c' });
    for (const bad of ['nats:', 'nats:a b', 'nats:a..b', 'nats:a.*', 'nats:>', 'nats:.a']) {
      expect(remoteServiceOf(bad)).toHaveProperty('problem');
    }
    expect(userModuleOf('nats:grid')).toBeNull();
  });

  it('stands only where an environment, brain, muscle or objective is named', () => {
    expect(remoteComponentProblem(ref('nats:sim'))).toBeNull();
    expect(remoteComponentProblem(ref('nats:sim', 'schedule[1].test.agents[0].objective'))).toBe(
      null,
    );
    expect(remoteComponentProblem(ref('nats:sim', 'run_config.condition'))).toBe(
      'a termination condition runs in the controller: nats:<service> names only an environment, brain, muscle or objective',
    );
  });

  it('passes validation offline, asking no server', async () => {
    const text = customText.replace('name: ./my-env.js:TankEnvironment', 'name: nats:tank');
    const spec = await validateRunFileText(text, {
      sourcePath: 'run.yaml',
      baseDir: examples,
      builtins: builtinComponents,
    });
    expect(spec.phases[0]?.environments[0]?.component.name).toBe('nats:tank');
  });

  it('fails validation as a termination condition and with a malformed service, at their paths', async () => {
    const text = customText
      .replace('name: arena:AgentEvaluationObjectiveTerminationCondition', 'name: nats:judge')
      .replace('name: ./my-env.js:TankEnvironment', 'name: nats:tank!');
    const options = { sourcePath: 'run.yaml', baseDir: examples, builtins: builtinComponents };
    expect(await runFileProblems(text, options)).toEqual([
      `${environmentPath}.name: expected a component name: arena:BuiltinName, code:Name (passed to runExperiment in code), ./path.js:ExportName or nats:<service> (served by arena serve), got string "nats:tank!"`,
      // the well-formed condition is checked in the same pass
      'run_config.condition: a termination condition runs in the controller: nats:<service> names only an environment, brain, muscle or objective',
      'run_config.condition.name: unknown termination condition "nats:judge" (expected arena:AgentEvaluationObjectiveTerminationCondition or arena:MaxEpisodesTerminationCondition)',
    ]);
    const conditionOnly = customText.replace(
      'name: arena:AgentEvaluationObjectiveTerminationCondition',
      'name: nats:judge',
    );
    expect(await runFileProblems(conditionOnly, options)).toEqual([
      'run_config.condition: a termination condition runs in the controller: nats:<service> names only an environment, brain, muscle or objective',
      'run_config.condition.name: unknown termination condition "nats:judge" (expected arena:AgentEvaluationObjectiveTerminationCondition or arena:MaxEpisodesTerminationCondition)',
    ]);
  });
});
