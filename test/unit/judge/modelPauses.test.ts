import { describe, expect, it, vi } from 'vitest';
import {
  createModelPauses,
  maxHeldPauses,
  pauseKeyOf,
  pausingProvider,
} from '../../../src/actors/judging/modelPauses.js';
import {
  type ModelProvider,
  type ModelRequest,
  ProviderAbortedError,
  ProviderRateLimitError,
} from '../../../src/ports/model/modelProvider.js';
import type { JudgeQueue, ModelPause } from '../../../src/ports/queue/judgeQueue.js';

/** The pause half of a judge queue, shared by the boards given it: what NATS carries between workers. */
function pauseBus(): Pick<JudgeQueue, 'announcePause' | 'onPause'> {
  const listeners = new Set<(pause: ModelPause) => void>();
  return {
    announcePause: (pause) => {
      for (const listener of listeners) listener(pause);
    },
    onPause: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const request = (signal: AbortSignal): ModelRequest => ({
  messages: [],
  responseSchema: { name: 'x', schema: {} } as unknown as ModelRequest['responseSchema'],
  temperature: 0,
  timeoutMs: 1000,
  metadata: {},
  signal,
});

describe('model pauses shared by a fleet', () => {
  it('a 429 with retry-after met by one worker makes another worker wait before it calls', async () => {
    let now = 1_000;
    const bus = pauseBus() as JudgeQueue;
    const [one, two] = [
      createModelPauses({ queue: bus, now: () => now }),
      createModelPauses({ queue: bus, now: () => now }),
    ];
    const limited: ModelProvider = {
      name: 'openai',
      model: 'm',
      invoke: async () => {
        throw new ProviderRateLimitError('slow down', { retryAfterMs: 2000 });
      },
    };
    const key = pauseKeyOf({ base_url: 'http://127.0.0.1:1/v1', model: 'm' });
    await expect(
      pausingProvider(limited, key, one, { capMs: 4000, now: () => now }).invoke(
        request(new AbortController().signal),
      ),
    ).rejects.toThrow(ProviderRateLimitError);
    expect(two.pausedUntil(key, 4000)).toBe(3_000);
    const calls: number[] = [];
    const fine: ModelProvider = {
      name: 'openai',
      model: 'm',
      invoke: async () => {
        calls.push(now);
        return { content: '{}' };
      },
    };
    const provider = pausingProvider(fine, key, two, { capMs: 4000, now: () => now });
    // the judge waits for the model before the attempt (and its timeout) starts, then calls
    const signal = new AbortController().signal;
    const waiting = (provider.ready?.(signal) ?? Promise.resolve()).then(() =>
      provider.invoke(request(signal)),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toEqual([]);
    now = 3_000; // the pause is over: the next look lets the call through
    await waiting;
    expect(calls).toEqual([3_000]);
    one.dispose();
    two.dispose();
  });

  it('a wait comes before the attempt: aborting it (a cancel) rejects as an aborted call, without calling', async () => {
    const pauses = createModelPauses();
    pauses.pause('k', Date.now() + 60_000);
    const controller = new AbortController();
    let called = false;
    const provider = pausingProvider(
      {
        name: 'p',
        model: 'm',
        invoke: async () => {
          called = true;
          return { content: '' };
        },
      },
      'k',
      pauses,
      { capMs: 120_000 },
    );
    const call = provider.ready?.(controller.signal);
    controller.abort();
    await expect(call).rejects.toThrow(ProviderAbortedError);
    expect(called).toBe(false);
  });

  it('the latest pause for a model wins, even a shorter one, and other models are not paused', () => {
    const pauses = createModelPauses({ now: () => 0 });
    pauses.pause('a', 500);
    pauses.pause('a', 200);
    expect(pauses.pausedUntil('a', 4000)).toBe(200);
    expect(pauses.pausedUntil('b', 4000)).toBe(0);
  });

  it('a pause lasts at most the back-off cap from its arrival, and none for a judge without back-off', () => {
    const pauses = createModelPauses({ now: () => 1_000 });
    pauses.pause('a', 1_000 + 1e12);
    expect(pauses.pausedUntil('a', 4000)).toBe(5_000);
    expect(pauses.pausedUntil('a', 0)).toBe(1_000);
  });

  it('repeating a pause does not extend it: a pause every 2 s for a minute pauses a model for at most the cap in each window of 4 caps', async () => {
    let now = 0;
    const pauses = createModelPauses({ now: () => now });
    const capMs = 4000;
    // a judge with this cap has waited on the board: its windows are 4 caps long
    await pauses.waitFor('other', capMs, new AbortController().signal);
    let pausedMs = 0;
    for (now = 0; now < 60_000; now += 100) {
      if (now % 2000 === 0) pauses.pause('m', now + 1e9);
      if (pauses.pausedUntil('m', capMs) > now) pausedMs += 100;
    }
    // windows start at 0, 16 s, 32 s and 48 s: 4 s paused in each, 16 s in all (a quarter of the minute)
    expect(pausedMs).toBe(16_000);
  });

  it('forgets a pause once it has ended, and holds at most maxHeldPauses', async () => {
    let now = 0;
    const pauses = createModelPauses({ now: () => now });
    for (let index = 0; index < maxHeldPauses + 10; index++) pauses.pause(`m${index}`, 1e15);
    expect(pauses.heldCount()).toBe(maxHeldPauses);
    // once a judge (cap 4 s) has waited on the board, a pause ends 4 s after it came at the latest,
    // and is forgotten once its window (4 caps) is over: forgotten sooner, a repeat would open a new one
    await pauses.waitFor('other', 4000, new AbortController().signal);
    now = 4_000;
    expect(pauses.pausedUntil('m1030', 4000)).toBe(4_000);
    now = 16_000;
    expect(pauses.heldCount()).toBe(0);
  });

  it('a forged pause of 10^12 ms costs one wait of the cap, on one timer that never overflows', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const pauses = createModelPauses();
    pauses.pause('k', Date.now() + 1e12);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await pauses.waitFor('k', 200, new AbortController().signal);
    const delays = timers.mock.calls.map((call) => call[1]);
    timers.mockRestore();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
    expect(delays.length).toBeLessThanOrEqual(2);
    expect(delays.every((delay) => (delay ?? 0) <= 200)).toBe(true);
    expect(pauses.pausedUntil('k', 200)).toBeLessThanOrEqual(Date.now());
  });
});
