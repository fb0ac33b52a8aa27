import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { judgeFixture } from '../support/judgeFleet.js';

// Numeric options have documented upper bounds: past one is bad input naming the bound.
describe('arena judge numeric bounds', () => {
  it('--max-in-flight 1e15 is refused, exit 2, naming the bound, before any server is reached', async () => {
    const fixture = judgeFixture({ baseURL: 'http://127.0.0.1:9/v1' }, 1);
    const refused = await runArena(
      [
        ...['judge', fixture.cases, '--config', fixture.config],
        ...[
          '--nats',
          'nats://127.0.0.1:9',
          '--store',
          'sqlite::memory:',
          '--max-in-flight',
          '1e15',
        ],
      ],
      { cwd: fixture.folder },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "arena: --max-in-flight must be a whole number from 1 to 1000000, got '1e15'\n",
    );
  });
});

// the CLI's other whole-number options: each names its bounds, and nothing is opened or started past one
describe('whole-number options past their bound', () => {
  const judge = path.join(repoRoot, 'examples/judge');
  it.each([
    [['runs', '--limit', '1e15'], "--limit must be a whole number from 1 to 1000000, got '1e15'"],
    [
      ['sweeps', '--limit', '1000001'],
      "--limit must be a whole number from 1 to 1000000, got '1000001'",
    ],
    [
      ['sweep', path.join(repoRoot, 'examples/sweep.yaml'), '--parallel', '1025'],
      "--parallel must be a whole number from 1 to 1024, got '1025'",
    ],
    [
      ['serve', 'tank', '--as', 'tank', '--nats', 'nats://127.0.0.1:9', '--instances', '1e15'],
      "--instances must be a whole number from 1 to 1024, got '1e15'",
    ],
    [
      [
        ...['judge', 'calibrate', path.join(judge, 'cases.jsonl')],
        ...[
          '--labels',
          path.join(judge, 'labels.jsonl'),
          '--config',
          path.join(judge, 'replay.yaml'),
        ],
        ...['--bootstrap', '1e15'],
      ],
      "--bootstrap must be a whole number from 1 to 1000000, got '1e15'",
    ],
    [
      [
        ...['judge', path.join(judge, 'cases.jsonl'), '--config', path.join(judge, 'replay.yaml')],
        ...['--concurrency', '1e15'],
      ],
      "--concurrency must be a whole number from 1 to 10000, got '1e15'",
    ],
  ])('%j is refused, exit 2, naming the bound', async (args, message) => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-bounds-'));
    const refused = await runArena(args, { cwd: folder });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`arena: ${message}\n`);
    // refused before anything was opened
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true });
  });
});
