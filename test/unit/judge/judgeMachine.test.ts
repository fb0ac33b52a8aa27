import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { JudgeSettings } from '../../../src/domain/judge/settings.js';
import { MAX_TIMER_MS } from '../../../src/domain/judge/settings.js';
import { judgeMachine, type ProviderCallInput } from '../../../src/machines/judge.js';
import type { ModelResponse } from '../../../src/ports/model/modelProvider.js';
import { PASSED, subject } from './fixtures.js';

describe('judge machine timers', () => {
  it('never asks for a timer longer than 2^31 - 1 ms, even with hand-built settings', async () => {
    const settings: JudgeSettings = {
      name: 'accuracy',
      judgeVersion: '1',
      rubric: 'Be strict.',
      rubricVersion: '1',
      timeoutMs: 3_000_000_000,
      maxAttempts: 1,
      allowSelfEvaluation: false,
      maxInputTokens: null,
      maxCostUsd: null,
      backoff: null,
    };
    const delays: number[] = [];
    const timers = {
      setTimeout: (callback: () => void, delayMs: number) => {
        delays.push(delayMs);
        return setTimeout(callback, Math.min(delayMs, 1000));
      },
      clearTimeout: (id: unknown) => clearTimeout(id as NodeJS.Timeout),
    };
    const machine = judgeMachine.provide({
      actors: {
        invokeProvider: fromPromise<ModelResponse, ProviderCallInput>(async () => ({
          content: PASSED,
        })),
      },
    });
    const actor = createActor(machine, {
      input: {
        subject: subject(),
        settings,
        model: 'judge-model',
        selfEvaluation: false,
        clock: { now: () => new Date(0), monotonicMs: () => 0 },
        random: () => 0,
      },
      clock: timers,
    });
    const done = new Promise<void>((resolve) => actor.subscribe({ complete: resolve }));
    actor.start();
    await done;
    expect(actor.getSnapshot().output).toMatchObject({ status: 'passed' });
    expect(delays).toEqual([MAX_TIMER_MS]);
  });
});
