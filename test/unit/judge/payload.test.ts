import { describe, expect, it } from 'vitest';
import { JudgeResponseError } from '../../../src/domain/judge/errors.js';
import { judgePayloadJsonSchema, parseJudgePayload } from '../../../src/domain/judge/payload.js';

const valid = { status: 'passed', score: 0.9, label: 'good', explanation: 'fine', evidence: ['a'] };

describe('judge payload', () => {
  it('accepts a complete passed payload and fills missing optional fields', () => {
    expect(parseJudgePayload(JSON.stringify(valid))).toEqual(valid);
    expect(parseJudgePayload('{"status":"skipped"}')).toEqual({
      status: 'skipped',
      score: null,
      label: null,
      explanation: null,
      evidence: [],
    });
  });

  it('rejects null evidence, as the seed does, and reads absent or empty evidence as none', () => {
    expect(() => parseJudgePayload(JSON.stringify({ ...valid, evidence: null }))).toThrow(
      /judge response failed validation: evidence: /,
    );
    expect(parseJudgePayload(JSON.stringify({ ...valid, evidence: [] })).evidence).toEqual([]);
    const { evidence: _, ...withoutEvidence } = valid;
    expect(parseJudgePayload(JSON.stringify(withoutEvidence)).evidence).toEqual([]);
  });

  it.each([
    ['extra keys', { ...valid, extra: 1 }],
    ['passed without score', { status: 'passed', label: 'x' }],
    ['failed without label', { status: 'failed', score: 0 }],
    ['unknown status', { ...valid, status: 'maybe' }],
    ['empty label', { ...valid, label: '' }],
    ['long label', { ...valid, label: 'x'.repeat(129) }],
    ['long explanation', { ...valid, explanation: 'x'.repeat(8193) }],
    ['empty evidence value', { ...valid, evidence: [''] }],
    ['evidence over 8192 UTF-8 bytes', { ...valid, evidence: ['é'.repeat(4097)] }],
    ['65 evidence values', { ...valid, evidence: Array.from({ length: 65 }, () => 'e') }],
    ['a string score', { ...valid, score: '1' }],
  ])('rejects %s', (_, payload) => {
    expect(() => parseJudgePayload(JSON.stringify(payload))).toThrow(JudgeResponseError);
  });

  it('rejects a NaN score and a non-JSON body', () => {
    expect(() => parseJudgePayload('{"status":"passed","score":NaN,"label":"x"}')).toThrow(
      /not valid JSON/,
    );
    expect(() => parseJudgePayload('')).toThrow(JudgeResponseError);
  });

  it('never repeats the raw output or unexpected key names in its error', () => {
    const secret = 'SECRET-PROMPT-INJECTION';
    for (const raw of [
      `not json ${secret}`,
      JSON.stringify({ ...valid, [secret]: 1 }),
      JSON.stringify({ ...valid, status: secret }),
    ]) {
      expect(() => parseJudgePayload(raw)).toThrow(JudgeResponseError);
      try {
        parseJudgePayload(raw);
      } catch (error) {
        expect(String((error as Error).message)).not.toContain(secret);
      }
    }
  });

  it('publishes a strict JSON Schema: every property required, no extras, evidence an array', () => {
    const schema = judgePayloadJsonSchema;
    expect(schema.additionalProperties).toBe(false);
    expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
    for (const [name, property] of Object.entries(schema.properties)) {
      if (name === 'status' || name === 'evidence') continue;
      expect(property.type).toContain('null');
    }
    expect(schema.properties.evidence.type).toBe('array');
  });
});
