import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineAt, lineStarts } from '../../../src/cli/caseLineIndex.js';
import { scratchFolder } from '../../support/scratch.js';

async function linesReadBack(text: string): Promise<string[]> {
  const file = path.join(scratchFolder('arena-line-index-'), 'cases.jsonl');
  writeFileSync(file, text);
  const handle = await open(file);
  try {
    const starts = await lineStarts(handle);
    const lines: string[] = [];
    // read in reverse: any order works, as the draw order needs
    for (let line = starts.length - 1; line >= 1; line--)
      lines.unshift(await lineAt(handle, starts, line));
    return lines;
  } finally {
    await handle.close();
  }
}

describe('lineStarts and lineAt', () => {
  it('read each line by its offsets, split as text.split("\\n") splits it', async () => {
    for (const text of [
      'a\nbb\n\nccc',
      'a\nbb\n',
      '',
      'é😀\r\nx',
      '{"case_id":"1"}\n{"case_id":"2"}\n',
    ]) {
      expect(await linesReadBack(text)).toEqual(text.split('\n'));
    }
  });

  it('finds lines across read chunks of a large file', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(i % 97)}`).join(
      '\n',
    );
    expect(await linesReadBack(text)).toEqual(text.split('\n'));
  });
});
