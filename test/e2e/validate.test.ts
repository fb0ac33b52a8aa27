import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hostingCapacityText,
  runFileMistakes,
  whereIn,
  withMistakes,
  writeRunFile,
} from '../support/badRunFiles.js';
import { repoRoot, runArena } from '../support/cli.js';
import { manualText } from '../support/manual.js';

const fixture = (name: string) => path.join(repoRoot, 'test/fixtures/runs', name);

describe('arena validate', () => {
  it('prints a one-line summary and exits 0 for a valid run file', async () => {
    const run = await runArena(['validate', path.join(repoRoot, 'examples/hosting-capacity.yaml')]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      'ok: hosting-capacity, 7 phases (explore_1, explore_2, explore_3, explore_4, explore_5, tune, test), profile meta\n',
    );
    expect(run.code).toBe(0);
  });

  it('prints every problem, one per line with its YAML path, and exits 2', async () => {
    const run = await runArena(['validate', fixture('many-errors.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`arena: ${fixture('many-errors.yaml')}: invalid run file, 8 problems:`);
    expect(lines.slice(1).map((line) => line.trim().split(':')[0])).toEqual([
      'seed',
      'colour',
      'schedule[0].train.environments[0].environment.name',
      'schedule[0].train.agents[1].name',
      'schedule[0].train.simulation.params.script.loop',
      'schedule[0].train.phase_config.episdoes',
      'schedule[0].train.phase_config.max_steps',
      'schedule[1].test.phase_config.mode',
    ]);
    expect(lines).toContain(
      '  schedule[0].train.simulation.params.script.loop: expected a non-empty list of turn groups, got an empty list (line 18, column 19)',
    );
  });

  it('resolves and constructs components: reports a missing module, an unknown built-in and what cannot be constructed', async () => {
    const run = await runArena(['validate', fixture('missing-components.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid run file, 5 problems:');
    expect(run.stderr).toContain(
      '  schedule[0].train.agents[0].muscle: expected a class or a factory function, got object (line 11, column 19)',
    );
    expect(run.stderr).toContain(
      '  schedule[0].train.phase_config.episodes: a cap-free phase needs run_config.condition: ',
    );
    expect(run.stderr).toContain(
      `  schedule[0].train.environments[0].environment: module file not found: ${fixture('my-env.js')} (./my-env.js relative to ${fixture('')}) (line 7, column 24)`,
    );
    expect(run.stderr).toContain(
      '  schedule[0].train.agents[0].brain: unknown built-in "arena:NoSuchBrain" (known built-ins: ',
    );
  });

  it('tells a CLI user that a code: component is for host apps, and names the module-file form', async () => {
    const { cwd, file } = writeRunFile(
      hostingCapacityText.replace('name: arena:GridEnvironment', 'name: code:GridEnvironment'),
    );
    const store = `sqlite:${path.join(cwd, 'arena.db')}`;
    const run = await runArena(['run', file, '--store', store]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `  schedule[0].explore_1.environments[0].environment: unknown in-code component "code:GridEnvironment" (in-code components: none: a host app passes them to runExperiment's components option, and the arena CLI passes none (name a module file instead, ./file.js:GridEnvironment)) (line 22, column 13)`,
    );
    expect((await runArena(['runs', '--store', store])).stdout).not.toContain('hosting-capacity');
  });

  it('summarises phases whose profiles differ per phase', async () => {
    const run = await runArena(['validate', fixture('generic-then-meta.yaml')]);
    expect(run.stdout).toBe(
      'ok: mixed-profiles, 2 phases (warmup, meta), profile warmup: generic, meta: meta\n',
    );
    expect(run.code).toBe(0);
  });

  it('exits 2 and says so in one line for a file that does not exist, in validate and run', async () => {
    for (const command of ['validate', 'run']) {
      const run = await runArena([command, fixture('absent.yaml')]);
      expect([command, run.code, run.stderr]).toEqual([
        command,
        2,
        `arena: cannot read ${fixture('absent.yaml')}: no such file\n`,
      ]);
    }
    const json = await runArena(['validate', '--json', fixture('absent.yaml')]);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      problems: [{ path: '', message: 'cannot read the run file: no such file' }],
    });
  });
});

describe('arena validate checks what arena run checks', () => {
  it.each(runFileMistakes)(
    'rejects $name, naming its YAML path, line and column',
    async (mistake) => {
      const text = withMistakes(hostingCapacityText, [mistake]);
      const { file } = writeRunFile(text);
      const run = await runArena(['validate', file]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      const line = lines.find((candidate) => candidate.startsWith(`  ${mistake.path}: `));
      expect(line).toContain(mistake.says);
      expect(line?.endsWith(` ${whereIn(text, mistake)}`)).toBe(true);
    },
  );

  it('lists every problem at once, each on its own line', async () => {
    const text = withMistakes(
      hostingCapacityText,
      runFileMistakes.filter((mistake) => mistake.name !== 'a brain param of the wrong type'),
    );
    const { file } = writeRunFile(text);
    const run = await runArena(['validate', file]);
    expect(run.code).toBe(2);
    const paths = run.stderr
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(': ')[0]);
    // a misspelt key also leaves the right one missing: both are named
    expect(paths).toEqual([
      'schedule[0].explore_1.environments[0].environment.params.definition.include[0]',
      'schedule[0].explore_1.agents[1].brain.params.populaton',
      'schedule[0].explore_1.agents[1].objective.params.weights.pv_enrgy',
      'run_config.condition.params.agents.operator.success.min_evaluations',
      'run_config.condition.params.agents.operator.success.min_evaluation',
      'run_config.condition.params.agents.operator.plateau.patience',
    ]);
    expect(run.stderr.split('\n')[0]).toBe(`arena: ${file}: invalid run file, 6 problems:`);
  });

  it('names the termination problems of every agent, not only the first', async () => {
    const text = hostingCapacityText.replace(
      '  agents:\n        operator:',
      '  agents:\n        planner:\n          success: { metric: objective, threshold: 1, direction: up, consecutive: 0, min_evaluations: 1 }\n        operator:',
    );
    const { file } = writeRunFile(text.replace('patience: 4', 'patience: 0'));
    const run = await runArena(['validate', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'run_config.condition.params.agents.planner.success.direction: must be greater_equal or less_equal, got "up"',
    );
    expect(run.stderr).toContain(
      'run_config.condition.params.agents.planner.success.consecutive: must be a positive integer, got 0',
    );
    expect(run.stderr).toContain(
      'run_config.condition.params.agents.operator.plateau.patience: must be a positive integer, got 0',
    );
    expect(run.stderr).toContain(
      'run_config.condition.params.agents.planner: plateau is missing; a plateau rule must be configured for every agent or no agent',
    );
  });

  it('checks a selector manifest against the scenario and the phases against the rules', async () => {
    const text = hostingCapacityText
      .replace(
        'pointer: /der_params/midasmv/mapping/6/0/1',
        'pointer: /der_params/midasmv/mapping/7/0/1',
      )
      .replace(
        '- test: { phase_config: { mode: test, episodes: 2 } }',
        '- test: { phase_config: { mode: test, episodes: null } }',
      );
    const { file } = writeRunFile(text);
    const run = await runArena(['validate', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '  schedule[0].explore_1.environments[0].environment.params.definition.selector_manifest[0].pointer: expected a finite number in the scenario at "/der_params/midasmv/mapping/7/0/1", found none',
    );
    expect(run.stderr).toContain(
      '  schedule[6].test.phase_config.episodes: is required for a test phase: cap-free evaluation termination is supported only for train phases',
    );
  });
});

/** Three layers of mistakes at once: a phase key (schema), a built-in (resolution), a rule key (termination). */
const threeLayers = withMistakes(hostingCapacityText, [
  {
    name: 'a misspelt phase key',
    from: 'worker: 1, episodes: 60',
    to: 'worker: 1, episdoes: 60',
    at: '60',
    path: 'schedule[0].explore_1.phase_config.episdoes',
    says: 'unknown key; did you mean "episodes"?',
  },
  ...runFileMistakes.filter((mistake) => mistake.name === 'a misspelt termination rule key'),
]).replace('arena:CrossEntropyBrain', 'arena:CrossEntropyBrian');

describe('arena validate reports every layer in one pass (issue 24, point 3)', () => {
  const expectedPaths = [
    'schedule[0].explore_1.agents[1].brain',
    'schedule[0].explore_1.phase_config.episdoes',
    'run_config.condition.params.agents.operator.success.min_evaluations',
    'run_config.condition.params.agents.operator.success.min_evaluation',
  ];

  it('names a misspelt phase key, built-in and rule key at once, the built-in with a did-you-mean', async () => {
    const { file } = writeRunFile(threeLayers);
    const run = await runArena(['validate', file]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`arena: ${file}: invalid run file, 4 problems:`);
    expect(lines.slice(1).map((line) => line.trim().split(': ')[0])).toEqual(expectedPaths);
    expect(lines[1]).toContain(
      'unknown built-in "arena:CrossEntropyBrian"; did you mean "arena:CrossEntropyBrain"? (known built-ins: ',
    );
    // a missing key says what it must be, not why a boolean would not do
    expect(lines[3]).toBe(
      '  run_config.condition.params.agents.operator.success.min_evaluations: missing; it must be a positive integer (line 80, column 13)',
    );
  });

  it('arena run refuses the same file with the same problems and leaves no run', async () => {
    const { cwd, file } = writeRunFile(threeLayers);
    const store = `sqlite:${path.join(cwd, 'arena.db')}`;
    const validated = await runArena(['validate', file]);
    const run = await runArena(['run', file, '--store', store]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(validated.stderr);
    expect((await runArena(['runs', '--store', store])).stdout).not.toContain('hosting-capacity');
  });

  it('--json prints { ok, problems } on stdout with path, message, expected, suggestion, line and column, and exits 2', async () => {
    const { file } = writeRunFile(threeLayers);
    const run = await runArena(['validate', '--json', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      problems: { path: string; message: string; expected?: string; suggestion?: string }[];
    };
    expect(report.ok).toBe(false);
    expect(report.problems.map((problem) => problem.path)).toEqual(expectedPaths);
    expect(report.problems[0]).toMatchObject({
      suggestion: 'arena:CrossEntropyBrain',
      line: 52,
      column: 18,
    });
    expect(report.problems[1]).toEqual({
      path: 'schedule[0].explore_1.phase_config.episdoes',
      message:
        'unknown key; did you mean "episodes"? (expected one of: mode, worker, episodes, evaluate_every, max_steps)',
      expected: 'one of: mode, worker, episodes, evaluate_every, max_steps',
      suggestion: 'episodes',
      line: 65,
      column: 57,
    });
    expect(report.problems[3]).toMatchObject({
      expected: 'exactly metric, threshold, direction, consecutive, min_evaluations',
      suggestion: 'min_evaluations',
    });
    const ok = await runArena([
      'validate',
      '--json',
      path.join(repoRoot, 'examples/two-feeders.yaml'),
    ]);
    expect([ok.code, JSON.parse(ok.stdout)]).toEqual([0, { ok: true, problems: [] }]);
  });
});

/** A run file without its leading comment lines: what the example says it is, and how to run it. */
const withoutHeader = (file: string): string =>
  readFileSync(path.join(repoRoot, 'examples', file), 'utf8').replace(/^(?:#.*\n)+/, '');

describe('README: the shipped run files with mistakes', () => {
  it.each([
    {
      file: 'tank-typo.yaml',
      source: 'custom-environment.yaml',
      right: 'params: { target: 5, capacity: 10, inflow: 1 }',
      wrong: 'params: { target: -5, capcity: 10, inflow: 1 }',
    },
    {
      file: 'bad-loop.yaml',
      source: 'hosting-capacity-loop.yaml',
      right: 'every: 20\n',
      wrong: 'every: 0\n',
    },
  ])(
    'examples/$file is examples/$source with its mistake, and the README shows what arena validate prints for it',
    async ({ file, source, right, wrong }) => {
      expect(withoutHeader(source)).toContain(right);
      expect(withoutHeader(file)).toBe(withoutHeader(source).replace(right, wrong));
      // from the checkout, as a user who just cloned it types it
      const run = await runArena(['validate', `examples/${file}`]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const readme = manualText();
      expect(readme).toContain(`$ npx arena validate examples/${file}\n${run.stderr}\`\`\``);
    },
  );
});

describe('arena schema', () => {
  it('prints the run file JSON Schema as valid JSON', async () => {
    const run = await runArena(['schema']);
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout) as {
      $schema: string;
      title: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { type?: string; items?: unknown[] }>;
    };
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.title).toBe('arena run file');
    expect(schema.required).toEqual(['uid', 'seed', 'version', 'schedule']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.seed?.type).toBe('integer');
    expect(schema.properties.schedule?.type).toBe('array');
    expect(schema.properties.schedule?.items).toHaveLength(1);
  });
});
