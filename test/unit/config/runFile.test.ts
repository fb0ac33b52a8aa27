import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunFile, parseRunFile } from '../../../src/config/runFile.js';
import { RunFileError } from '../../../src/config/runFileError.js';
import { scratchFolder } from '../../support/scratch.js';
import {
  issuesOf,
  parseData,
  pathsOf,
  type RunData,
  trainPhase,
  validRun,
} from './runFileSupport.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/runs');

describe('parseRunFile: a valid file', () => {
  it('normalises a two-phase run file into a camelCase RunSpec', () => {
    const spec = parseData(validRun());
    expect(spec.uid).toBe('hosting-capacity');
    expect(spec.seed).toBe(42);
    expect(spec.version).toBe(1);
    expect(spec.sourcePath).toBe('test.yaml');
    expect(spec.baseDir).toBe(path.resolve('.'));
    expect(spec.phases.map((phase) => [phase.name, phase.index, phase.yamlPath])).toEqual([
      ['train', 0, 'schedule[0].train'],
      ['test', 1, 'schedule[1].test'],
    ]);
    const [train] = spec.phases;
    expect(train?.phaseConfig).toEqual({
      mode: 'train',
      worker: 1,
      episodes: 20,
      evaluateEvery: 2,
      maxSteps: 96,
    });
    expect(train?.simulation.name).toBe('arena:ScriptedSimulationController');
    expect(train?.simulation.script).toEqual({
      profile: 'meta',
      episodeStart: [{ agents: ['meta_agent'], environments: ['midas'] }],
      loop: [{ agents: ['operating_agent'], environments: ['midas'] }],
      episodeEnd: [],
      metaAgent: 'meta_agent',
      operatingAgent: 'operating_agent',
    });
    expect(train?.simulation.conditions).toEqual([
      {
        name: 'arena:VanillaSimControllerTerminationCondition',
        params: {},
        yamlPath: 'schedule[0].train.simulation.conditions[0]',
      },
    ]);
    expect(spec.runCondition).toEqual({
      name: 'arena:AgentEvaluationObjectiveTerminationCondition',
      params: { agents: {} },
      yamlPath: 'run_config.condition',
    });
  });

  it('gives agents the default muscle, objective, sensors and actuators', () => {
    const [meta] = parseData(validRun()).phases[0]?.agents ?? [];
    expect(meta).toEqual({
      name: 'meta_agent',
      brain: {
        name: 'arena:MetaBanditBrain',
        params: {},
        yamlPath: 'schedule[0].train.agents[0].brain',
      },
      muscle: {
        name: 'arena:DefaultMuscle',
        params: {},
        yamlPath: 'schedule[0].train.agents[0].muscle',
      },
      objective: {
        name: 'arena:SumObjective',
        params: {},
        yamlPath: 'schedule[0].train.agents[0].objective',
      },
      sensors: [],
      actuators: [],
    });
  });

  it('defaults worker to 1, episodes and evaluate_every to null, conditions to none', () => {
    const run = validRun();
    trainPhase(run).phase_config = { mode: 'train', max_steps: 10 };
    delete trainPhase(run).simulation.conditions;
    const [train] = parseData(run).phases;
    expect(train?.phaseConfig).toEqual({
      mode: 'train',
      worker: 1,
      episodes: null,
      evaluateEvery: null,
      maxSteps: 10,
    });
    expect(train?.simulation.conditions).toEqual([]);
  });

  it('has a null run condition when run_config is absent', () => {
    const run = validRun();
    delete run.run_config;
    expect(parseData(run).runCondition).toBeNull();
  });

  it('deep-freezes the spec', () => {
    const spec = parseData(validRun());
    expect(Object.isFrozen(spec)).toBe(true);
    expect(Object.isFrozen(spec.phases[0]?.environments[0]?.params)).toBe(true);
  });

  it('keeps the document key order of environment params, re-rooted at the params', () => {
    const text = `uid: order
seed: 1
version: 1
schedule:
  - train:
      environments:
        - environment:
            uid: grid
            name: arena:GridEnvironment
            params:
              scenario:
                mapping:
                  "6": [[PV, 2.2]]
                  bus: 1
                  "3": [[Hospital, 0.427]]
      agents: [{ name: operator, brain: { name: arena:RandomBrain } }]
      simulation:
        name: arena:ScriptedSimulationController
        params: { script: { loop: [{ agents: [operator], environments: [grid] }] } }
      phase_config: { mode: train, max_steps: 4 }
`;
    const environment = parseRunFile(text, { sourcePath: 'order.yaml' }).phases[0]?.environments[0];
    if (environment === undefined) throw new Error('expected one environment');
    expect(Object.keys((environment.params.scenario as { mapping: object }).mapping)).toEqual([
      '3',
      '6',
      'bus',
    ]);
    expect(environment.keyOrder).toEqual({
      '': ['scenario'],
      '/scenario': ['mapping'],
      '/scenario/mapping': ['6', 'bus', '3'],
    });
  });

  it('loads the meta fixture from disk with baseDir at its folder', async () => {
    const spec = await loadRunFile(path.join(fixtures, 'meta-two-phases.yaml'));
    expect(spec.baseDir).toBe(fixtures);
    expect(spec.phases.map((phase) => phase.simulation.script.profile)).toEqual(['meta', 'meta']);
  });
});

