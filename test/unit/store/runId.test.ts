import { describe, expect, it } from 'vitest';
import { createRunIdGenerator } from '../../../src/ports/runtime/runId.js';

describe('run ids', () => {
  it('reads as uid, UTC start time and the random suffix', () => {
    const newRunId = createRunIdGenerator({ randomHex: () => '3fa2' });
    expect(newRunId('grid-demo', new Date('2026-11-29T20:07:02.789Z'))).toBe(
      'grid-demo-20261129T200702-3fa2',
    );
  });

  it('replaces characters that do not read well in a shell and keeps 40 of the uid', () => {
    const newRunId = createRunIdGenerator({ randomHex: () => '0000' });
    const at = new Date('2026-01-02T03:04:05Z');
    expect(newRunId('my run/v2 (final)', at)).toBe('my-run-v2-final-20260102T030405-0000');
    expect(newRunId('x'.repeat(60), at)).toBe(`${'x'.repeat(40)}-20260102T030405-0000`);
    expect(newRunId('', at)).toBe('run-20260102T030405-0000');
  });

  it('sorts runs of one uid by start time', () => {
    const newRunId = createRunIdGenerator();
    const early = newRunId('a', new Date('2026-01-02T03:04:05Z'));
    const late = newRunId('a', new Date('2026-01-10T00:00:00Z'));
    expect([late, early].sort()).toEqual([early, late]);
    expect(early).toMatch(/^a-20260102T030405-[0-9a-f]{4}$/);
  });
});
