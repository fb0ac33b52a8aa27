import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  configurationFingerprint,
  createTerminationState,
  fromStateDict,
  parseTerminationConfig,
  toStateDict,
} from '../../../src/domain/termination/index.js';
import { pythonFloat } from '../../../src/domain/termination/seedFingerprint.js';

// Each expected value is what the seed computes: Python's
// json.dumps(configuration, sort_keys=True, separators=(",", ":")) and its sha256.
const thresholdOne = parseTerminationConfig({
  agents: {
    SAC: {
      success: {
        metric: 'objective',
        threshold: 1,
        direction: 'greater_equal',
        consecutive: 2,
        min_evaluations: 3,
      },
    },
  },
});

describe("the seed's configuration fingerprint", () => {
  it('writes threshold: 1 as Python does (1.0), so the fingerprint is the seed’s', () => {
    expect(configurationFingerprint(thresholdOne)).toBe(
      '45332db3c52499e49a83421f9f6fee21cb0e19889293665dc488e8e59ff8a22f',
    );
  });

  it('matches the seed with floats in exponent form, zero min_delta and non-ASCII names', () => {
    const config = parseTerminationConfig({
      agents: {
        é: {
          success: {
            metric: 'obj€ctive',
            threshold: 33,
            direction: 'greater_equal',
            consecutive: 2,
            min_evaluations: 3,
          },
          plateau: {
            metric: 'objective',
            direction: 'maximize',
            min_delta: 0.25,
            patience: 4,
            min_evaluations: 4,
            window: 2,
          },
        },
        B: {
          success: {
            metric: 'loss',
            threshold: 0.00001,
            direction: 'less_equal',
            consecutive: 1,
            min_evaluations: 1,
          },
          plateau: {
            metric: 'loss',
            direction: 'minimize',
            min_delta: 0,
            patience: 1,
            min_evaluations: 1,
            window: 1,
          },
        },
      },
    });
    expect(configurationFingerprint(config)).toBe(
      'e0c9f52c3a437a86eb5c1173a8ca8a0832b1c63b1dff9eee66c7895f125abca8',
    );
  });

  it("writes every float as Python's repr does", () => {
    const values = [
      33,
      1,
      0.8,
      1e-5,
      0.0001,
      1e16,
      1e15,
      1.5e-7,
      123456789012345680,
      -0,
      0.1 + 0.2,
    ];
    expect(values.map(pythonFloat)).toEqual([
      '33.0',
      '1.0',
      '0.8',
      '1e-05',
      '0.0001',
      '1e+16',
      '1000000000000000.0',
      '1.5e-07',
      '1.2345678901234568e+17',
      '-0.0',
      '0.30000000000000004',
    ]);
  });

  it('still restores a state dict saved with the fingerprint arena wrote before (1, not 1.0)', () => {
    const saved = toStateDict(createTerminationState(thresholdOne));
    const earlier = createHash('sha256')
      .update(
        '{"plateau":{"SAC":null},"success":{"SAC":{"consecutive":2,"direction":"greater_equal","metric":"objective","min_evaluations":3,"threshold":1}}}',
      )
      .digest('hex');
    const restored = fromStateDict(thresholdOne, { ...saved, configuration_fingerprint: earlier });
    expect(toStateDict(restored)).toEqual(saved);
  });
});
