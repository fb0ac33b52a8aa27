import { describe, expect, it } from 'vitest';
import { judgeFromConfig } from '../../../src/actors/judging/judgeFromConfig.js';
import { isJudgePanel } from '../../../src/actors/judging/judgePanel.js';
import { modelJudgeFromConfig } from '../../../src/actors/judging/judges.js';
import {
  loadJudgeConfig,
  parseJudgeConfig,
  selectedPanelName,
} from '../../../src/config/judgeConfig.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import { repoRoot } from '../../support/cli.js';

const base = {
  rubric: { version: '1', text: 'Be strict.' },
  models: {
    local: { provider: 'openai', model: 'llama3.1:8b', base_url: 'http://127.0.0.1:9/v1' },
  },
  judges: { a: { model: 'local' }, b: { model: 'local' }, c: { model: 'local' } },
};

function configWith(panel: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { ...base, judge: 'trio', panels: { trio: panel }, ...extra };
}

function errorOf(value: unknown): string {
  try {
    parseJudgeConfig(value);
  } catch (error) {
    expect(error).toBeInstanceOf(JudgeConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a JudgeConfigurationError');
}

describe('judge config panels', () => {
  it('accepts a panel and selects it with judge:', () => {
    const config = parseJudgeConfig(
      configWith({ members: ['a', 'b', 'c'], rule: 'majority' }, { gates: { min_agreement: 0.4 } }),
    );
    expect(config.panels.trio).toEqual({
      members: ['a', 'b', 'c'],
      rule: 'majority',
      judge_version: '1',
    });
    expect(config.gates.min_agreement).toBe(0.4);
    expect(selectedPanelName(config)).toBe('trio');
    expect(selectedPanelName(config, 'a')).toBeUndefined();
  });

  it.each([
    [
      { members: ['a'], rule: 'majority' },
      'panels.trio.members: expected a list of at least two judges',
    ],
    [
      { members: ['a', 'x'], rule: 'majority' },
      "panels.trio.members.1: unknown judge 'x' (known: a, b, c)",
    ],
    [
      { members: ['a', 'b', 'a'], rule: 'majority' },
      "panels.trio.members.2: judge 'a' is already a member",
    ],
    [{ members: ['a', 'b'], rule: 'plurality' }, 'panels.trio.rule: Invalid option'],
    [
      { members: ['a', 'b'], rule: 'majority', min_votes: 3 },
      'panels.trio.min_votes: expected at most the 2 members, got 3',
    ],
    [{ members: ['a', 'b'], rule: 'majority', min_votes: 0 }, 'panels.trio.min_votes'],
    [
      { members: ['a', 'b'], rule: 'mean_score' },
      'panels.trio.threshold: required: the mean_score rule',
    ],
    [
      { members: ['a', 'b'], rule: 'unanimous', threshold: 0.5 },
      'panels.trio.threshold: only the mean_score rule takes a threshold, not unanimous',
    ],
    [
      { members: ['a', 'b'], rule: 'majority', quorum: 2 },
      'panels.trio: Unrecognized key: "quorum"',
    ],
  ])('names the YAML path of a bad panel %j', (panel, message) => {
    expect(errorOf(configWith(panel))).toContain(message);
  });

  it('rejects a panel named like a judge, an unknown judge: and a min_agreement out of range', () => {
    expect(
      errorOf({ ...base, panels: { a: { members: ['b', 'c'], rule: 'majority' } } }),
    ).toContain("panels.a: a panel cannot share its name with judge 'a'");
    expect(errorOf({ ...base, judge: 'nobody' })).toContain(
      "judge: unknown judge or panel 'nobody'",
    );
    expect(
      errorOf(
        configWith({ members: ['a', 'b'], rule: 'majority' }, { gates: { min_agreement: 2 } }),
      ),
    ).toContain('gates.min_agreement');
  });

  it('builds the panel of the shipped example from judge: trio, and refuses it as a model judge', async () => {
    const { config, baseDir } = loadJudgeConfig(`${repoRoot}/examples/judge/panel.yaml`);
    const judge = await judgeFromConfig(config, { baseDir });
    expect(isJudgePanel(judge)).toBe(true);
    if (!isJudgePanel(judge)) return;
    expect(judge.settings.name).toBe('trio');
    expect(judge.members.map((member) => member.settings.name)).toEqual([
      'strict',
      'lenient',
      'pedantic',
    ]);
    expect(judge.members.map((member) => member.settings.maxAttempts)).toEqual([2, 2, 3]);
    expect(judge.rule).toEqual({ rule: 'majority', minVotes: 2, threshold: null });
    expect(() => modelJudgeFromConfig(config, { baseDir })).toThrow(
      'trio is a panel, not a judge profile: build it with judgeFromConfig',
    );
    const single = await judgeFromConfig(config, { baseDir, name: 'lenient' });
    expect(isJudgePanel(single)).toBe(false);
  });

  it('defaults min_votes to a majority of the members', async () => {
    const config = parseJudgeConfig(configWith({ members: ['a', 'b', 'c'], rule: 'unanimous' }));
    const panel = await judgeFromConfig(config);
    expect(isJudgePanel(panel) && panel.rule.minVotes).toBe(2);
  });
});
