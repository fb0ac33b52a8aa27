import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const rules = 'examples/termination/rules.yaml';
const success = 'examples/termination/success.jsonl';
const plateau = 'examples/termination/plateau.jsonl';

function scratch(files: Record<string, string>): string {
  const dir = scratchFolder('arena-termination-');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('arena termination replay', () => {
  it('replays the success example as an aligned table ending in success', async () => {
    const { code, stdout, stderr } = await runArena(['termination', 'replay', rules, success]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^line\s+agent\s+evaluation\s+status\s+metric\s+smoothed\s+streak\s+patience\s+best\s+decision$/,
    );
    expect(lines[1]).toMatch(
      /^1\s+PPO\s+ppo-0 #0\s+accepted\s+0\.41\s+-\s+0\/2\s+0\/3\s+-\s+CONTINUE$/,
    );
    expect(stdout).toMatch(/\n3\s+PPO\s+ppo-1 #1\s+duplicate/);
    expect(stdout).toMatch(/\n4\s+SAC\s+sac-2 #2\s+invalid/);
    expect(lines.at(-2)).toMatch(/^6\s+SAC\s+sac-4 #4\s+accepted.*STOP_PHASE success$/);
    expect(lines.at(-1)).toBe('final reason: success (line 6)');
    const statusColumn = lines[0]!.indexOf('status');
    expect(lines.slice(1, -1).every((line) => /^\S+\s/.test(line.slice(statusColumn)))).toBe(true);
  });

  it('replays the plateau example, reporting the rejected line and going on', async () => {
    const { code, stdout } = await runArena(['termination', 'replay', rules, plateau]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /\n4\s+rejected: ConflictingDuplicateError: agent "PPO": evaluation "ppo-2" was already recorded with different data\n/,
    );
    expect(stdout).toMatch(/\n5\s+SAC\s+-\s+missing/);
    expect(stdout).toMatch(/\n9\s+not applied: already terminated; STOP_PHASE plateau\n/);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('final reason: plateau (line 8)');
  });

  it('prints JSON lines with --json', async () => {
    const { code, stdout } = await runArena(['termination', 'replay', rules, plateau, '--json']);
    expect(code).toBe(0);
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(10);
    expect(records[3]).toEqual({
      line: 4,
      rejected: {
        name: 'ConflictingDuplicateError',
        code: 'CONFLICTING_DUPLICATE',
        message: 'agent "PPO": evaluation "ppo-2" was already recorded with different data',
      },
    });
    expect(records[7].decision).toMatchObject({ control: 'STOP_PHASE', reason: 'plateau' });
    expect(records.at(-1)).toEqual({ final: { reason: 'plateau', line: 8 } });
  });

  it('accepts the run file condition shape', async () => {
    const dir = scratch({
      'run.yaml': [
        'run_config:',
        '  condition:',
        '    name: arena:EvaluationTermination',
        '    params:',
        '      agents:',
        '        PPO: {success: {metric: objective, threshold: 0.5, direction: greater_equal, consecutive: 1, min_evaluations: 1}}',
      ].join('\n'),
      'log.jsonl':
        '{"outcomes":[{"agentName":"PPO","evaluationId":"a","evaluationEpisode":0,"metrics":{"objective":0.9}}]}\n',
    });
    const { code, stdout } = await runArena([
      'termination',
      'replay',
      path.join(dir, 'run.yaml'),
      path.join(dir, 'log.jsonl'),
    ]);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('final reason: success (line 1)');
  });

  it.each([
    [
      'a bad rule',
      {
        'rules.yaml':
          'agents:\n  SAC:\n    success: {metric: o, threshold: 1, direction: greater_equal, consecutive: true, min_evaluations: 1}\n',
      },
      'rules.yaml: invalid rules file, 1 problem:\n  agents.SAC.success.consecutive: must be a positive integer (booleans are not integers), got true (line 3, column 79)',
    ],
    ['bad YAML', { 'rules.yaml': 'agents: [1\n' }, 'rules.yaml: invalid YAML: '],
    [
      'no agents',
      { 'rules.yaml': 'phase: {mode: train}\n' },
      'rules.yaml: expected an "agents:" mapping (or condition.params.agents), found none',
    ],
    [
      'a bad phase',
      {
        'rules.yaml':
          'agents:\n  SAC:\n    success: {metric: o, threshold: 1, direction: greater_equal, consecutive: 1, min_evaluations: 1}\nphase: {mode: train, worker: 2, evaluate_every: 1}\n',
      },
      'rules.yaml: invalid rules file, 1 problem:\n  phase.worker: must be exactly 1 (evaluation termination supports one worker), got 2 (line 4, column 30)',
    ],
    [
      'several problems, in the run file shape',
      {
        'rules.yaml':
          'run_config:\n  condition:\n    params:\n      agents:\n        SAC:\n          success: {metric: o, threshold: 1, direction: sideways, consecutive: 1, min_evaluations: 1}\n        PPO:\n          plateu: {}\n',
      },
      'rules.yaml: invalid rules file, 3 problems:\n' +
        '  run_config.condition.params.agents.SAC.success.direction: must be greater_equal or less_equal, got "sideways" (line 6, column 57)\n' +
        '  run_config.condition.params.agents.PPO: success is missing; a success rule must be configured for every agent or no agent (line 8, column 11)\n' +
        '  run_config.condition.params.agents.PPO.plateu: unknown rule; did you mean "plateau"? (expected success and/or plateau) (line 8, column 19)',
    ],
  ])('exits 2 with a clear message for %s', async (_label, files, message) => {
    const dir = scratch({ ...files, 'log.jsonl': '' });
    const { code, stdout, stderr } = await runArena([
      'termination',
      'replay',
      path.join(dir, 'rules.yaml'),
      path.join(dir, 'log.jsonl'),
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(message.split('\n').length);
    expect(stderr).toContain(
      `arena: ${path.join(dir, message.split(':')[0]!)}:${message.slice(message.indexOf(':') + 1)}`,
    );
  });

  it('exits 2 naming the line of bad JSON in the checkpoint log', async () => {
    const dir = scratch({ 'log.jsonl': '{"outcomes":[]}\n{"outcomes": [}\n' });
    const { code, stderr } = await runArena([
      'termination',
      'replay',
      rules,
      path.join(dir, 'log.jsonl'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^arena: ${path.join(dir, 'log.jsonl')}:2: invalid JSON: `));
  });

  it('exits 2 when a file cannot be read', async () => {
    const { code, stderr } = await runArena([
      'termination',
      'replay',
      'no/such/rules.yaml',
      success,
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe('arena: cannot read no/such/rules.yaml: no such file\n');
  });
});
