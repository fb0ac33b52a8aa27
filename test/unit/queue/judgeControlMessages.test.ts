import { describe, expect, it } from 'vitest';
import {
  checkControlMessage,
  modelPauseMessage,
  runCancelMessage,
} from '../../../src/ports/queue/judgeControlMessages.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('checkControlMessage', () => {
  it('takes a well-formed pause or cancel, from text or bytes, and keeps only the fields it names', () => {
    expect(
      checkControlMessage(modelPauseMessage, bytes('{"key":"k m","untilMs":1.5,"extra":true}')),
    ).toEqual({ ok: true, value: { key: 'k m', untilMs: 1.5 } });
    expect(checkControlMessage(runCancelMessage, '{"evaluationRunId":"strict-1"}')).toEqual({
      ok: true,
      value: { evaluationRunId: 'strict-1' },
    });
  });

  it('drops what is not a JSON object, naming why', () => {
    expect(checkControlMessage(runCancelMessage, 'not json')).toEqual({
      ok: false,
      reason: 'not JSON',
    });
    for (const body of ['null', '[]', '"strict-1"', '5'])
      expect(checkControlMessage(runCancelMessage, body)).toEqual({
        ok: false,
        reason: 'message: expected an object',
      });
  });

  it('drops a pause whose time no timer could reach or is no number, and a key that is no id', () => {
    const untilMs = 'untilMs: expected a number from 0 to 9007199254740991';
    for (const body of [
      '{"key":"k","untilMs":-5}',
      '{"key":"k","untilMs":1e308}',
      '{"key":"k","untilMs":"1000"}',
      '{"key":"k","untilMs":null}',
      '{"key":"k"}',
    ])
      expect(checkControlMessage(modelPauseMessage, body)).toEqual({ ok: false, reason: untilMs });
    const key = 'key: expected a string of 1 to 2048 characters';
    for (const body of [
      '{"key":"","untilMs":1}',
      `{"key":"${'k'.repeat(2049)}","untilMs":1}`,
      '{"key":5,"untilMs":1}',
      '{"untilMs":1}',
    ])
      expect(checkControlMessage(modelPauseMessage, body)).toEqual({ ok: false, reason: key });
    expect(
      checkControlMessage(modelPauseMessage, `{"key":"${'k'.repeat(2048)}","untilMs":0}`).ok,
    ).toBe(true);
  });

  it('reads a field the message inherits as missing, not as held', () => {
    expect(checkControlMessage(runCancelMessage, '{"__proto__":{"evaluationRunId":"x"}}')).toEqual({
      ok: false,
      reason: 'evaluationRunId: expected a string of 1 to 2048 characters',
    });
  });
});
