import { describe, expect, it } from 'vitest';
import { judgeFingerprintOf } from '../../../src/actors/judging/judgeFingerprintOf.js';
import { loadJudgeConfig, parseJudgeConfig } from '../../../src/config/judgeConfig.js';
import { changedParts, joinParts } from '../../../src/domain/judge/fingerprint.js';

const base = {
  rubric: { version: '2026-01', text: 'Pass a correct answer.' },
  models: {
    local: {
      provider: 'openai',
      model: 'llama3.1:8b',
      base_url: 'http://user:secret@127.0.0.1:11434/v1',
      api_key_env: 'OLLAMA_KEY',
    },
  },
  judges: { strict: { model: 'local' } },
};
const configWith = (change: (copy: typeof base & Record<string, unknown>) => void) => {
  const copy = structuredClone(base) as typeof base & Record<string, unknown>;
  change(copy);
  return parseJudgeConfig(copy);
};

describe('the judge fingerprint', () => {
  it('is the same for the same config and shown as name@12 hex', () => {
    const first = judgeFingerprintOf(parseJudgeConfig(base));
    const again = judgeFingerprintOf(parseJudgeConfig(structuredClone(base)));
    expect(again.digest).toBe(first.digest);
    expect(first.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(first.label).toBe(`strict@${first.digest.slice(0, 12)}`);
  });

  it('holds no key, no key name and no URL', () => {
    const parts = JSON.stringify(judgeFingerprintOf(parseJudgeConfig(base)).parts);
    expect(parts).not.toContain('secret');
    expect(parts).not.toContain('11434');
    expect(parts).not.toContain('OLLAMA_KEY');
    const moved = configWith((c) => {
      c.models.local.base_url = 'http://127.0.0.1:8080/v1';
      c.models.local.api_key_env = 'OTHER';
    });
    expect(judgeFingerprintOf(moved).digest).toBe(
      judgeFingerprintOf(parseJudgeConfig(base)).digest,
    );
  });

  it.each([
    [
      'one word of the rubric',
      (c: typeof base) => Object.assign(c.rubric, { text: 'Pass a right answer.' }),
      ['the rubric'],
    ],
    [
      'the rubric version',
      (c: typeof base) => Object.assign(c.rubric, { version: '2026-02' }),
      ['the rubric'],
    ],
    [
      'the model',
      (c: typeof base) => Object.assign(c.models.local, { model: 'qwen2.5:7b' }),
      ['the model'],
    ],
    [
      'the provider name',
      (c: typeof base) => Object.assign(c.models.local, { provider_name: 'vllm' }),
      ['the provider'],
    ],
    [
      'the judge version',
      (c: typeof base) => Object.assign(c.judges.strict, { judge_version: '2' }),
      ['the judge version'],
    ],
    [
      'the output cap',
      (c: typeof base) => Object.assign(c.models.local, { max_output_tokens: 200 }),
      ['the output cap'],
    ],
    [
      'the model and the rubric',
      (c: typeof base) => {
        c.models.local.model = 'qwen2.5:7b';
        c.rubric.text = 'Pass a right answer.';
      },
      ['the model', 'the rubric'],
    ],
  ])('changes with %s, and says which part changed', (_what, change, parts) => {
    const before = judgeFingerprintOf(parseJudgeConfig(base));
    const after = judgeFingerprintOf(configWith(change));
    expect(after.digest).not.toBe(before.digest);
    expect(changedParts(before.parts, after.parts)).toEqual(parts);
  });

  it('does not change with what decides no verdict: timeouts, attempts, prices', () => {
    const before = judgeFingerprintOf(parseJudgeConfig(base));
    const after = judgeFingerprintOf(
      configWith((c) => {
        Object.assign(c.judges.strict, { timeout_seconds: 5, max_attempts: 4 });
        c.prices = { 'llama3.1:8b': { input_per_million: 1, output_per_million: 2 } };
      }),
    );
    expect(after.digest).toBe(before.digest);
    expect(changedParts(before.parts, after.parts)).toEqual([]);
  });

  it("makes a panel's from its rule and its members' fingerprints", () => {
    const { config } = loadJudgeConfig('examples/judge/panel.yaml');
    const panel = judgeFingerprintOf(config);
    expect(panel.judgeName).toBe('trio');
    const members = Object.keys(panel.parts.panel!.members);
    expect(members.length).toBeGreaterThanOrEqual(2);
    const first = members[0]!;
    expect(panel.parts.panel!.members[first]).toBe(judgeFingerprintOf(config, first).digest);
    const changed = structuredClone(config);
    const memberModel = changed.judges[first]!.model!;
    changed.models[memberModel]!.model = 'another-model';
    const after = judgeFingerprintOf(changed);
    expect(changedParts(panel.parts, after.parts)).toEqual(['the panel members']);
  });

  it("makes a pairwise judge's from its own prompt template and response format: a single judge's calibration is not its", () => {
    const { config } = loadJudgeConfig('examples/judge/pairwise.yaml');
    const pairwise = judgeFingerprintOf(config);
    expect(pairwise.parts.promptTemplate.version).toBe('arena-pairwise-v1');
    expect(pairwise.parts.promptTemplate.candidate).toContain('"first":"{{first}}"');
    const single = structuredClone(config);
    single.judges.prefer!.mode = 'single';
    const before = judgeFingerprintOf(single);
    expect(before.digest).not.toBe(pairwise.digest);
    expect(changedParts(before.parts, pairwise.parts)).toEqual([
      'the prompt template',
      'the response format',
    ]);
  });

  it('joins changed parts as a sentence says them', () => {
    expect(joinParts(['the rubric'])).toBe('the rubric');
    expect(joinParts(['the model', 'the rubric'])).toBe('the model and the rubric');
    expect(joinParts(['the provider', 'the model', 'the rubric'])).toBe(
      'the provider, the model and the rubric',
    );
  });
});