describe('parseRunFile: phase inheritance', () => {
  it('inherits environments, agents and simulation and deep-merges phase_config', () => {
    const [train, test] = parseData(validRun()).phases;
    expect(test?.environments).toEqual(train?.environments);
    expect(test?.agents).toEqual(train?.agents);
    expect(test?.simulation).toEqual(train?.simulation);
    expect(test?.phaseConfig).toEqual({
      mode: 'test',
      worker: 1,
      episodes: 1,
      evaluateEvery: 2,
      maxSteps: 96,
    });
  });

  it('keeps the YAML path where an inherited component was declared', () => {
    const [, test] = parseData(validRun()).phases;
    expect(test?.agents[0]?.brain.yamlPath).toBe('schedule[0].train.agents[0].brain');
    expect(test?.environments[0]?.component.yamlPath).toBe(
      'schedule[0].train.environments[0].environment',
    );
  });

  it('replaces lists whole: a later phase that lists agents replaces all of them', () => {
    const run = validRun();
    run.schedule[1].test.agents = [
      { name: 'operating_agent', brain: { name: 'arena:GreedyBrain' } },
    ];
    run.schedule[1].test.simulation = {
      params: {
        script: {
          episode_start: [],
          loop: [{ agents: ['operating_agent'], environments: ['midas'] }],
        },
      },
    };
    const [, test] = parseData(run).phases;
    expect(
      test?.agents.map((agent) => [agent.name, agent.brain.name, agent.brain.yamlPath]),
    ).toEqual([['operating_agent', 'arena:GreedyBrain', 'schedule[1].test.agents[0].brain']]);
    expect(test?.simulation.script.profile).toBe('generic');
    expect(test?.simulation.script.episodeEnd).toEqual([]);
  });

  it('deep-merges mappings inside simulation: overriding loop keeps the inherited episode_start', () => {
    const run = validRun();
    trainPhase(run).agents.push({ name: 'backup', brain: { name: 'arena:RandomBrain' } });
    run.schedule[1].test.simulation = {
      params: { script: { loop: [{ agents: ['backup'], environments: ['midas'] }] } },
    };
    const [, test] = parseData(run).phases;
    expect(test?.simulation.script.metaAgent).toBe('meta_agent');
    expect(test?.simulation.script.operatingAgent).toBe('backup');
  });

  it('lets a later phase lift an inherited episode cap with null', () => {
    const run = validRun();
    run.schedule[1].test.phase_config = { episodes: null };
    expect(parseData(run).phases[1]?.phaseConfig.episodes).toBeNull();
  });

  it('re-checks an inherited script against the agents a later phase declares', () => {
    const run = validRun();
    run.schedule[1].test.agents = [
      { name: 'operating_agent', brain: { name: 'arena:RandomBrain' } },
    ];
    const issues = issuesOf(run);
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        'schedule[1].test.simulation.params.script.episode_start[0].agents[0]',
        'unknown agent "meta_agent" (expected a declared agent: operating_agent)',
      ],
    ]);
  });
});

