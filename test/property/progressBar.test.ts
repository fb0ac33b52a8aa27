import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProgressBar, formatProgressLine } from '../../src/cli/progress.js';

/** The bar part of each drawn line: from `[` to `]`. */
function barsOf(drawn: string): string[] {
  return drawn
    .split('\r\x1b[2K')
    .filter((line) => line !== '')
    .map((line) => /\[[#.]*\]/.exec(line)?.[0] ?? `no bar in ${JSON.stringify(line)}`);
}

describe('the progress bar (issue 24, point 10)', () => {
  it('keeps one width for its whole life, whatever the notes and counts drawn', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 40, max: 200 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 30 })), { minLength: 2, maxLength: 12 }),
        (columns, total, updates) => {
          const stream = Object.assign(new PassThrough(), { isTTY: true, columns });
          const bar = createProgressBar({
            total,
            label: 'train (train)',
            stream,
            minIntervalMs: 0,
          });
          for (const [done, note] of updates)
            bar.update(done % (total + 1), note.replace(/\s/g, ''));
          // a resize mid-run does not change the bar either
          stream.columns = columns + 7;
          bar.update(total, 'max_episodes');
          const widths = new Set(barsOf(String(stream.read())).map((drawn) => drawn.length));
          expect(widths.size).toBe(1);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("shows a note of up to 40 characters whole from 100 columns on (a run's `eval objective 0.8123 | active`)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 400 }),
        fc.integer({ min: 1, max: 99_999 }),
        fc.string({ minLength: 1, maxLength: 40 }).map((note) => note.replace(/\s/g, '_')),
        (columns, total, note) => {
          const line = formatProgressLine(total, total, 'explore_1 (train)', note, columns);
          expect(line.endsWith(`  ${note}`)).toBe(true);
          expect(line.length).toBeLessThan(columns);
        },
      ),
      { numRuns: 200 },
    );
    expect(
      formatProgressLine(12, 60, 'explore_1 (train)', 'eval objective 0.8123 | active', 160),
    ).toBe(
      'explore_1 (train) [########................................] 12/60  20%  eval objective 0.8123 | active',
    );
  });
});
