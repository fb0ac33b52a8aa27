import { describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
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
