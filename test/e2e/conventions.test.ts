import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena, runProcess } from '../support/cli.js';
import { judgeStdout } from '../support/judgeOutput.js';
import { scratchFolder } from '../support/scratch.js';

const example = (file: string) => path.join(repoRoot, 'examples/judge', file);

/** An SGR colour escape (`ESC [ 3x m`), as pino-pretty writes one. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[3\\dm`);

/** util-linux `script`: runs a command with a pseudo-terminal as its stdout and stderr. */
function onTerminal(command: string, env: NodeJS.ProcessEnv) {
  execFileSync('sh', ['-c', 'command -v script'], { stdio: 'ignore' });
  return runProcess('script', ['-qefc', command, '/dev/null'], {
    cwd: repoRoot,
    env,
    timeoutMs: 55_000,
  });
}

describe('CLI conventions (issue 24, point 10)', () => {
  it('NO_COLOR turns off the colour of the pretty logs on a terminal', async () => {
    const { NO_COLOR: _unset, ...environment } = process.env;
    const folder = scratchFolder('arena-no-color-');
    const command = (db: string) =>
      `node cli/bin/arena.js --log-level info run examples/two-feeders.yaml --store sqlite:${path.join(folder, db)}`;
    const coloured = await onTerminal(command('a.db'), environment);
    expect(coloured.code, coloured.stdout).toBe(0);
    expect(coloured.stdout).toContain('run started');
    expect(coloured.stdout).toMatch(COLOUR);
    const plain = await onTerminal(command('b.db'), { ...environment, NO_COLOR: '1' });
    expect(plain.code, plain.stdout).toBe(0);
    expect(plain.stdout).toContain('INFO');
    expect(plain.stdout).toContain('run started');
    expect(plain.stdout).not.toMatch(COLOUR);
  });

  it('judge --store --json: each result names the evaluation run the summary names', async () => {
    const folder = scratchFolder('arena-run-id-');
    const run = await runArena(
      [
        'judge',
        example('cases.jsonl'),
        '--config',
        example('replay.yaml'),
        '--store',
        `sqlite:${path.join(folder, 'verdicts.db')}`,
        '--json',
      ],
      { cwd: folder },
    );
    expect(run.code, run.stderr).toBe(0);
    const { results, summary } = judgeStdout(run.stdout);
    expect(summary.evaluationRunId).toMatch(/^strict-\d{8}T\d{6}-[0-9a-f]{4}$/);
    expect(results).toHaveLength(4);
    expect(new Set(results.map((result) => result.evaluationRunId))).toEqual(
      new Set([summary.evaluationRunId]),
    );
  });
});
