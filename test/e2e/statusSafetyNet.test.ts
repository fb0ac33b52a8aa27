import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';

describe('ARENA_STATUS_SAFETY_NET_MS', () => {
  it.each([
    ['submit', 'examples/hosting-capacity.yaml'],
    ['sweep', 'examples/sweep.yaml'],
  ])(
    'a bad interval stops arena %s with exit 2 naming the variable, before anything is queued',
    async (command, file) => {
      // a NATS server nobody listens on: the command never gets that far
      const result = await runArena(
        [
          command,
          path.join(repoRoot, file),
          '--nats',
          'nats://127.0.0.1:1',
          '--store',
          'sqlite::memory:',
        ],
        { env: { ARENA_STATUS_SAFETY_NET_MS: 'soon' } },
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(
        "arena: ARENA_STATUS_SAFETY_NET_MS must be a whole number of milliseconds >= 100, got 'soon'\n",
      );
    },
  );
});
