import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  casesUnderFleetCap,
  defaultCasesPerMessage,
  messagesForCap,
} from '../../src/ports/queue/caseBatches.js';

describe('messages of cases keep to the fleet cap', () => {
  it('a cap set once holds for runs that give it again and for runs that give none', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 32 }),
        (cap, perMessage) => {
          const set = messagesForCap(cap, perMessage);
          // given again: whole messages in flight never hold more than the cap
          expect(set.casesPerMessage * set.maxMessages).toBeLessThanOrEqual(cap);
          // given by no one: only the consumer's message count is known
          const later = casesUnderFleetCap(set.maxMessages, perMessage);
          expect(later * set.maxMessages).toBeLessThanOrEqual(cap);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('no limit and a wide cap keep full messages', () => {
    expect(casesUnderFleetCap(-1)).toBe(defaultCasesPerMessage);
    expect(casesUnderFleetCap(messagesForCap(128).maxMessages)).toBe(defaultCasesPerMessage);
    expect(casesUnderFleetCap(messagesForCap(5).maxMessages)).toBe(1);
  });
});
