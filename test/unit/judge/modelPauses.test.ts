import { describe, expect, it } from 'vitest';
import {
  createModelPauses,
  pauseKeyOf,
  pausingProvider,
} from '../../../src/actors/judging/modelPauses.js';
import type { JudgeQueue, ModelPause } from '../../../src/ports/judgeQueue.js';
import {
  type ModelProvider,
  type ModelRequest,
  ProviderAbortedError,
  ProviderRateLimitError,
} from '../../../src/ports/modelProvider.js';

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
      pausingProvider(limited, key, one, () => now).invoke(request(new AbortController().signal)),
    ).rejects.toThrow(ProviderRateLimitError);
    expect(two.pausedUntil(key)).toBe(3_000);
    const calls: number[] = [];
    const fine: ModelProvider = {
      name: 'openai',
      model: 'm',
      invoke: async () => {
        calls.push(now);
        return { content: '{}' };
      },
    };
    const waiting = pausingProvider(fine, key, two, () => now).invoke(
      request(new AbortController().signal),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toEqual([]);
    now = 3_000; // the pause is over: the next look lets the call through
    await waiting;
    expect(calls).toEqual([3_000]);
    one.dispose();
    two.dispose();
  });

  it('a wait is inside the attempt: aborting it (timeout or cancel) rejects as an aborted call, without calling', async () => {
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
    );
    const call = provider.invoke(request(controller.signal));
    controller.abort();
    await expect(call).rejects.toThrow(ProviderAbortedError);
    expect(called).toBe(false);
  });

  it('keeps the later of two pauses, and other models are not paused', () => {
    const pauses = createModelPauses({ now: () => 0 });
    pauses.pause('a', 500);
    pauses.pause('a', 200);
    expect(pauses.pausedUntil('a')).toBe(500);
    expect(pauses.pausedUntil('b')).toBe(0);
  });
});
