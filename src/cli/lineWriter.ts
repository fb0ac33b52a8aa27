import { once } from 'node:events';

/**
 * Lines written to a stream in chunks, waiting for the reader whenever the
 * stream's buffer is full, so a long output never piles up in memory.
 *
 * @example
 * ```ts
 * const out = new LineWriter(process.stdout);
 * for (const row of rows) await out.line(row);
 * await out.flush();
 * ```
 */
export class LineWriter {
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly chunkLength = 64 * 1024,
  ) {}

  /** Queue one line (without its newline); writes when a chunk is full. */
  async line(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingLength += text.length + 1;
    if (this.pendingLength >= this.chunkLength) await this.flush();
  }

  /** Write every queued line and wait until the stream can take more. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const chunk = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingLength = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }
}
