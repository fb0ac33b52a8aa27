import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';

const execFileAsync = promisify(execFile);
const embedReadme = readFileSync(path.join(repoRoot, 'examples/embed/README.md'), 'utf8');
const programs = [
  'termination.mjs',
  'persistence.mjs',
  'pure-transitions.mjs',
  'judge.mjs',
  'programmatic-run.mjs',
] as const;

/** Run one embed program as a user would, from the repository root. */
async function runProgram(file: string): Promise<string> {
  const { stdout, stderr } = await execFileAsync(
    process.execPath,
    [path.join('examples/embed', file)],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 },
  );
  expect(stderr).toBe('');
  return stdout;
}

describe('examples/embed, the reference host app', () => {
  it.each(programs)('%s imports arena only from the package root', (file) => {
    const source = readFileSync(path.join(repoRoot, 'examples/embed', file), 'utf8');
    const specifiers = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const specifier of specifiers) {
      expect(specifier).toMatch(/^(arena-runtime|xstate|rxjs|node:[a-z/]+)$/);
    }
  });

  it('lists every program in its README with its length in lines', () => {
    for (const file of programs) {
      const lines = readFileSync(path.join(repoRoot, 'examples/embed', file), 'utf8').split('\n');
      expect(embedReadme).toContain(`| [\`${file}\`](${file}) | ${lines.length - 1} |`);
      expect(embedReadme).toContain(`## ${file}`);
    }
  });

  it('persistence.mjs restores the actor with the same counters and continues to success', async () => {
    const output = await runProgram('persistence.mjs');
    const lines = output.trimEnd().split('\n');
    const saved = lines[0]?.replace('before saving', '').trim();
    const restored = lines[1]?.replace('after restore', '').trim();
    expect(saved).toBe('active: 2 valid evaluations, success streak 1');
    expect(restored).toBe(saved);
    expect(lines).toContain('eval-1: duplicate, CONTINUE');
    expect(lines).toContain('eval-2: accepted, STOP_PHASE (success)');
    expect(lines.at(-1)).toBe("{ reason: 'success' }");
    expect(embedReadme).toContain(`$ node examples/embed/persistence.mjs\n${output}\`\`\``);
  });

  it('pure-transitions.mjs checks every transition and accounts for every walk', async () => {
    const output = await runProgram('pure-transitions.mjs');
    const head = output.match(/^(\d+) walks, (\d+) transitions, (\d+) checkpoints rejected$/m);
    expect(head).not.toBeNull();
    const [walks, transitions, rejected] = head!.slice(1).map(Number) as [number, number, number];
    expect(rejected).toBeGreaterThan(0);
    expect(transitions).toBeGreaterThan(walks);
    expect(output).toContain(
      'every transition deterministic, every rejection left the state unchanged',
    );
    const endings: Record<string, number> = Object.fromEntries(
      [...output.matchAll(/^ {2}(\w+): (\d+)$/gm)].map((match) => [match[1], Number(match[2])]),
    );
    expect(Object.keys(endings).sort()).toEqual(['active', 'cancelled', 'success']);
    expect(Object.values(endings).reduce((sum, count) => sum + count, 0)).toBe(walks);
    expect(embedReadme).toContain(`$ node examples/embed/pure-transitions.mjs\n${output}\`\`\``);
  });

  it('judge.mjs judges every case over HTTP and tallies the verdicts', async () => {
    const output = await runProgram('judge.mjs');
    const verdicts = Object.fromEntries(
      [...output.matchAll(/^([\w-]+): (passed|failed|skipped|error)\b/gm)].map((match) => [
        match[1],
        match[2],
      ]),
    );
    expect(verdicts).toEqual({
      'arith-1': 'passed',
      'arith-2': 'failed',
      'capital-1': 'passed',
      'open-1': 'skipped',
    });
    expect(output).toMatch(/^2 of 4 passed; \d+ tokens$/m);
    expect(embedReadme).toContain(`$ node examples/embed/judge.mjs\n${output}\`\`\``);
  });

  it('programmatic-run.mjs runs the in-code environment to success and prints the summary', async () => {
    const output = await runProgram('programmatic-run.mjs');
    const checkpoints = [
      ...output.matchAll(/^checkpoint (\d+): objective (-?\d+\.\d+) \((\w+)\)$/gm),
    ].map((match) => ({ index: Number(match[1]), objective: Number(match[2]), status: match[3] }));
    expect(checkpoints.length).toBeGreaterThanOrEqual(2);
    expect(checkpoints.map((checkpoint) => checkpoint.index)).toEqual(
      checkpoints.map((_, index) => index),
    );
    // The run file's success rule: objective >= -40 at two consecutive checkpoints.
    for (const checkpoint of checkpoints.slice(-2)) {
      expect(checkpoint.objective).toBeGreaterThanOrEqual(-40);
    }
    expect(output).toContain('run succeeded: phase train ended by success');
    const episodes = output.match(/^(\d+) training episodes, (\d+) evaluation episodes$/m);
    expect(Number(episodes?.[2])).toBe(checkpoints.length);
    expect(embedReadme).toContain(`$ node examples/embed/programmatic-run.mjs\n${output}\`\`\``);
  });

  it('termination.mjs prints what its README section shows', async () => {
    const output = await runProgram('termination.mjs');
    expect(output.trimEnd().split('\n').at(-1)).toBe("success { reason: 'success' }");
    expect(embedReadme).toContain(`$ node examples/embed/termination.mjs\n${output}\`\`\``);
  });
});
