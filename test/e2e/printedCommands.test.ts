import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliRun, repoRoot, runArena, runProcess, startProcess } from '../support/cli.js';
import { readStore } from '../support/records.js';
import { scratchFolder } from '../support/scratch.js';

const cli = path.join(repoRoot, 'cli/bin/arena.js');

/** A user's experiment folder with the slow run file; the store is `runs.db` in it. */
function experiment(): string {
  const folder = scratchFolder('arena-printed-');
  cpSync(path.join(repoRoot, 'test/fixtures/runs/slow'), folder, { recursive: true });
  return folder;
}

/** Run a command arena printed, word by word, as a shell would in `cwd`. */
function runPrinted(command: string, cwd: string): Promise<CliRun> {
  const [arena, ...args] = command.trim().split(/\s+/);
  expect(arena).toBe('arena');
  return runArena(args, { cwd });
}

/** The command after `label` in `text`. */
function printedAfter(label: string, text: string): string {
  const line = text.split('\n').find((each) => each.includes(label));
  expect(line, `a line with '${label}' in:\n${text}`).toBeDefined();
  return (line as string).slice((line as string).indexOf(label) + label.length);
}

/** Start `arena run` in `folder` and wait until its store holds `episodes` episodes. */
async function startedRun(folder: string, episodes: number) {
  const running = startProcess(
    process.execPath,
    [cli, 'run', 'run.yaml', '--store', 'sqlite:runs.db'],
    { cwd: folder, env: { ...process.env, NO_COLOR: '1' } },
  );
  await waitForEpisodes(path.join(folder, 'runs.db'), episodes);
  const runId = readStore(path.join(folder, 'runs.db'), (store) => store.listRuns()[0]?.runId);
  return { running, runId: runId as string };
}

/** Wait until the first run of the store `file` has stored `episodes` episodes. */
async function waitForEpisodes(file: string, episodes: number): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const count = (() => {
      try {
        return readStore(file, (store) => {
          const [run] = store.listRuns();
          return run === undefined ? 0 : store.episodes(run.runId).length;
        });
      } catch {
        return 0; // not created yet
      }
    })();
    if (count >= episodes) return;
  }
}

describe('commands arena prints run as printed', () => {
  it("a finished run's 'see it with' names its store, and shows the run", async () => {
    const folder = experiment();
    const run = await runArena(['run', 'run.yaml', '--store', 'sqlite:runs.db'], { cwd: folder });
    expect(run.code).toBe(0);
    const show = printedAfter('see it with: ', run.stdout);
    expect(show).toMatch(/^arena show \S+ --store sqlite:runs\.db$/);
    const shown = await runPrinted(show, folder);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^run slow-line-/);
  });

  it('a live run is running until its lease lapses; cancelled, it prints the resume command that finishes it', async () => {
    const folder = experiment();
    const { running, runId } = await startedRun(folder, 3);
    const live = await runArena(['show', runId, '--store', 'sqlite:runs.db'], { cwd: folder });
    expect(live.stdout).toMatch(/^ {2}status {4}running \(lease lapses in \d+ s\)$/m);
    running.child.kill('SIGINT');
    const cancelled = await running.exited;
    expect(cancelled.code).toBe(130);
    const resume = printedAfter('resume it with: ', cancelled.stdout);
    expect(resume).toBe(`arena run --resume ${runId} --store sqlite:runs.db`);
    const resumed = await runPrinted(resume, folder);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`^run ${runId}: succeeded`));
  });

  it("arena check's hint for a missing store names the store as its argument", async () => {
    const folder = experiment();
    const checked = await runArena(['check', 'sqlite:missing.db'], { cwd: folder });
    expect(checked.code).toBe(2);
    expect(checked.stderr).not.toContain('check --store');
    const hint = printedAfter('arena check takes the store as its argument: ', checked.stderr);
    expect(hint).toBe('arena check sqlite:PATH)\n'.trimEnd());
  });
});

/**
 * A user's project with arena-cli installed (its bin in node_modules/.bin, where npx finds it),
 * and `npx` as they type it: offline, so a missing bin fails instead of fetching a package.
 */