describe('parseRunFile: every problem at once', () => {
  it('reports every problem of the many-errors fixture, in file order, with line and column', async () => {
    const error = await loadRunFile(path.join(fixtures, 'many-errors.yaml')).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(RunFileError);
    const issues = (error as RunFileError).issues;
    expect(issues.map((issue) => [issue.path, issue.location?.line])).toEqual([
      ['seed', 2],
      ['colour', 4],
      ['schedule[0].train.environments[0].environment.name', 8],
      ['schedule[0].train.agents[1].name', 12],
      ['schedule[0].train.simulation.params.script.loop', 18],
      ['schedule[0].train.phase_config.episdoes', 19],
      ['schedule[0].train.phase_config.max_steps', 19],
      ['schedule[1].test.phase_config.mode', 21],
    ]);
    expect(error.message.split('\n')).toHaveLength(issues.length + 1);
    expect(error.message).toContain('invalid run file, 8 problems:');
    expect(error.message).toContain(
      '  schedule[0].train.simulation.params.script.loop: expected a non-empty list of turn groups, got an empty list (line 18, column 19)',
    );
  });

  it('still checks the phases before a malformed phase entry', () => {
    const run = validRun();
    trainPhase(run).agents[1].name = 'meta_agent';
    run.schedule[1] = 'test';
    expect(pathsOf(issuesOf(run))).toEqual([
      'schedule[0].train.agents[1].name',
      'schedule[0].train.simulation.params.script.loop[0].agents[0]',
      'schedule[1]',
    ]);
  });

  it('has code RUN_FILE and name RunFileError', () => {
    const run = validRun();
    run.seed = -1;
    try {
      parseData(run);
      expect.unreachable();
    } catch (error) {
      expect((error as RunFileError).code).toBe('RUN_FILE');
      expect((error as RunFileError).name).toBe('RunFileError');
    }
  });
});

