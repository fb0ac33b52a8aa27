import { describe, expect, it } from 'vitest';
import { judgeModeOf, parseJudgeConfig } from '../../../src/config/judgeConfig.js';

const base = {
  rubric: { version: '1', text: 'Prefer the right answer.' },
  models: { m: { provider: 'replay', model: 'x', replay_file: 'r.jsonl' } },
};

describe('a pairwise judge in a judge config', () => {
  it('is single unless it says mode: pairwise', () => {
    const config = parseJudgeConfig({
      ...base,
      judge: 'prefer',
      judges: { prefer: { model: 'm', mode: 'pairwise' }, strict: { model: 'm' } },
    });
    expect(judgeModeOf(config)).toBe('pairwise');
    expect(judgeModeOf(config, 'strict')).toBe('single');
    expect(config.judges.strict?.mode).toBe('single');
  });

  it('cannot be a panel member', () => {
    expect(() =>
      parseJudgeConfig({
        ...base,
        judges: { prefer: { model: 'm', mode: 'pairwise' }, strict: { model: 'm' } },
        panels: { duo: { members: ['prefer', 'strict'], rule: 'majority' } },
      }),
    ).toThrow(
      "panels.duo.members.0: judge 'prefer' is pairwise: a panel's members judge single outputs",
    );
  });

  it('refuses a min_win_rate of a system against itself, and a value above 1', () => {
    expect(() =>
      parseJudgeConfig({
        ...base,
        judges: { prefer: { model: 'm', mode: 'pairwise' } },
        gates: { min_win_rate: { system: 'a', against: 'a', value: 0.5 } },
      }),
    ).toThrow('gates.min_win_rate.against: expected another system than system');
    expect(() =>
      parseJudgeConfig({
        ...base,
        judges: { prefer: { model: 'm', mode: 'pairwise' } },
        gates: { min_win_rate: { system: 'a', against: 'b', value: 1.5 } },
      }),
    ).toThrow('gates.min_win_rate.value');
  });
});
