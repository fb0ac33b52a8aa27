import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import {
  brokenLinks,
  type FencedBlock,
  fencedBlocks,
  lineDiff,
  matchOutput,
  shownCommands,
  showsArenaCommand,
  updatedExpected,
} from '../support/docBlocks.js';

/**
 * Docs that cannot lie: every console block of README.md and docs/ is run and
 * its output compared with what the page shows; docs/contributing.md
 * ("Docs that cannot lie") says how, and which masks a block may use.
 * `ARENA_DOCS_UPDATE=1` writes the real output (masked) into the blocks instead.
 */

const update = process.env.ARENA_DOCS_UPDATE === '1';
const cli = path.join(repoRoot, 'cli/bin/arena.js');
/** Pages run at once; a page's blocks run in order, in one folder. */
const PAGES_AT_ONCE = 3;
/** A block's command is stopped after this long (a fixed bound, not a timing). */
const COMMAND_LIMIT_MS = 120_000;
const ILLUSTRATIVE_SHARE = 0.1;

function markdownUnder(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The pages of the manual, README first. */
const pages = ['README.md', ...markdownUnder('docs')];
/** `ARENA_DOCS_ONLY=docs/study.md` runs only the pages whose path holds it (while writing a page). */
const only = process.env.ARENA_DOCS_ONLY;
const runPages = only ? pages.filter((page) => page.includes(only)) : pages;
const textOf = (page: string): string => readFileSync(path.join(repoRoot, page), 'utf8');

/** What a command printed, stdout and stderr in one pipe, and how it ended. */
interface Ran {
  readonly output: string;
  readonly code: number | null;
}

/** The environment a block runs in: npx's, no colour, a fixed width, no store or server of the caller's. */
function blockEnvironment(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'USER', 'SystemRoot'];
  const env: NodeJS.ProcessEnv = {};
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return {
    ...env,
    NO_COLOR: '1',
    COLUMNS: '100',
    // what `npx arena` sets for the command it runs
    npm_command: 'exec',
    npm_lifecycle_event: 'npx',
  };
}

/** Run one shown command in `folder`: `npx arena` is the built command of this checkout. */
function runShown(command: string, folder: string): Promise<Ran> {
  const line = command.replace(
    /(^|[\s;&|(])npx arena(?=\s|$)/g,
    `$1${JSON.stringify(process.execPath)} ${JSON.stringify(cli)}`,
  );
  return new Promise((resolve, reject) => {
    // `exec 2>&1`: every later write to stderr lands in stdout's pipe, in the order written
    const child = spawn('sh', ['-c', `exec 2>&1\n${line}`], {
      cwd: folder,
      env: blockEnvironment(),
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const limit = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, COMMAND_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ output, code });
    });
  });
}