function npxProject(): { folder: string; npx: (command: string) => Promise<CliRun> } {
  const folder = experiment();
  mkdirSync(path.join(folder, 'node_modules/.bin'), { recursive: true });
  symlinkSync(cli, path.join(folder, 'node_modules/.bin/arena'));
  const npx = (command: string) =>
    runProcess('sh', ['-c', command], {
      cwd: folder,
      env: { ...process.env, NO_COLOR: '1', npm_config_offline: 'true' },
      timeoutMs: 120_000,
    });
  return { folder, npx };
}

describe('commands arena prints through npx run as printed', () => {
  it("a run started with npx prints 'npx arena show', which shows the run", async () => {
    const { npx } = npxProject();
    const run = await npx('npx arena run run.yaml --store sqlite:runs.db');
    expect(run.code, run.stderr).toBe(0);
    const show = printedAfter('see it with: ', run.stdout);
    expect(show).toMatch(/^npx arena show \S+ --store sqlite:runs\.db$/);
    const shown = await npx(show);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^run slow-line-/);
  });

  it('a cancelled run under npx prints the npx resume command, which finishes it', async () => {
    const { folder, npx } = npxProject();
    const runs = path.join(folder, 'runs.db');
    // npm's marks as npx sets them for arena (what the test above gets from a real npx)
    const running = startProcess(
      process.execPath,
      [cli, 'run', 'run.yaml', '--store', 'sqlite:runs.db'],
      {
        cwd: folder,
        env: {
          ...process.env,
          NO_COLOR: '1',
          npm_command: 'exec',
          npm_lifecycle_event: 'npx',
          npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
        },
      },
    );
    await waitForEpisodes(runs, 3);
    running.child.kill('SIGINT');
    const cancelled = await running.exited;
    expect(cancelled.code).toBe(130);
    const runId = readStore(runs, (store) => store.listRuns()[0]?.runId) as string;
    const resume = printedAfter('resume it with: ', cancelled.stdout);
    expect(resume).toBe(`npx arena run --resume ${runId} --store sqlite:runs.db`);
    const resumed = await npx(resume);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`^run ${runId}: succeeded`));
  });
});

describe('a run whose runner is gone', () => {
  it('is interrupted in arena show and arena runs, with the resume command that finishes it; its report says it is unfinished first', async () => {
    const folder = experiment();
    const { running, runId } = await startedRun(folder, 5);
    running.child.kill('SIGKILL');
    const killed = await running.exited;
    const pid = running.child.pid;
    expect(killed.signal).toBe('SIGKILL');

    const shown = await runArena(['show', runId, '--store', 'sqlite:runs.db'], { cwd: folder });
    expect(shown.stdout).toMatch(
      new RegExp(
        `^ {2}status {4}interrupted \\(its runner \\(pid ${pid} on \\S+\\) is gone\\)$`,
        'm',
      ),
    );
    expect(shown.stdout).not.toMatch(/^ {2}running /m);
    expect(shown.stdout).toMatch(/^ {2}0 train \(train\): interrupted, /m);

    const listed = await runArena(['runs', '--store', 'sqlite:runs.db'], { cwd: folder });
    const row = listed.stdout.split('\n').find((line) => line.startsWith(runId)) ?? '';
    expect(row.split(/\s{2,}/)).toEqual([
      runId,
      'slow-line',
      'interrupted',
      expect.any(String),
      '1',
      expect.any(String),
      '-',
    ]);

    const report = await runArena(['report', runId, '--store', 'sqlite:runs.db', '--out', '-'], {
      cwd: folder,
    });
    expect(report.code).toBe(0);
    const body = report.stdout.slice(report.stdout.indexOf('<body'));
    const note = body.indexOf('This run is unfinished: interrupted (its runner');
    expect(note).toBeGreaterThan(0);
    // right under the page title, before any section, table or chart
    expect(body.slice(0, note)).not.toMatch(/<h[2-6]|<section|<table|<canvas/);
    expect(report.stdout).not.toContain("The study's answer");

    const resume = printedAfter('  resume    ', shown.stdout);
    expect(resume).toBe(`arena run --resume ${runId} --store sqlite:runs.db`);
    const resumed = await runPrinted(resume, folder);
    expect(resumed.code).toBe(0);
    const after = await runArena(['show', runId, '--store', 'sqlite:runs.db'], { cwd: folder });
    expect(after.stdout).toMatch(/^ {2}status {4}succeeded$/m);
  });
});
