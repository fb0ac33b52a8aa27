import { describe, expect, it } from 'vitest';
import { parseJudgeConfig } from '../../../src/config/judgeConfig.js';
import { sequentialGateSpecs } from '../../../src/config/sequentialGateConfig.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';

const base = {
  rubric: { version: '1', text: 'r' },
  models: { m: { provider: 'replay', model: 'x', replay_file: 'r.jsonl' } },
  judges: { strict: { model: 'm' } },
};

describe('gates.sequential', () => {
  it('decides min_pass_rate at its alpha', () => {
    const config = parseJudgeConfig({
      ...base,
      gates: { min_pass_rate: 0.8, sequential: { alpha: 0.05 } },
    });
    expect(sequentialGateSpecs(config, 'strict')).toEqual({
      alpha: 0.05,
      specs: [{ gate: 'min_pass_rate', threshold: 0.8 }],
    });
  });

  it('is absent without gates.sequential', () => {
    const config = parseJudgeConfig({ ...base, gates: { min_pass_rate: 0.8 } });
    expect(sequentialGateSpecs(config, 'strict')).toBeNull();
  });

  it('decides min_mean_score over the judge’s declared score_range', () => {
    const config = parseJudgeConfig({
      ...base,
      judges: { strict: { model: 'm', score_range: [0, 10] } },
      gates: { min_mean_score: 7, sequential: { alpha: 0.01 } },
    });
    expect(sequentialGateSpecs(config, 'strict')?.specs).toEqual([
      { gate: 'min_mean_score', threshold: 7, scoreRange: [0, 10] },
    ]);
  });

  it('refuses a sequential score gate without a declared range, naming the YAML path to declare', () => {
    const config = parseJudgeConfig({
      ...base,
      gates: { min_mean_score: 0.7, sequential: { alpha: 0.05 } },
    });
    expect(() => sequentialGateSpecs(config, 'strict', 'judge.yaml')).toThrow(
      new JudgeConfigurationError(
        "judge.yaml: gates.min_mean_score: a sequential score gate needs the scores' range: declare judges.strict.score_range: [lo, hi]",
      ),
    );
  });

  it('refuses a score threshold outside the declared range', () => {
    const config = parseJudgeConfig({
      ...base,
      judges: { strict: { model: 'm', score_range: [0, 1] } },
      gates: { min_mean_score: 1, sequential: { alpha: 0.05 } },
    });
    expect(() => sequentialGateSpecs(config, 'strict')).toThrow(
      /gates\.min_mean_score: with gates\.sequential, expected a score strictly inside judges\.strict\.score_range \[0, 1\], got 1/,
    );
  });

  it.each([
    [{ sequential: { alpha: 0.05 } }, 'gates.sequential: decides min_pass_rate or min_mean_score'],
    [
      { min_pass_rate: 0.8, sequential: { alpha: 0 } },
      'gates.sequential.alpha: expected a probability strictly between 0 and 1, got number 0',
    ],
    [
      { min_pass_rate: 0.8, sequential: { alpha: 1.5 } },
      'gates.sequential.alpha: expected a probability',
    ],
    [
      { min_pass_rate: 1, sequential: { alpha: 0.05 } },
      'gates.min_pass_rate: with gates.sequential, expected a rate strictly between 0 and 1, got 1',
    ],
    [
      { min_pass_rate: 0.8, sequential: { alpha: 0.05, beta: 1 } },
      'gates.sequential: Unrecognized key: "beta"',
    ],
  ])('refuses %j with the path and what was expected', (gates, message) => {
    expect(() => parseJudgeConfig({ ...base, gates })).toThrow(message);
  });

  it('refuses a score_range whose bottom is not below its top', () => {
    expect(() =>
      parseJudgeConfig({ ...base, judges: { strict: { model: 'm', score_range: [1, 1] } } }),
    ).toThrow('judges.strict.score_range: expected [lo, hi] with lo below hi');
  });
});