/** The packages at the top of an app's node_modules after `npm install arena-runtime xstate`. */
const appPackages = [
  'arena-runtime',
  'xstate',
  ...Object.keys(
    (
      JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies,
  ),
];

/** A block that did not print what its page shows. */
interface Mismatch {
  readonly where: string;
  readonly command: string;
  readonly diff: string;
}

interface PageResult {
  readonly page: string;
  readonly run: number;
  readonly illustrative: number;
  readonly mismatches: Mismatch[];
  /** Blocks that show an arena command but are neither run nor marked illustrative. */
  readonly unmarked: string[];
}

const runIdToken = '[RUN_ID]';

/** Run a page's console blocks in order in one folder holding a copy of examples/. */
async function runPage(page: string): Promise<PageResult> {
  const markdown = textOf(page);
  const blocks = fencedBlocks(markdown);
  const result: PageResult = {
    page,
    run: 0,
    illustrative: 0,
    mismatches: [],
    unmarked: [],
  };
  const consoleBlocks = blocks.filter((block) => block.info === 'console');
  result.unmarked.push(
    ...blocks
      .filter(
        (block) =>
          block.info !== 'console' &&
          block.info !== 'text illustrative' &&
          showsArenaCommand(block),
      )
      .map((block) => `${page}:${block.line} (\`\`\`${block.info})`),
  );
  Object.assign(result, {
    illustrative: blocks.filter((block) => block.info === 'text illustrative').length,
    run: consoleBlocks.length,
  });
  if (consoleBlocks.length === 0) return result;
  const folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'arena-docs-')));
  const rewrites = new Map<FencedBlock, string[]>();
  try {
    cpSync(path.join(repoRoot, 'examples'), path.join(folder, 'examples'), { recursive: true });
    mkdirSync(path.join(folder, 'node_modules'));
    // what an app that ran `npm install arena-runtime xstate` holds at its top level (npm
    // hoists the library's own dependencies): `node examples/embed/…` finds them
    for (const name of appPackages) {
      symlinkSync(
        realpathSync(path.join(repoRoot, 'node_modules', name)),
        path.join(folder, 'node_modules', name),
        'dir',
      );
    }
    let lastRunId: string | undefined;
    for (const block of consoleBlocks) {
      const body: string[] = [];
      let blockMatches = true;
      for (const shown of shownCommands(block)) {
        const where = `${page}:${shown.line}`;
        if (shown.command.includes(runIdToken) && lastRunId === undefined) {
          result.mismatches.push({
            where,
            command: shown.command,
            diff: 'the command names [RUN_ID], but no earlier block of the page printed one',
          });
          continue;
        }
        const command = shown.command.split(runIdToken).join(lastRunId ?? '');
        const ran = await runShown(command, folder);
        const { matches, runIds } = matchOutput(shown.expected, ran.output, folder);
        const printedIds = ran.output.match(/[a-z0-9][a-z0-9._-]*-\d{8}T\d{6}-[0-9a-f]{4}/g);
        lastRunId = runIds.at(0) ?? printedIds?.at(0) ?? lastRunId;
        // what ARENA_DOCS_UPDATE=1 writes: the old block where it still matches, the rest masked
        const proposed = updatedExpected(
          shown.expected,
          ran.output,
          folder,
          shown.expected.includes('[BYTES]'),
        );
        body.push(`$ ${shown.command}`, ...proposed.replace(/\n$/, '').split('\n'));
        if (proposed === '') body.pop();
        if (!matches) {
          blockMatches = false;
          result.mismatches.push({
            where,
            command: shown.command,
            diff: `exit code ${ran.code}\n${lineDiff(shown.expected, proposed)}`,
          });
        }
      }
      if (!blockMatches) rewrites.set(block, body);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (update && result.mismatches.length > 0) writeUpdated(page, markdown, rewrites);
  return result;
}

/** Write the real output (masked) of each block that differed into the page, as snapbox's overwrite mode does. */
function writeUpdated(page: string, markdown: string, rewrites: Map<FencedBlock, string[]>): void {
  const lines = markdown.split('\n');
  const ordered = [...rewrites].sort(([a], [b]) => b.line - a.line);
  for (const [block, body] of ordered) {
    const indented = body.map((line) => (line === '' ? '' : `${block.indent}${line}`));
    lines.splice(block.line, block.body.length, ...indented);
  }
  writeFileSync(path.join(repoRoot, page), lines.join('\n'));
}

/** Run `work` over `items`, `limit` at a time, keeping their order in the results. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

let results: PageResult[] = [];

describe('the manual', () => {
  beforeAll(async () => {
    results = await inPool(runPages, PAGES_AT_ONCE, runPage);
  }, 600_000);

  afterAll(() => {
    const run = results.reduce((sum, page) => sum + page.run, 0);
    const illustrative = results.reduce((sum, page) => sum + page.illustrative, 0);
    process.stdout.write(`docs: ${run} blocks run, ${illustrative} illustrative\n`);
  });

  it.each(runPages)('%s prints what it shows', (page) => {
    const result = results.find((candidate) => candidate.page === page);
    expect(result, page).toBeDefined();
    const report = (result?.mismatches ?? []).map(
      (mismatch) =>
        `${mismatch.where}: $ ${mismatch.command}\n(- shown, + printed, masked)\n${mismatch.diff}`,
    );
    const hint = update
      ? 'ARENA_DOCS_UPDATE=1 wrote the real output into the page: review it'
      : 'if the new output is right, run ARENA_DOCS_UPDATE=1 npx vitest run test/e2e/docs.test.ts';
    expect(report, `${hint}\n\n${report.join('\n\n')}`).toEqual([]);
  });

  it('runs every block that shows an arena command, or marks it illustrative', () => {
    const unmarked = results.flatMap((result) => result.unmarked);
    expect(
      unmarked,
      'fence it ```console to run it, or ```text illustrative when it cannot run',
    ).toEqual([]);
  });

  it.skipIf(only !== undefined)('marks at most 10% of its blocks illustrative', () => {
    const run = results.reduce((sum, page) => sum + page.run, 0);
    const illustrative = results.reduce((sum, page) => sum + page.illustrative, 0);
    expect(run).toBeGreaterThan(0);
    expect(
      illustrative / (run + illustrative),
      `${illustrative} illustrative of ${run + illustrative} blocks`,
    ).toBeLessThanOrEqual(ILLUSTRATIVE_SHARE);
  });
});

/**
 * Pages other branches write this round, linked from the map before they land.
 * A link to one of them is let through while it is missing (and said so); once
 * it exists, the test asks for its name to go from this list.
 */
const PAGES_OF_OTHER_BRANCHES: readonly string[] = [];

describe('the manual links', () => {
  it.each(pages)('%s links only to files and anchors that exist', (page) => {
    const broken = brokenLinks(path.join(repoRoot, page), textOf(page))
      .filter((link) => {
        const target = path.relative(
          repoRoot,
          path.resolve(repoRoot, path.dirname(page), link.target.split('#')[0]!),
        );
        const awaited = PAGES_OF_OTHER_BRANCHES.includes(target);
        if (awaited)
          process.stdout.write(`docs: ${page}:${link.line} links ${target}, not landed yet\n`);
        return !awaited;
      })
      .map((link) => `${page}:${link.line}: ${link.target}: ${link.problem}`);
    expect(broken).toEqual([]);
  });

  it('waits only for pages that have not landed', () => {
    const landed = PAGES_OF_OTHER_BRANCHES.filter((page) => existsSync(path.join(repoRoot, page)));
    expect(
      landed,
      'these pages have landed: take them out of PAGES_OF_OTHER_BRANCHES in test/e2e/docs.test.ts, so a broken link to them fails again',
    ).toEqual([]);
  });

  it('reaches every page of docs/ from the README, through the map or a page it links', () => {
    const reached = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const page = queue.shift()!;
      const links = [...textOf(page).matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)];
      for (const [, target] of links) {
        const linked = path.relative(repoRoot, path.resolve(repoRoot, path.dirname(page), target!));
        if (!reached.has(linked) && existsSync(path.join(repoRoot, linked))) {
          reached.add(linked);
          if (linked.startsWith('docs/')) queue.push(linked);
        }
      }
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });
});

