import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { fileLines, fileSha256 } from '../../src/cli/fileLines.js';

const folder = mkdtempSync(path.join(tmpdir(), 'arena-file-lines-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Text made of newlines, carriage returns, ASCII and multi-byte characters. */
const textArbitrary = fc
  .array(fc.constantFrom('\n', '\r', '\r\n', 'a', 'bc', 'é', '€', '😀', ' ', '{"k":1}'), {
    maxLength: 80,
  })
  .map((pieces) => pieces.join(''));

let fileCount = 0;

describe('fileLines properties', () => {
  test.prop([textArbitrary, fc.integer({ min: 1, max: 17 })], { numRuns: 200 })(
    'yields exactly text.split("\\n") and hashes the bytes, whatever the chunk size',
    async (text, chunkBytes) => {
      fileCount += 1;
      const target = path.join(folder, `lines-${fileCount}.txt`);
      writeFileSync(target, text);
      const file = await open(target);
      try {
        const lines: string[] = [];
        for await (const line of fileLines(file, { chunkBytes })) lines.push(line);
        expect(lines).toEqual(text.split('\n'));
        expect(await fileSha256(file)).toBe(
          createHash('sha256').update(text, 'utf8').digest('hex'),
        );
      } finally {
        await file.close();
      }
    },
  );
});
