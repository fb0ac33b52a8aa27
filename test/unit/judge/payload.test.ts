import { describe, expect, it } from 'vitest';
import { JudgeResponseError } from '../../../src/domain/judge/errors.js';
import {
  judgePayloadJsonSchema,
  parseJudgePayload,
  readJudgePayload,
} from '../../../src/domain/judge/payload.js';

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

  it.each([
    [{ status: 'pass', score: 1 }, 'status: expected passed, failed or skipped, got "pass"'],
    [
      { status: 'passed' },
      'score: missing, expected a finite number when status is passed; label: missing, expected a string of 1 to 128 characters when status is passed',
    ],
    [
      { ...valid, score: '1' },
      'score: expected a finite number or null, got a string of 1 character',
    ],
    [
      { ...valid, extra: 1, more: 2 },
      '(root): 2 unexpected keys (expected only status, score, label, explanation, evidence)',
    ],
    [
      { ...valid, label: 'x'.repeat(129) },
      'label: expected a string of 1 to 128 characters, or null, got a string of 129 characters',
    ],
    [
      { ...valid, evidence: null },
      'evidence: expected a list of at most 64 strings (absent is none), got null',
    ],
    [
      { ...valid, evidence: ['', 5] },
      'evidence.0: expected a non-empty string of at most 8192 UTF-8 bytes, got an empty string; evidence.1: expected a non-empty string of at most 8192 UTF-8 bytes, got 5',
    ],
    [
      [],
      '(root): expected a JSON object with status, score, label, explanation, evidence, got a list of 0 items',
    ],
  ])('says in one line which field is wrong and by which rule: %j', (payload, detail) => {
    expect(readJudgePayload(JSON.stringify(payload))).toEqual({ payload: null, problem: detail });
    expect(() => parseJudgePayload(JSON.stringify(payload))).toThrow(
      `judge response failed validation: ${detail}`,
    );
  });

  it('describes a body that is not JSON by its length, never its text', () => {
    expect(readJudgePayload('pass!')).toEqual({
      payload: null,
      problem: 'not valid JSON (5 characters)',
    });
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
