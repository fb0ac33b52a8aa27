import type { FileHandle } from 'node:fs/promises';

/**
 * Where each line of an open file starts, in bytes: `starts[i]` is the offset
 * of line `i + 1` (lines split on `\n` as `fileLines` splits them), plus the
 * file's length at the end. Eight bytes a line, never the text: a case can
 * then be read by its line alone, in any order.
 *
 * @example
 * ```ts
 * await lineStarts(await open('cases.jsonl')); // Float64Array [0, 118, 240, 362]: two lines and the end
 * ```
 */
export async function lineStarts(file: FileHandle): Promise<Float64Array> {
  let starts: Float64Array = new Float64Array(1024);
  let count = 1;
  let offset = 0;
  for await (const chunk of file.createReadStream({ autoClose: false, start: 0 })) {
    const bytes = chunk as Buffer;
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) {
      if (count === starts.length) starts = grown(starts);
      starts[count++] = offset + at + 1;
    }
    offset += bytes.length;
  }
  if (count === starts.length) starts = grown(starts);
  starts[count++] = offset;
  return starts.slice(0, count);
}

function grown(array: Float64Array): Float64Array {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * The text of line `line` (1-based) of an open file, read by its byte offsets.
 *
 * @example
 * ```ts
 * await lineAt(file, await lineStarts(file), 2); // '{"case_id":"arith-2",…}'
 * ```
 */
export async function lineAt(
  file: FileHandle,
  starts: Float64Array,
  line: number,
): Promise<string> {
  const start = starts[line - 1]!;
  // the next line's start, less its '\n' (the last line has none)
  const end = line < starts.length - 1 ? starts[line]! - 1 : starts[line]!;
  const buffer = Buffer.alloc(end - start);
  let read = 0;
  while (read < buffer.length) {
    const { bytesRead } = await file.read(buffer, read, buffer.length - read, start + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return buffer.toString('utf8', 0, read);
}
