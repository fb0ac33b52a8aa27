import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/**
 * The lines of an open file, split on `\n` exactly like `text.split('\n')`
 * (the last, possibly empty, piece included), read in chunks so a file of
 * any size needs memory for one line at a time.
 *
 * @example
 * ```ts
 * const file = await open('cases.jsonl');
 * for await (const line of fileLines(file)) console.log(line);
 * ```
 */
export async function* fileLines(
  file: FileHandle,
  options: { readonly chunkBytes?: number } = {},
): AsyncGenerator<string> {
  let rest = '';
  const stream = file.createReadStream({
    encoding: 'utf8',
    autoClose: false,
    start: 0,
    highWaterMark: options.chunkBytes ?? 64 * 1024,
  });
  for await (const chunk of stream) {
    const text = chunk as string;
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      yield rest + text.slice(start, newline);
      rest = '';
      start = newline + 1;
    }
    rest += text.slice(start);
  }
  yield rest;
}

/**
 * The sha256 (hex) of an open file's bytes, read in chunks.
 *
 * @example
 * ```ts
 * await fileSha256(await open('cases.jsonl')); // '9f86d08...'
 * ```
 */
export async function fileSha256(file: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of file.createReadStream({ autoClose: false, start: 0 })) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/**
 * Whether `error` came from the file system (it has a `syscall`), as opposed
 * to a bug or a parse error.
 *
 * @example
 * ```ts
 * isFileSystemError(Object.assign(new Error('EISDIR'), { code: 'EISDIR', syscall: 'read' })); // true
 * ```
 */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
