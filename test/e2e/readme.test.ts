import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The README shows real output: each shown block must be what the command prints today. */
describe('README', () => {
  it('shows the real output of the embedding example', () => {
    const output = execFileSync(process.execPath, ['examples/embed/termination.mjs'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(readme).toContain(`\`\`\`text\n${output}\`\`\``);
  });

  it('shows the embedding example exactly as it is in examples/', () => {
    const source = readFileSync(path.join(repoRoot, 'examples/embed/termination.mjs'), 'utf8');
    const body = source.split('\n').slice(2).join('\n');
    expect(readme).toContain(body.trim());
  });

  it('shows the real output of arena termination replay', async () => {
    const result = await runArena([
      'termination',
      'replay',
      'examples/termination/rules.yaml',
      'examples/termination/success.jsonl',
    ]);
    expect(result.code).toBe(0);
    expect(readme).toContain(
      `$ npx arena termination replay examples/termination/rules.yaml examples/termination/success.jsonl\n${result.stdout}`,
    );
  });

  it('names both commands a new user needs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('README fuzz example', () => {
  it('shows the real output of arena fuzz termination', async () => {
    const result = await runArena([
      'fuzz',
      'termination',
      'examples/termination/rules.yaml',
      '--metric',
      'objective=0:1',
    ]);
    expect(result.code).toBe(0);
    expect(readme).toContain(
      `$ npx arena fuzz termination examples/termination/rules.yaml --metric objective=0:1\n${result.stdout}`,
    );
  });
});

describe('README study walkthrough', () => {
  it('shows the phase lines and meta decisions that npm start really prints', async () => {
    const result = await runArena([
      'run',
      'examples/hosting-capacity.yaml',
      '--store',
      'sqlite::memory:',
    ]);
    expect(result.code).toBe(0);
    const shown = readme
      .split('\n')
      .filter((line) => /^phase \S+ \(|^ {2}midas\.definition\./.test(line));
    expect(shown.length).toBeGreaterThan(10);
    for (const line of shown) expect(result.stdout).toContain(line);
  });
});

describe('README study answer', () => {
  it('shows the findings that arena report computes for the study', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-readme-report-'));
    try {
      const store = `sqlite:${path.join(folder, 'arena.db')}`;
      const ran = await runArena([
        'run',
        'examples/hosting-capacity.yaml',
        '--store',
        store,
        '--json',
      ]);
      expect(ran.code).toBe(0);
      const { runId } = JSON.parse(ran.stdout) as { runId: string };
      const page = await runArena(['report', runId, '--store', store, '--out', '-']);
      expect(page.code).toBe(0);
      const list = page.stdout.match(/<ul class="findings">(.*?)<\/ul>/s)?.[1] ?? '';
      const findings = [...list.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]);
      expect(findings).toHaveLength(3);
      for (const finding of findings) expect(readme).toContain(`  ${finding}\n`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
