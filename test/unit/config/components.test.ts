import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ComponentResolutionError,
  componentRefsOf,
  resolveComponent,
  resolveRunComponents,
} from '../../../src/config/components.js';
import { loadRunFile, parseRunFile } from '../../../src/config/runFile.js';
import { RunFileError } from '../../../src/config/runFileError.js';
import type { ComponentRef } from '../../../src/config/runSpec.js';
import * as fixtureComponents from '../../fixtures/runs/components.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/runs');
const nested = path.join(fixtures, 'nested');
const builtins = new Map<string, unknown>([
  ['arena:GridEnvironment', 'grid-factory'],
  ['arena:RandomBrain', 'random-brain'],
]);
const ref = (name: string): ComponentRef => ({
  name,
  params: {},
  yamlPath: 'schedule[0].train.agents[0].brain',
});

async function failure(name: string, baseDir = fixtures): Promise<ComponentResolutionError> {
  const error = await resolveComponent(ref(name), { baseDir, builtins }).catch((caught) => caught);
  expect(error).toBeInstanceOf(ComponentResolutionError);
  return error as ComponentResolutionError;
}

describe('resolveComponent', () => {
  it('looks up arena: names in the built-ins', async () => {
    await expect(
      resolveComponent(ref('arena:GridEnvironment'), { baseDir: fixtures, builtins }),
    ).resolves.toBe('grid-factory');
  });

  it('imports the named export of ./path.js relative to baseDir', async () => {
    await expect(
      resolveComponent(ref('./components.js:FixtureBrain'), { baseDir: fixtures, builtins }),
    ).resolves.toBe(fixtureComponents.FixtureBrain);
  });

  it('resolves ../path.js from a nested folder', async () => {
    await expect(
      resolveComponent(ref('../components.js:FixtureEnvironment'), { baseDir: nested, builtins }),
    ).resolves.toBe(fixtureComponents.FixtureEnvironment);
  });

  it('names the path and the known built-ins for an unknown built-in', async () => {
    const error = await failure('arena:GridEnvironmnet');
    expect(error.code).toBe('COMPONENT_RESOLUTION');
    expect(error.name).toBe('ComponentResolutionError');
    expect(error.yamlPath).toBe('schedule[0].train.agents[0].brain');
    expect(error.message).toBe(
      'schedule[0].train.agents[0].brain: unknown built-in "arena:GridEnvironmnet"; did you mean "arena:GridEnvironment"? (known built-ins: arena:GridEnvironment, arena:RandomBrain)',
    );
  });

  it('says so when no built-ins are registered', async () => {
    const error = await resolveComponent(ref('arena:X'), {
      baseDir: fixtures,
      builtins: new Map(),
    }).catch((caught) => caught);
    expect((error as Error).message).toContain('(known built-ins: none are registered)');
  });

  it('names the file it tried for a missing module', async () => {
    const error = await failure('./missing-env.js:Env');
    expect(error.reason).toBe(
      `module file not found: ${path.join(fixtures, 'missing-env.js')} (./missing-env.js relative to ${fixtures})`,
    );
  });

  it('lists the exports of a module without the named export', async () => {
    const error = await failure('./components.js:NoSuchThing');
    expect(error.reason).toBe(
      `module ${path.join(fixtures, 'components.js')} has no export "NoSuchThing" (its exports: FixtureBrain, FixtureCondition, FixtureEnvironment, FixtureMuscle, FixtureObjective)`,
    );
  });

  it('reports a module that fails to load', async () => {
    const error = await failure('./broken-module.js:Anything');
    expect(error.reason).toMatch(/^module .*broken-module\.js failed to load: /);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('rejects a name that is neither form', async () => {
    const error = await failure('components.js:FixtureBrain');
    expect(error.reason).toBe(
      'expected arena:BuiltinName, ./path.js:ExportName or nats:<service>, got "components.js:FixtureBrain"',
    );
  });
});

describe('resolveRunComponents', () => {
  it('resolves every component of the meta fixture, keyed by YAML path', async () => {
    const spec = await loadRunFile(path.join(fixtures, 'meta-two-phases.yaml'));
    const resolved = await resolveRunComponents(spec, { builtins });
    expect([...resolved.keys()]).toEqual(
      componentRefsOf(spec).map((component) => component.yamlPath),
    );
    expect(resolved.get('schedule[0].train.agents[1].brain')).toBe(fixtureComponents.FixtureBrain);
    expect(resolved.get('run_config.condition')).toBe(fixtureComponents.FixtureCondition);
  });

  it('lists each inherited component once, at the path where it was declared', async () => {
    const spec = await loadRunFile(path.join(fixtures, 'meta-two-phases.yaml'));
    expect(componentRefsOf(spec).map((component) => component.yamlPath)).toEqual([
      'schedule[0].train.environments[0].environment',
      'schedule[0].train.agents[0].brain',
      'schedule[0].train.agents[0].muscle',
      'schedule[0].train.agents[0].objective',
      'schedule[0].train.agents[1].brain',
      'schedule[0].train.agents[1].muscle',
      'schedule[0].train.agents[1].objective',
      'schedule[0].train.simulation.conditions[0]',
      'run_config.condition',
    ]);
  });

  it('reports every component that does not resolve at once', async () => {
    const text = `uid: missing
seed: 0
version: 1
schedule:
  - train:
      environments: [{ environment: { uid: grid, name: ./my-env.js:MyEnvironment } }]
      agents:
        - name: operator
          brain: { name: arena:RandomBrain }
          muscle: { name: ./components.js:FixtureMuscel }
      simulation:
        name: arena:ScriptedSimulationController
        params: { script: { loop: [{ agents: [operator], environments: [grid] }] } }
      phase_config: { mode: train, max_steps: 5 }
`;
    const spec = parseRunFile(text, { sourcePath: path.join(fixtures, 'inline.yaml') });
    const error = await resolveRunComponents(spec, { builtins }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RunFileError);
    expect((error as RunFileError).issues.map((issue) => issue.path)).toEqual([
      'schedule[0].train.environments[0].environment',
      'schedule[0].train.agents[0].muscle',
      'schedule[0].train.agents[0].objective',
    ]);
    expect((error as RunFileError).issues[2]?.message).toBe(
      'unknown built-in "arena:SumObjective" (known built-ins: arena:GridEnvironment, arena:RandomBrain)',
    );
  });
});
