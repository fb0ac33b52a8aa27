import { describe, expect, it } from 'vitest';
import { casesOfMessage, messagesForCap } from '../../../src/ports/queue/caseBatches.js';
import type { QueueDelivery } from '../../../src/ports/queue/runQueue.js';

/** A message that records what reached the server. */
function recordingMessage(options: { failAcks?: number } = {}) {
  const told: string[] = [];
  let failAcks = options.failAcks ?? 0;
  const message: QueueDelivery = {
    deliveryCount: 2,
    working: () => told.push('working'),
    ack: async () => {
      if (failAcks-- > 0) throw new Error('connection lost');
      told.push('ack');
    },
    nak: (delayMs) => told.push(`nak ${delayMs ?? 'now'}`),
  };
  return { message, told };
}

describe('casesOfMessage', () => {
  it('acks the message only once every case is acked, and only once', async () => {
    const { message, told } = recordingMessage();
    const cases = casesOfMessage(message, 3);
    expect(cases.map((each) => each.deliveryCount)).toEqual([2, 2, 2]);
    await cases[0]?.ack();
    await cases[2]?.ack();
    expect(told).toEqual([]);
    await cases[1]?.ack();
    await cases[1]?.ack();
    expect(told).toEqual(['ack']);
  });

  it('hands the message back, after the longest delay asked, once every case is settled', async () => {
    const { message, told } = recordingMessage();
    const cases = casesOfMessage(message, 3);
    cases[0]?.nak(1000);
    cases[1]?.nak();
    expect(told).toEqual([]);
    await cases[2]?.ack();
    expect(told).toEqual(['nak 1000']);
  });

  it('sends one working per moment however many of its cases call it', async () => {
    const { message, told } = recordingMessage();
    const cases = casesOfMessage(message, 4);
    for (const each of cases) each.working();
    expect(told).toEqual(['working']);
    await Promise.resolve();
    cases[3]?.working();
    expect(told).toEqual(['working', 'working']);
  });

  it('lets the last case ack again when the message ack failed', async () => {
    const { message, told } = recordingMessage({ failAcks: 1 });
    const cases = casesOfMessage(message, 2);
    await cases[0]?.ack();
    await expect(cases[1]?.ack()).rejects.toThrow('connection lost');
    await cases[1]?.ack();
    expect(told).toEqual(['ack']);
  });
});

describe('messagesForCap', () => {
  it('never lets messages times cases pass the cap', () => {
    for (let cap = 1; cap <= 300; cap++) {
      const { casesPerMessage, maxMessages } = messagesForCap(cap);
      expect(casesPerMessage * maxMessages).toBeLessThanOrEqual(cap);
      expect(maxMessages).toBeGreaterThanOrEqual(1);
      expect(casesPerMessage).toBe(Math.min(8, cap));
    }
    expect(messagesForCap(128)).toEqual({ casesPerMessage: 8, maxMessages: 16 });
  });
});
