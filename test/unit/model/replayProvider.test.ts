import { describe, expect, it } from 'vitest';
import { createReplayProvider } from '../../../src/ports/model/replayProvider.js';

const record = {
  case_id: 'q1',
  content: '{"status":"passed"}',
  usage: { input_tokens: 1_000_000, output_tokens: 500_000 },
};
const request = {
  messages: [],
  responseSchema: {},
  timeoutMs: 1000,
  metadata: { 'arena.evaluation.case_id': 'q1' },
  signal: new AbortController().signal,
};

describe('createReplayProvider', () => {
  it("prices a recorded answer from its usage with the config's price, as a live answer is", async () => {
    const provider = createReplayProvider({
      model: 'm',
      records: [record],
      price: { inputPerMillion: 2, outputPerMillion: 4 },
    });
    expect((await provider.invoke(request as never)).costUsd).toBe(4);
  });

  it('keeps a recorded cost, and has none without a price', async () => {
    const recorded = createReplayProvider({ model: 'm', records: [{ ...record, cost_usd: 0.5 }] });
    expect((await recorded.invoke(request as never)).costUsd).toBe(0.5);
    const unpriced = createReplayProvider({ model: 'm', records: [record] });
    expect((await unpriced.invoke(request as never)).costUsd).toBeNull();
  });

  it('prices a free model at zero, which is known, not unknown', async () => {
    const free = createReplayProvider({
      model: 'm',
      records: [record],
      price: { inputPerMillion: 0, outputPerMillion: 0 },
    });
    expect((await free.invoke(request as never)).costUsd).toBe(0);
  });
});
