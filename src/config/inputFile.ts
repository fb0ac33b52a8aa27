import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ArenaError } from '../domain/shared/errors.js';

/**
 * The default cap on one input file (run file, judge config, rules): 1 MiB.
 *
 * @example
 * ```ts
 * readInputText('run.yaml', DEFAULT_MAX_INPUT_BYTES * 16); // allow a 16 MiB file
 * ```
 */
export const DEFAULT_MAX_INPUT_BYTES = 1024 * 1024;

// One process-wide cap, set once by the CLI's --max-input-bytes before any command reads.
let currentMaxInputBytes = DEFAULT_MAX_INPUT_BYTES;

/**
 * An input file larger than the cap: refused before it is parsed.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'INPUT_TOO_LARGE'); // true when `error` is an InputTooLargeError
 * error instanceof InputTooLargeError && error.name; // 'InputTooLargeError'
 * ```
 */
export class InputTooLargeError extends ArenaError {
  readonly path: string;
  /** The file's size in bytes, or the bytes read before giving up when the size is unknown. */
  readonly size: number;
  readonly maxBytes: number;

  constructor(path: string, size: number, maxBytes: number, sizeKnown: boolean) {
    super(
      'INPUT_TOO_LARGE',
      `${path} is ${sizeKnown ? '' : 'more than '}${size} bytes, over the input cap of ${maxBytes} bytes (raise it with --max-input-bytes <n>)`,
    );
    this.path = path;
    this.size = size;
    this.maxBytes = maxBytes;
  }
}

/**
 * Set the cap {@link readInputText} applies by default (the CLI's
 * `--max-input-bytes`).
 *
 * @throws {RangeError} unless `maxBytes` is a positive safe integer.
 * @example
 * ```ts
 * setMaxInputBytes(8 * 1024 * 1024);
 * maxInputBytes(); // 8388608
 * ```
 */
export function setMaxInputBytes(maxBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new RangeError(`the input cap must be a positive whole number of bytes, got ${maxBytes}`);
  }
  currentMaxInputBytes = maxBytes;
}

/**
 * The cap {@link readInputText} applies by default.
 *
 * @example
 * ```ts
 * maxInputBytes(); // 1048576 unless --max-input-bytes said otherwise
 * ```
 */
export function maxInputBytes(): number {
  return currentMaxInputBytes;
}

const chunkBytes = 64 * 1024;

/**
 * Read a whole input file as UTF-8, refusing it (before reading, when its
 * size is known) if it holds more than `maxBytes`. Pipes and devices, whose
 * size is unknown, are read until the cap is passed.
 *
 * @throws {InputTooLargeError} naming the file, its size and the cap.
 * @throws the `fs` error (`ENOENT`, `EISDIR`, ...) when the file cannot be read.
 * @example
 * ```ts
 * readInputText('examples/termination/rules.yaml').startsWith('#'); // true
 * readInputText('big.yaml', 1024);
 * // InputTooLargeError: big.yaml is 20480 bytes, over the input cap of 1024 bytes (raise it with --max-input-bytes <n>)
 * ```
 */
export function readInputText(filePath: string, maxBytes: number = maxInputBytes()): string {
  const fd = openSync(filePath, 'r');
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && stats.size > maxBytes) {
      throw new InputTooLargeError(filePath, stats.size, maxBytes, true);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const read = readSync(fd, chunk, 0, chunkBytes, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw new InputTooLargeError(filePath, total, maxBytes, false);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
