import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** `termination replay` of `rules` on the success example, as the README runs it. */
const replayArgs = (rules: string): string[] => [
  'termination',
  'replay',
  rules,
  'examples/termination/success.jsonl',
];

/** The line the README shows a command on, as a user types it. */
const shownCommand = (args: readonly string[]): string => `$ npx arena ${args.join(' ')}\n`;

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
    const args = replayArgs('examples/termination/rules.yaml');
    const result = await runArena(args);
    expect(result.code).toBe(0);
    expect(readme).toContain(`${shownCommand(args)}${result.stdout}`);
  });

  it('shows the real errors of arena termination replay on a rules file with mistakes', async () => {
    const args = replayArgs('examples/termination/mistakes.yaml');
    const result = await runArena(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(readme).toContain(`${shownCommand(args)}${result.stderr}\`\`\``);
  });

  it('names both commands a new user needs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('README fuzz example', () => {
  it('shows the real output of arena fuzz termination', async () => {
    const args = [
      'fuzz',
      'termination',
      'examples/termination/rules.yaml',
      '--metric',
      'objective=0:1',
    ];
    const result = await runArena(args);
    expect(result.code).toBe(0);
    expect(readme).toContain(`${shownCommand(args)}${result.stdout}`);
  });
});

describe('README sweep', () => {
  it('shows the real leaderboard and decisions of arena sweep examples/sweep.yaml', async () => {
    const result = await runArena(['sweep', 'examples/sweep.yaml', '--store', 'sqlite::memory:']);
    expect(result.code, result.stderr).toBe(0);
    // the sweep id carries the time it started: the README's is the one it was written with
    const shownId = /\$ npx arena sweep examples\/sweep\.yaml\nsweep (\S+):/.exec(readme)?.[1];
    expect(shownId).toBeDefined();
    const printed = result.stdout.replace(/^sweep \S+:/, `sweep ${shownId}:`);
    expect(readme).toContain(`${shownCommand(['sweep', 'examples/sweep.yaml'])}${printed}\`\`\``);
  });

  it('shows what pruning saved and cost on the example, as the variants really run', async () => {
    const folder = scratchFolder('arena-readme-sweep-');
    const example = readFileSync(path.join(repoRoot, 'examples/sweep.yaml'), 'utf8').replace(
      'run_file: cap-free-plateau.yaml',
      `run_file: ${path.join(repoRoot, 'examples/cap-free-plateau.yaml')}`,
    );
    const variants = {
      none: example.replace(/^pruner:[\s\S]*$/m, ''),
      'successive halving at 3, 9 (the example)': example,
      'successive halving at 3, 6': example.replace('rungs: [3, 9]', 'rungs: [3, 6]'),
    };
    for (const [pruner, text] of Object.entries(variants)) {
      const file = path.join(folder, `${pruner.length}.yaml`);
      writeFileSync(file, text);
      const result = await runArena(['sweep', file, '--store', 'sqlite::memory:', '--json']);
      expect(result.code, result.stderr).toBe(0);
      const table = JSON.parse(result.stdout) as {
        trials: { index: number; objective: number[]; episodes: number }[];
      };
      const episodes = table.trials.reduce((sum, trial) => sum + trial.episodes, 0);
      const [best] = table.trials;
      const row = readme.split('\n').find((line) => line.startsWith(`| ${pruner} |`));
      expect(row, pruner).toBeDefined();
      expect(row).toContain(
        `| ${episodes} | trial ${best?.index} (${Number(best?.objective[0]?.toFixed(3))})`,
      );
    }
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

/** Every README a user reads: the main one and each example folder's. */
const readmes = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `examples/${entry.name}/README.md`)
    .filter((file) => existsSync(path.join(repoRoot, file))),
];

/** An absolute path that only exists on the machine the output was copied from. */
const machinePath =
  /(?<![\w.~-])(?:\/(?:work|tmp|home|root|Users|private|mnt|var\/folders)\/[^\s;,)`'"]*|[A-Z]:\\Users\\[^\s;,)`'"]*)/g;

/** A wall-clock figure stated as how long something takes ("about 3 s", "2-3 s here"). */
const durationClaim =
  /\b(?:about|around|roughly|nearly|almost|takes?|took|in|under|within)\s+~?\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?\s*(?:ms|s|secs?|seconds?|minutes?|mins?)\b|~\s*\d+(?:\.\d+)?\s*(?:ms|s|seconds?|minutes?)\b|\b\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?\s*(?:ms|s|seconds?|minutes?),?\s+here\b/gi;

/** The prose of a Markdown page: fenced blocks (real program output, checked elsewhere) removed. */
function prose(markdown: string): string {
  return markdown.replace(/^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```$/gm, '');
}

describe('README honesty', () => {
  it('finds the READMEs it checks', () => {
    expect(readmes).toContain('README.md');
    expect(readmes).toContain('examples/embed/README.md');
  });

  it.each(readmes)('%s shows no machine-specific absolute path', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    expect(text.match(machinePath) ?? []).toEqual([]);
  });

  it.each(readmes)('%s states no wall-clock figure that no test checks', (file) => {
    const text = prose(readFileSync(path.join(repoRoot, file), 'utf8'));
    expect(text.match(durationClaim) ?? []).toEqual([]);
  });

  it.each(readmes)('%s cites only repository paths that exist', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const cited =
      text.match(/(?<![\w./@~<>-])(?:examples|src|test|bench|docs)\/[\w./-]*[\w/]/g) ?? [];
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((cite) => !existsSync(path.join(repoRoot, cite)))).toEqual([]);
  });

  it.each(readmes)('%s starts every server it shows on 127.0.0.1 only', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    // a server started in a shown command: `nats-server ...`, PostgreSQL's `postgres -D ...`
    const starts = text
      .split('\n')
      .filter((line) => /(?:^\$ |\/)(?:nats-server|postgres"?) -/.test(line));
    const open = starts.filter(
      (line) => !/ -a 127\.0\.0\.1 /.test(line) && !/listen_addresses=127\.0\.0\.1\b/.test(line),
    );
    expect(open).toEqual([]);
    if (file === 'README.md') expect(starts.length).toBeGreaterThanOrEqual(3);
  });

  it('recognises the claims it forbids', () => {
    const claims =
      'the whole run takes\nabout 3 s; extraction (197 MB, 2-3 s here); in 0.9 seconds';
    expect(claims.match(durationClaim)).toEqual(['about 3 s', '2-3 s here', 'in 0.9 seconds']);
    expect('stored in /work/main/.arena/arena.db'.match(machinePath)).toEqual([
      '/work/main/.arena/arena.db',
    ]);
    expect('`<os temp dir>/arena-chromium-<version>/` and < /dev/null'.match(machinePath)).toBe(
      null,
    );
  });

  it('keeps its promise that npm start finishes within a few seconds, and shows its closing line', async () => {
    expect(readme).toContain(
      'npm ci && npm start   # run the built-in hosting-capacity study (a few seconds)',
    );
    expect(readme).toContain('the whole run finishes\nwithin a few seconds');
    // npm start's own command, from a scratch folder so the store lands there and not in the repo.
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-readme-start-'));
    try {
      const started = performance.now();
      const result = await runArena(
        ['run', path.join(repoRoot, 'examples/hosting-capacity.yaml')],
        {
          cwd: folder,
        },
      );
      const seconds = (performance.now() - started) / 1000;
      expect(result.code).toBe(0);
      // "A few seconds" read as 5 s, with a factor of 4 for a loaded machine: a bound, not a timing.
      expect(seconds).toBeLessThan(5 * 4);
      const closing = result.stdout.trimEnd().split('\n').at(-1) ?? '';
      expect(closing).toMatch(
        /^stored in \.arena\/arena\.db; see it with: arena show hosting-capacity-\S+$/,
      );
      const runId = /arena show (\S+)$/.exec(closing)?.[1] ?? '';
      const shownRunId = /arena show (hosting-capacity-\S+)\n```/.exec(readme)?.[1] ?? '';
      expect(readme).toContain(closing.replace(runId, shownRunId));
      expect(readme).toContain(`run ${shownRunId}: succeeded (seed 42)`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('README repeated meta loop', () => {
  it('shows the real decisions of the loop example and the findings arena report computes for it', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-readme-loop-'));
    try {
      const store = `sqlite:${path.join(folder, 'arena.db')}`;
      const ran = await runArena(['run', 'examples/hosting-capacity-loop.yaml', '--store', store]);
      expect(ran.code).toBe(0);
      const lines = ran.stdout.split('\n');
      const start = lines.findIndex((line) => line.startsWith('meta decisions of planner'));
      const end = lines.findIndex((line) => line.startsWith('phase search'));
      expect(end - start).toBeGreaterThan(6);
      // the decision table, as the README shows it
      expect(readme).toContain(`${lines.slice(start, end).join('\n')}\n\`\`\``);
      const runId = /^run (\S+):/.exec(ran.stdout)?.[1] ?? '';
      const page = await runArena(['report', runId, '--store', store, '--out', '-']);
      expect(page.code).toBe(0);
      const list = page.stdout.match(/<ul class="findings">(.*?)<\/ul>/s)?.[1] ?? '';
      const findings = [...list.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1]);
      expect(findings).toHaveLength(3);
      for (const finding of findings) expect(readme).toContain(`\n${finding}\n`);
      // the page draws the decisions over the episodes against the returns
      expect(page.stdout).toContain('decisions over the episodes, against the returns');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** The Commands table's rows, each with the commands its first cell names (`run`, `fuzz termination`). */
function commandRows(): { row: string; commands: string[] }[] {
  const table = readme.slice(readme.indexOf('\n## Commands\n'));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `arena '))
    .map((row) => ({
      row,
      commands: [...(row.split(' | ')[0] ?? '').matchAll(/`arena ([a-z ]+?)(?= [<[-]|`)/g)].map(
        (match) => match[1] ?? '',
      ),
    }));
}

/** The long options `arena <command> --help` lists, but --help. */
async function optionsOf(command: string): Promise<string[]> {
  const help = await runArena([...command.split(' '), '--help']);
  expect(help.code, help.stderr).toBe(0);
  const options = [...help.stdout.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1] ?? '');
  return [...new Set(options)].filter((option) => option !== '--help');
}

describe('README Commands table', () => {
  it('has a row for every command arena --help lists', async () => {
    const help = await runArena(['--help']);
    const listed = [...help.stdout.matchAll(/^ {2}([a-z]+)/gm)].map((m) => m[1] ?? '');
    const inTable = new Set(
      commandRows().flatMap(({ commands }) => commands.map((c) => c.split(' ')[0])),
    );
    expect(listed.filter((command) => command !== 'help' && !inTable.has(command))).toEqual([]);
  });

  it('names every option of each command in its row, or in an "Every command" note under it', async () => {
    const table = readme.slice(readme.indexOf('\n## Commands\n'));
    const notes = table
      .slice(0, table.indexOf('\n### '))
      .split('\n')
      .filter((line) => line.startsWith('Every command'))
      .join('\n');
    const missing: string[] = [];
    for (const { row, commands } of commandRows()) {
      for (const command of commands) {
        for (const option of await optionsOf(command)) {
          const named = new RegExp(`${option}(?![\\w-])`);
          if (!named.test(row) && !named.test(notes)) missing.push(`${command} ${option}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