describe('parseRunFile: each problem names its path and what was expected', () => {
  const cases: [string, (run: RunData) => void, string, string][] = [
    [
      'a boolean seed',
      (run) => {
        run.seed = true;
      },
      'seed',
      'expected a non-negative integer, got boolean true',
    ],
    [
      'a negative seed',
      (run) => {
        run.seed = -3;
      },
      'seed',
      'expected a non-negative integer, got number -3',
    ],
    [
      'a missing uid',
      (run) => {
        delete run.uid;
      },
      'uid',
      'required: expected a run file uid (a non-empty string)',
    ],
    [
      'an unknown version',
      (run) => {
        run.version = 2;
      },
      'version',
      'expected 1 (the arena run-file version), got number 2',
    ],
    [
      'an unknown top-level key',
      (run) => {
        run.schedul = [];
      },
      'schedul',
      'unknown key; did you mean "schedule"? (expected one of: uid, seed, version, schedule, run_config)',
    ],
    [
      'a schedule that is not a list',
      (run) => {
        run.schedule = { train: {} };
      },
      'schedule',
      'expected a non-empty list of phases, got a mapping',
    ],
    [
      'an empty schedule',
      (run) => {
        run.schedule = [];
      },
      'schedule',
      'expected a non-empty list of phases, got an empty list',
    ],
    [
      'a first phase without agents',
      (run) => {
        delete trainPhase(run).agents;
      },
      'schedule[0].train.agents',
      'required: expected a non-empty list of agents',
    ],
    [
      'a first phase without max_steps',
      (run) => {
        delete trainPhase(run).phase_config.max_steps;
      },
      'schedule[0].train.phase_config.max_steps',
      'required: expected a step limit per episode (a positive integer)',
    ],
    [
      'an empty environment list',
      (run) => {
        trainPhase(run).environments = [];
      },
      'schedule[0].train.environments',
      'expected a non-empty list of environments, got an empty list',
    ],
    [
      'an environment without uid',
      (run) => {
        delete trainPhase(run).environments[0].environment.uid;
      },
      'schedule[0].train.environments[0].environment.uid',
      'required: expected an environment UID (a non-empty string)',
    ],
    [
      'a component name without a prefix',
      (run) => {
        trainPhase(run).agents[0].brain.name = 'MetaBanditBrain';
      },
      'schedule[0].train.agents[0].brain.name',
      'expected a component name: arena:BuiltinName, code:Name (passed to runExperiment in code), ./path.js:ExportName or nats:<service> (served by arena serve), got string "MetaBanditBrain"',
    ],
    [
      'an absolute module path',
      (run) => {
        trainPhase(run).agents[0].brain.name = '/opt/brain.js:Brain';
      },
      'schedule[0].train.agents[0].brain.name',
      'expected a component name: arena:BuiltinName, code:Name (passed to runExperiment in code), ./path.js:ExportName or nats:<service> (served by arena serve), got string "/opt/brain.js:Brain"',
    ],
    [
      'params that are a list',
      (run) => {
        trainPhase(run).agents[0].brain.params = [1];
      },
      'schedule[0].train.agents[0].brain.params',
      'expected a params mapping, got a list',
    ],
    [
      'a sensor that is a number',
      (run) => {
        trainPhase(run).agents[1].sensors = [3];
      },
      'schedule[0].train.agents[1].sensors[0]',
      'expected a sensor UID (a non-empty string), got number 3',
    ],
    [
      'an unknown agent key',
      (run) => {
        trainPhase(run).agents[0].brian = {};
      },
      'schedule[0].train.agents[0].brian',
      'unknown key; did you mean "brain"? (expected one of: name, brain, muscle, objective, sensors, actuators)',
    ],
    [
      'another simulation controller',
      (run) => {
        trainPhase(run).simulation.name = 'arena:VanillaSimulationController';
      },
      'schedule[0].train.simulation.name',
      'expected arena:ScriptedSimulationController, got string "arena:VanillaSimulationController"',
    ],
    [
      'an unknown simulation param',
      (run) => {
        trainPhase(run).simulation.params.scirpt = {};
      },
      'schedule[0].train.simulation.params.scirpt',
      'unknown key; did you mean "script"? (expected one of: script)',
    ],
    [
      'an empty loop',
      (run) => {
        trainPhase(run).simulation.params.script.loop = [];
      },
      'schedule[0].train.simulation.params.script.loop',
      'expected a non-empty list of turn groups, got an empty list',
    ],
    [
      'a missing loop',
      (run) => {
        delete trainPhase(run).simulation.params.script.loop;
      },
      'schedule[0].train.simulation.params.script.loop',
      'required: expected a non-empty list of turn groups',
    ],
    [
      'an unknown turn-group key',
      (run) => {
        trainPhase(run).simulation.params.script.loop[0].agent = [];
      },
      'schedule[0].train.simulation.params.script.loop[0].agent',
      'unknown key; did you mean "agents"? (expected one of: agents, environments)',
    ],
    [
      'an unknown mode',
      (run) => {
        trainPhase(run).phase_config.mode = 'eval';
      },
      'schedule[0].train.phase_config.mode',
      'expected train or test, got string "eval"',
    ],
    [
      'a boolean episode count',
      (run) => {
        trainPhase(run).phase_config.episodes = true;
      },
      'schedule[0].train.phase_config.episodes',
      'expected an episode cap (a positive integer), got boolean true',
    ],
    [
      'zero workers',
      (run) => {
        trainPhase(run).phase_config.worker = 0;
      },
      'schedule[0].train.phase_config.worker',
      'expected the number of workers (a positive integer), got number 0',
    ],
    [
      'a fractional evaluate_every',
      (run) => {
        trainPhase(run).phase_config.evaluate_every = 1.5;
      },
      'schedule[0].train.phase_config.evaluate_every',
      'expected an evaluation interval in training episodes (a positive integer), got number 1.5',
    ],
    [
      'a typo in a later phase',
      (run) => {
        run.schedule[1].test.phase_config = { mdoe: 'test' };
      },
      'schedule[1].test.phase_config.mdoe',
      'unknown key; did you mean "mode"? (expected one of: mode, worker, episodes, evaluate_every, max_steps)',
    ],
    [
      'an empty loop in a later phase',
      (run) => {
        run.schedule[1].test.simulation = { params: { script: { loop: [] } } };
      },
      'schedule[1].test.simulation.params.script.loop',
      'expected a non-empty list of turn groups, got an empty list',
    ],
    [
      'a phase entry with two names',
      (run) => {
        run.schedule[1] = { test: {}, eval: {} };
      },
      'schedule[1]',
      'expected a mapping with one key, the phase name; got 2 keys: test, eval',
    ],
    [
      'a phase entry that is a string',
      (run) => {
        run.schedule[1] = 'test';
      },
      'schedule[1]',
      'expected a mapping with one key, the phase name, got string "test"',
    ],
    [
      'a duplicate phase name',
      (run) => {
        run.schedule[1] = { train: {} };
      },
      'schedule[1].train',
      'duplicate phase name "train" (also schedule[0]): expected unique phase names',
    ],
    [
      'a duplicate environment uid',
      (run) => {
        trainPhase(run).environments.push({
          environment: { uid: 'midas', name: 'arena:GridEnvironment' },
        });
      },
      'schedule[0].train.environments[1].environment.uid',
      'duplicate environment uid "midas" (also at index 0): expected unique environment uids',
    ],
    [
      'a loop naming an undeclared environment',
      (run) => {
        trainPhase(run).simulation.params.script.loop[0].environments = ['grid'];
      },
      'schedule[0].train.simulation.params.script.loop[0].environments[0]',
      'unknown environment "grid" (expected a declared environment: midas)',
    ],
    [
      'a run condition with a bad name',
      (run) => {
        run.run_config.condition.name = 'Plateau';
      },
      'run_config.condition.name',
      'expected a component name: arena:BuiltinName, code:Name (passed to runExperiment in code), ./path.js:ExportName or nats:<service> (served by arena serve), got string "Plateau"',
    ],
    [
      'parameters holding a non-finite number',
      (run) => {
        trainPhase(run).agents[0].brain.params = { rate: Number.POSITIVE_INFINITY };
      },
      'schedule[0].train.agents[0].brain.params.rate',
      'expected plain data (strings, finite numbers, booleans, null, lists and mappings)',
    ],
  ];

  it.each(cases)('rejects %s', (_name, mutate, expectedPath, expectedMessage) => {
    const run = validRun();
    mutate(run);
    const issues = issuesOf(run);
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [expectedPath, expectedMessage],
    ]);
  });

  it('reports a YAML syntax error with its line and column', () => {
    const issues = issuesOf('uid: a\nseed: 1\nuid: b\n');
    expect(issues).toEqual([
      {
        path: '',
        message: 'YAML syntax error: Map keys must be unique',
        location: { line: 3, column: 1 },
      },
    ]);
  });

  it('reports keys that collide as strings (3 and "3") with line and column', () => {
    const issues = issuesOf('uid: a\nscenario:\n  3: 1\n  "3": 2\n');
    expect(issues).toHaveLength(1);
    expect(issues[0]?.location).toEqual({ line: 4, column: 3 });
    expect(issues[0]?.message).toContain('two keys that both become "3"');
  });

  it('reports a document that is not a mapping', () => {
    expect(issuesOf('- a\n- b\n').map((issue) => [issue.path, issue.message])).toEqual([
      ['', 'expected a run file mapping with uid, seed, version, schedule, got a list'],
    ]);
  });

  it('reports an empty document', () => {
    expect(issuesOf('').map((issue) => [issue.path, issue.message])).toEqual([
      ['', 'expected a run file mapping with uid, seed, version, schedule, got null'],
    ]);
  });

  it('locates a missing key at its parent mapping', () => {
    const text = 'uid: a\nseed: 1\nversion: 1\nschedule:\n  - train:\n      agents: []\n';
    const issue = issuesOf(text).find((found) => found.path === 'schedule[0].train.environments');
    expect(issue?.location).toEqual({ line: 6, column: 7 });
  });

  it('fails loadRunFile on a missing file with one issue saying so', async () => {
    const folder = scratchFolder('arena-run-');
    const missing = path.join(folder, 'absent.yaml');
    const error = await loadRunFile(missing).catch((caught) => caught);
    expect(error).toBeInstanceOf(RunFileError);
    expect((error as RunFileError).issues[0]?.message).toBe(
      'cannot read the run file: no such file',
    );
    // one line, its cause said once
    expect((error as RunFileError).message).toBe(`cannot read ${missing}: no such file`);
    await writeFile(missing, 'uid: x\n');
    const incomplete = await loadRunFile(missing).catch((caught) => caught);
    expect(pathsOf((incomplete as RunFileError).issues)).toEqual(['seed', 'version', 'schedule']);
  });
});