describe('the README', () => {
  const readme = textOf('README.md');

  it('is a front door: at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('names both commands a new user needs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });

  it('shows the lifecycle picture that npm run docs draws', () => {
    expect(readme).toMatch(/<img [^>]*src="docs\/images\/controller\.svg"/);
  });
});

/** A page of the manual, for the checks of what it says beside its console blocks. */
const page = (name: string): string => textOf(name);

/** The findings `arena report` computes for a run file, from a store of its own. */
async function findingsOf(runFile: string): Promise<string[]> {
  const folder = mkdtempSync(path.join(tmpdir(), 'arena-docs-report-'));
  try {
    const store = `sqlite:${path.join(folder, 'arena.db')}`;
    const ran = await runArena(['run', runFile, '--store', store, '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const { runId } = JSON.parse(ran.stdout) as { runId: string };
    const report = await runArena(['report', runId, '--store', store, '--out', '-']);
    expect(report.code).toBe(0);
    const list = report.stdout.match(/<ul class="findings">(.*?)<\/ul>/s)?.[1] ?? '';
    return [...list.matchAll(/<li>(.*?)<\/li>/g)].map((match) => match[1] ?? '');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('what the pages say beside their blocks', () => {
  it('docs/study.md quotes the findings arena report computes for the study', async () => {
    const findings = await findingsOf('examples/hosting-capacity.yaml');
    expect(findings).toHaveLength(3);
    for (const finding of findings) expect(page('docs/study.md')).toContain(`  ${finding}\n`);
  });

  it('docs/meta-loop.md quotes the findings arena report computes for the loop', async () => {
    const findings = await findingsOf('examples/hosting-capacity-loop.yaml');
    expect(findings).toHaveLength(3);
    for (const finding of findings) expect(page('docs/meta-loop.md')).toContain(`\n${finding}\n`);
  });

  it('docs/embedding.md shows the embedding example exactly as it is in examples/', () => {
    const source = readFileSync(path.join(repoRoot, 'examples/embed/termination.mjs'), 'utf8');
    const body = source.split('\n').slice(2).join('\n');
    expect(page('docs/embedding.md')).toContain(body.trim());
  });

  it('docs/sweeps.md shows what pruning saved and cost on the example, as the variants really run', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'arena-docs-sweep-'));
    try {
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
        const row = page('docs/sweeps.md')
          .split('\n')
          .find((line) => line.startsWith(`| ${pruner} |`));
        expect(row, pruner).toBeDefined();
        expect(row).toContain(
          `| ${episodes} | trial ${best?.index} (${Number(best?.objective[0]?.toFixed(3))})`,
        );
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** Every README a user reads besides the manual's pages: each example folder's. */
const exampleReadmes = readdirSync(path.join(repoRoot, 'examples'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `examples/${entry.name}/README.md`)
  .filter((file) => existsSync(path.join(repoRoot, file)));

/** An absolute path that only exists on the machine the output was copied from. */
const machinePath =
  /(?<![\w.~-])(?:\/(?:work|tmp|home|root|Users|private|mnt|var\/folders)\/[^\s;,)`'"]*|[A-Z]:\\Users\\[^\s;,)`'"]*)/g;

/** A wall-clock figure stated as how long something takes ("about 3 s", "2-3 s here"). */
const durationClaim =
  /\b(?:about|around|roughly|nearly|almost|takes?|took|in|under|within)\s+~?\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?\s*(?:ms|s|secs?|seconds?|minutes?|mins?)\b|~\s*\d+(?:\.\d+)?\s*(?:ms|s|seconds?|minutes?)\b|\b\d+(?:\.\d+)?(?:\s*[-–]\s*\d+(?:\.\d+)?)?\s*(?:ms|s|seconds?|minutes?),?\s+here\b/gi;

/** Pages whose subject is measured per-operation costs, each stated with the machine it was measured on. */
const measuringPages = ['docs/thousand-workers.md'];

/** Figures stated as measured, on purpose: the suite's length, which a contributor plans by. */
const measuredClaims = ['about 13 minutes'];

/** The prose of a Markdown page: fenced blocks (real program output, checked elsewhere) removed. */
function prose(markdown: string): string {
  return markdown.replace(/^[ \t]*```[^\n]*\n[\s\S]*?^[ \t]*```$/gm, '');
}

describe('honesty of every page', () => {
  const everyPage = [...pages, ...exampleReadmes];

  it('finds the pages it checks', () => {
    expect(everyPage).toContain('README.md');
    expect(everyPage).toContain('docs/study.md');
    expect(everyPage).toContain('examples/embed/README.md');
  });

  it.each(everyPage)('%s shows no machine-specific absolute path', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    expect(text.match(machinePath) ?? []).toEqual([]);
  });

  it.each(everyPage.filter((file) => !measuringPages.includes(file)))(
    '%s states no wall-clock figure that no test checks',
    (file) => {
      const text = prose(readFileSync(path.join(repoRoot, file), 'utf8'));
      const claims = (text.match(durationClaim) ?? []).filter(
        (claim) => !measuredClaims.includes(claim),
      );
      expect(claims).toEqual([]);
    },
  );

  it.each(everyPage)('%s cites only repository paths that exist', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const cited =
      text.match(/(?<![\w./@~<>-])(?:examples|src|test|bench|scripts)\/[\w./-]*[\w/]/g) ?? [];
    expect(cited.filter((cite) => !existsSync(path.join(repoRoot, cite)))).toEqual([]);
  });

  it.each(everyPage)('%s starts every server it shows on 127.0.0.1 only', (file) => {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    // a server started in a shown command: `nats-server ...`, PostgreSQL's `postgres -D ...`
    const starts = text
      .split('\n')
      .filter((line) => /(?:^\$ |\/)(?:nats-server|postgres"?) -/.test(line));
    const open = starts.filter(
      (line) => !/ -a 127\.0\.0\.1 /.test(line) && !/listen_addresses=127\.0\.0\.1\b/.test(line),
    );
    expect(open).toEqual([]);
    if (file === 'docs/fleet.md') expect(starts.length).toBeGreaterThanOrEqual(3);
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
});
