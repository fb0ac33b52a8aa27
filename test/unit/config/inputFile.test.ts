import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseByteCount } from '../../../src/cli/program.js';
import {
  DEFAULT_MAX_INPUT_BYTES,
  InputTooLargeError,
  maxInputBytes,
  readInputText,
  setMaxInputBytes,
} from '../../../src/config/inputFile.js';
import { scratchFolder } from '../../support/scratch.js';

function fileOf(bytes: number, name = 'input.yaml'): string {
  const file = path.join(scratchFolder('arena-input-'), name);
  writeFileSync(file, 'x'.repeat(bytes));
  return file;
}

describe('readInputText: the input size cap', () => {
  afterEach(() => setMaxInputBytes(DEFAULT_MAX_INPUT_BYTES));

  it('reads a file at the cap whole, multi-byte characters included', () => {
    const file = fileOf(0);
    writeFileSync(file, `name: ${'é'.repeat(70_000)}\n`);
    const text = readInputText(file, Buffer.byteLength(`name: ${'é'.repeat(70_000)}\n`));
    expect(text).toBe(`name: ${'é'.repeat(70_000)}\n`);
  });

  it('refuses a file one byte over the cap, naming the file, its size and the cap', () => {
    const file = fileOf(1025);
    let caught: unknown;
    try {
      readInputText(file, 1024);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputTooLargeError);
    const error = caught as InputTooLargeError;
    expect([error.code, error.name, error.path, error.size, error.maxBytes]).toEqual([
      'INPUT_TOO_LARGE',
      'InputTooLargeError',
      file,
      1025,
      1024,
    ]);
    expect(error.message).toBe(
      `${file} is 1025 bytes, over the input cap of 1024 bytes (raise it with --max-input-bytes <n>)`,
    );
  });

  it('applies the process-wide cap by default, 1 MiB unless set', () => {
    expect(maxInputBytes()).toBe(1024 * 1024);
    const file = fileOf(2048);
    expect(readInputText(file)).toHaveLength(2048);
    setMaxInputBytes(2047);
    expect(() => readInputText(file)).toThrowError(InputTooLargeError);
  });

  it('refuses a cap that is not a positive whole number', () => {
    for (const cap of [0, -1, 1.5, Number.NaN]) {
      expect(() => setMaxInputBytes(cap)).toThrowError(RangeError);
    }
  });

  it('passes the fs error through when the file cannot be read', () => {
    expect(() => readInputText(path.join(tmpdir(), 'arena-no-such-dir', 'x.yaml'))).toThrowError(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});

describe('parseByteCount: the --max-input-bytes value', () => {
  it.each([
    ['4096', 4096],
    ['8M', 8 * 1024 * 1024],
    ['8MiB', 8 * 1024 * 1024],
    ['512k', 512 * 1024],
    ['2G', 2 * 1024 ** 3],
  ])('reads %s as %i bytes', (raw, bytes) => {
    expect(parseByteCount(raw)).toBe(bytes);
  });

  it.each(['', '0', '-5', 'lots', '1.5M', '8T'])(
    'refuses %j with a message naming the option',
    (raw) => {
      expect(() => parseByteCount(raw)).toThrowError(
        `--max-input-bytes: expected a positive number of bytes such as 1048576 or 8M, got ${JSON.stringify(raw)}`,
      );
    },
  );
});
