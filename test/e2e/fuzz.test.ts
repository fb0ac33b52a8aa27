import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';

let folder: string;
let unreachable: string;
let plateauOnly: string;

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-fuzz-e2e-'));
  unreachable = path.join(folder, 'unreachable.yaml');
  writeFileSync(
    unreachable,
    [
      'agents:',
      '  SAC:',
      '    success: { metric: objective, threshold: 2, direction: greater_equal, consecutive: 1, min_evaluations: 1 }',
      '',
    ].join('\n'),
  );
  plateauOnly = path.join(folder, 'plateau.yaml');
  writeFileSync(
    plateauOnly,
    [
      'agents:',
      '  SAC:',
      '    plateau: { metric: objective, direction: maximize, min_delta: 0.01, patience: 2, min_evaluations: 3, window: 1 }',
      '',
    ].join('\n'),
  );
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('arena fuzz termination', () => {
  it('fuzzes the shipped example rules cleanly', async () => {
    const { code, stdout, stderr } = await runArena([
      'fuzz',
      'termination',
      'examples/termination/rules.yaml',
      '--metric',
      'objective=0:1',
      '--require',
      'success',
      '--require',
      'plateau',
      '--runs',
      '50',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(
      '  success       reachable in 3 evaluations (minimal: the rules need at least 3 evaluations)',
    );
    expect(stdout).toContain(
      '  plateau       reachable in 6 evaluations (minimal: the rules need at least 6 evaluations)',
    );
    expect(stdout).toContain('invariants on these rules: 7 of 7 held');
    expect(stdout).toContain('required reasons reachable: success, plateau');
  });

  it('exits 1 when a required success threshold lies outside the metric range', async () => {
    const { code, stdout } = await runArena([
      'fuzz',
      'termination',
      unreachable,
      '--metric',
      'objective=0:1',
      '--require',
      'success',
      '--runs',
      '30',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      '  success       UNREACHABLE: agent "SAC" needs objective ≥ 2, outside the range 0:1',
    );
    expect(stdout).toContain('runs forever: POSSIBLE with metrics within the ranges');
    expect(stdout).toContain('required reasons UNREACHABLE: success');
  });

  it('prints the same JSON report for the same seed: the minimal plateau takes 4 evaluations', async () => {
    const args = ['fuzz', 'termination', plateauOnly, '--json', '--runs', '40', '--seed', '9'];
    const first = await runArena(args);
    const second = await runArena(args);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const report = JSON.parse(first.stdout);
    expect(report.settings).toEqual({
      runs: 40,
      seed: 9,
      maxEvaluations: 50,
      horizon: 50,
      phase: null,
    });
    const plateau = report.reasons.find(
      (finding: { reason: string }) => finding.reason === 'plateau',
    );
    expect(plateau).toMatchObject({ reachable: true, fewestEvaluations: 4, provenMinimal: true });
    expect(plateau.example).toHaveLength(4);
  });

  it('reads the phase of the rules file: an episodes cap makes max_episodes reachable', async () => {
    const capped = path.join(folder, 'capped.yaml');
    writeFileSync(
      capped,
      [
        'agents:',
        '  SAC:',
        '    success: { metric: objective, threshold: 0.8, direction: greater_equal, consecutive: 2, min_evaluations: 3 }',
        'phase: { mode: train, worker: 1, episodes: 10, evaluate_every: 5 }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await runArena([
      'fuzz',
      'termination',
      capped,
      '--runs',
      '30',
      '--require',
      'max_episodes',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('seed 42, 30 runs per search, sequences of up to 2 evaluations');
    expect(stdout).toContain(
      '  success       UNREACHABLE: the rules need at least 3 evaluations, more than the 2 searched',
    );
    expect(stdout).toContain(
      '  max_episodes  reachable in 2 evaluations (phase.episodes 10 allows 2 evaluations (one every 5 episodes); this sequence ends none of the rules before the cap)',
    );
    expect(stdout).toContain('runs forever: no, every sequence ends the phase by evaluation 2');
  });

  it.each([
    [
      ['--metric', 'objective=1:0'],
      'arena: --metric objective=1:0: the low end 1 must be below the high end 0\n',
    ],
    [
      ['--metric', 'loss=0:1'],
      'arena: --metric loss: no rule reads this metric; the rules read objective\n',
    ],
    [
      ['--require', 'victory'],
      'arena: --require victory: expected one of success, plateau, max_episodes\n',
    ],
    [['--runs', 'many'], 'arena: --runs must be an integer, got "many"\n'],
    [
      ['--runs', '1000000000000000'],
      'arena: --runs must be at most 1000000, got "1000000000000000"\n',
    ],
    [
      ['--max-evaluations', '100001'],
      'arena: --max-evaluations must be at most 100000, got "100001"\n',
    ],
    [
      ['--metric', 'PPO.objective=0:2'],
      'arena: --metric PPO.objective: "PPO" is not an agent of the rules (agents: SAC), and no rule reads a metric "PPO.objective"\n',
    ],
    [
      ['--metric', 'SAC.loss=0:2'],
      'arena: --metric SAC.loss: no rule of agent SAC reads loss; its rules read objective\n',
    ],
  ])('exits 2 with one line on bad input %j', async (extra, message) => {
    const { code, stdout, stderr } = await runArena(['fuzz', 'termination', unreachable, ...extra]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(message);
  });

  it('takes one agent’s range: success needs every agent, so one wider range is not enough', async () => {
    const rules = path.join(folder, 'two-agents.yaml');
    const rule =
      '{ metric: objective, threshold: 1.5, direction: greater_equal, consecutive: 1, min_evaluations: 1 }';
    writeFileSync(
      rules,
      ['agents:', '  PPO:', `    success: ${rule}`, '  SAC:', `    success: ${rule}`, ''].join(
        '\n',
      ),
    );
    const fuzz = (...metrics: string[]) =>
      runArena([
        'fuzz',
        'termination',
        rules,
        ...metrics.flatMap((metric) => ['--metric', metric]),
        '--require',
        'success',
        '--runs',
        '30',
      ]);
    const oneWide = await fuzz('objective=0:1', 'SAC.objective=0:2');
    expect(oneWide.stderr).toBe('');
    expect(oneWide.code).toBe(1);
    expect(oneWide.stdout).toContain('metric ranges: objective 0:1, SAC.objective 0:2');
    expect(oneWide.stdout).toContain(
      '  success       UNREACHABLE: agent "PPO" needs objective ≥ 1.5, outside the range 0:1',
    );
    const bothWide = await fuzz('PPO.objective=0:2', 'SAC.objective=0:2');
    expect(bothWide.code).toBe(0);
    expect(bothWide.stdout).toContain('metric ranges: PPO.objective 0:2, SAC.objective 0:2');
    expect(bothWide.stdout).toContain('  success       reachable in 1 evaluation');
    expect(bothWide.stdout).toContain('required reasons reachable: success');
  });

  it('names the rules file and every field of a bad rule set', async () => {
    const bad = path.join(folder, 'bad.yaml');
    writeFileSync(bad, 'agents:\n  SAC:\n    success: { metric: objective }\n');
    const { code, stderr } = await runArena(['fuzz', 'termination', bad]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      [
        `arena: ${bad}: invalid rules file, 4 problems:`,
        '  agents.SAC.success.threshold: missing; it must be a finite number (line 3, column 14)',
        '  agents.SAC.success.direction: missing; it must be greater_equal or less_equal (line 3, column 14)',
        '  agents.SAC.success.consecutive: missing; it must be a positive integer (line 3, column 14)',
        '  agents.SAC.success.min_evaluations: missing; it must be a positive integer (line 3, column 14)',
        '',
      ].join('\n'),
    );
  });
});

describe('arena fuzz termination on a run file', () => {
  let differing: string;
  beforeAll(() => {
    differing = path.join(folder, 'differing.yaml');
    const study = readFileSync('examples/hosting-capacity.yaml', 'utf8');
    const changed = study.replace(
      '- tune: { phase_config: { mode: train, episodes: 60 } }',
      '- tune: { phase_config: { mode: train, episodes: 100, evaluate_every: 5 } }',
    );
    expect(changed).not.toBe(study);
    writeFileSync(differing, changed);
  });

  it("reads the episodes cap from the schedule's train phases: max_episodes is reachable", async () => {
    const { code, stdout, stderr } = await runArena([
      'fuzz',
      'termination',
      'examples/hosting-capacity.yaml',
      '--metric',
      'objective=-500:40',
      '--runs',
      '20',
      '--require',
      'max_episodes',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(
      'phase: episodes 60, evaluate_every 4 (from phases explore_1, explore_2, explore_3, explore_4, explore_5, tune of examples/hosting-capacity.yaml)',
    );
    expect(stdout).toContain(
      '  max_episodes  reachable in 15 evaluations (phase.episodes 60 allows 15 evaluations (one every 4 episodes)',
    );
    expect(stdout).not.toContain('not configured');
  });

  it("assumes a range from the run file's own success threshold and says so, with readable values", async () => {
    // the manual's own suggestion (docs/termination.md), with no --metric
    const { code, stdout, stderr } = await runArena([
      'fuzz',
      'termination',
      'examples/hosting-capacity.yaml',
      '--runs',
      '20',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(
      "metric ranges: objective 0:66 (assumed: twice operator's success threshold 33; give --metric objective=LOW:HIGH)\n",
    );
    expect(stdout).toContain(
      '  success       reachable in 3 evaluations (minimal: the rules need at least 3 evaluations)\n                  operator.objective  0, 33, 33\n',
    );
    expect(stdout).toContain('  max_episodes  reachable in 15 evaluations');
    expect(stdout).not.toContain('UNREACHABLE');
    // every value of every example at most 4 significant digits
    const values = [...stdout.matchAll(/operator\.objective {2}(.*)/g)].flatMap((match) =>
      match[1]!.replace(/, … \(\d+ in all\)$/, '').split(', '),
    );
    expect(values.length).toBeGreaterThan(10);
    for (const value of values) expect(value).toMatch(/^-?\d+(\.\d{1,3})?$/);
  });

  it('asks for --phase when the train phases differ, naming each cap, and exits 2', async () => {
    const { code, stdout, stderr } = await runArena([
      'fuzz',
      'termination',
      differing,
      '--runs',
      '5',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `arena: ${differing}: the train phases differ in episodes or evaluate_every (explore_1: episodes 60, evaluate_every 4; explore_2: episodes 60, evaluate_every 4; explore_3: episodes 60, evaluate_every 4; explore_4: episodes 60, evaluate_every 4; explore_5: episodes 60, evaluate_every 4; tune: episodes 100, evaluate_every 5); choose one with --phase <name>\n`,
    );
  });

  it('fuzzes the phase --phase names', async () => {
    const { code, stdout } = await runArena([
      'fuzz',
      'termination',
      differing,
      '--phase',
      'tune',
      '--runs',
      '5',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { settings: { phase: unknown; horizon: number } };
    expect(report.settings.phase).toEqual({
      episodes: 100,
      evaluateEvery: 5,
      origin: `phase tune of ${differing}`,
    });
    expect(report.settings.horizon).toBe(20);
  });

  it('refuses a --phase that is not a train phase, or given with a rules file, with exit 2', async () => {
    const test = await runArena(['fuzz', 'termination', differing, '--phase', 'test']);
    expect(test.code).toBe(2);
    expect(test.stderr).toBe(
      `arena: --phase test: expected one of the train phases of ${differing}: explore_1, explore_2, explore_3, explore_4, explore_5, tune\n`,
    );
    const rules = await runArena(['fuzz', 'termination', plateauOnly, '--phase', 'tune']);
    expect(rules.code).toBe(2);
    expect(rules.stderr).toBe(
      `arena: --phase tune: ${plateauOnly} is a rules file, not a run file with a schedule of phases\n`,
    );
  });

  it('names the YAML path of a bad run file and exits 2', async () => {
    const broken = path.join(folder, 'broken.yaml');
    writeFileSync(
      broken,
      readFileSync('examples/hosting-capacity.yaml', 'utf8').replace(
        '- explore_2: { phase_config: { mode: train, episodes: 60 } }',
        '- explore_2: { phase_config: { mode: train, episodes: -3 } }',
      ),
    );
    const { code, stdout, stderr } = await runArena(['fuzz', 'termination', broken]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('schedule[1].explore_2.phase_config.episodes');
  });
});
