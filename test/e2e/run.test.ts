import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import {
  hostingCapacityText,
  runFileMistakes,
  whereIn,
  withMistakes,
  writeRunFile,
} from '../support/badRunFiles.js';
import { repoRoot, runArena } from '../support/cli.js';
import { runRecords } from '../support/records.js';
import { scratchFolder } from '../support/scratch.js';

const runFile = path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml');

function workDir(): string {
  return scratchFolder('arena-run-');
}

function withStore<T>(cwd: string, read: (store: RunStore) => T): T {
  const store = openSqliteStore(path.join(cwd, '.arena/arena.db'));
  try {
    return read(store);
  } finally {
    store.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('arena run', () => {
  it('runs a run file with user modules and prints the closing summary', async () => {
    const cwd = workDir();
    const result = await runArena(['run', runFile], { cwd });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^run slow-line-\S+: succeeded \(seed 11\)/);
    expect(result.stdout).toMatch(/phase train \(train\): plateau after \d+ training episodes/);
    expect(result.stdout).toMatch(/phase test \(test\): max_episodes after 2 test episodes/);
    expect(result.stdout).toMatch(
      /stored in \.arena\/arena\.db; see it with: arena show slow-line-/,
    );
    const runs = withStore(cwd, (store) => store.listRuns());
    expect(runs).toHaveLength(1);
    expect(runs[0]?.status).toBe('succeeded');
  });

  it('reports a bad run file with its YAML path and exit code 2', async () => {
    const cwd = workDir();
    const bad = path.join(cwd, 'bad.yaml');
    writeFileSync(
      bad,
      'uid: x\nseed: 1\nversion: 1\nschedule:\n  - train:\n      phase_config: { mode: train, episodes: 0 }\n',
    );
    const result = await runArena(['run', bad], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/schedule\[0\]\.train/);
  });

  it('prints the summary as JSON with --json', async () => {
    const cwd = workDir();
    const result = await runArena(['run', runFile, '--json'], { cwd });
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { status: string; phases: { reason: string }[] };
    expect(summary.status).toBe('succeeded');
    expect(summary.phases.map((phase) => phase.reason)).toEqual(['plateau', 'max_episodes']);
  });

  it('stops on Ctrl-C with exit code 130 and records the run as cancelled', async () => {
    const cwd = workDir();
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'cli/bin/arena.js'), 'run', runFile],
      {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => resolve(code)),
    );
    await waitForEpisodes(cwd, 3, child);
    child.kill('SIGINT');
    expect({ code: await exited, stderr }).toEqual({
      code: 130,
      stderr: expect.stringContaining('cancelling'),
    });
    const run = withStore(cwd, (store) => {
      const [latest] = store.listRuns();
      return { status: latest?.status, phases: store.phases(latest?.runId ?? '') };
    });
    expect(run.status).toBe('cancelled');
    expect(run.phases[0]?.terminationReason).toBe('cancelled');
  });

  it('resumes a run killed with SIGKILL to the same decisions and records as an uninterrupted run', async () => {
    const reference = workDir();
    expect((await runArena(['run', runFile], { cwd: reference })).code).toBe(0);
    const expected = withStore(reference, (store) => {
      const [run] = store.listRuns();
      return runRecords(store, run?.runId ?? '');
    });

    const cwd = workDir();
    const child = spawn(
      process.execPath,
      [path.join(repoRoot, 'cli/bin/arena.js'), 'run', runFile],
      // nothing reads its output: ignore it, so a full pipe can never block the run
      { cwd, stdio: 'ignore' },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    await waitForEpisodes(cwd, 6, child);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const runId = withStore(cwd, (store) => {
      const [run] = store.listRuns();
      expect(run?.status).toBe('running');
      return run?.runId ?? '';
    });

    const resumed = await runArena(['run', '--resume', runId], { cwd });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const actual = withStore(cwd, (store) => runRecords(store, runId));
    expect(actual).toEqual(expected);
  });
});

/**
 * Poll the run store until the newest run has `count` episodes. Reads with a
 * read-only connection, so polling never takes a write lock from the run.
 */
async function waitForEpisodes(cwd: string, count: number, child?: ChildProcess): Promise<void> {
  const file = path.join(cwd, '.arena/arena.db');
  let lastError = 'the store does not exist yet';
  for (let attempt = 0; attempt < 1200; attempt++) {
    await sleep(25);
    if (child && child.exitCode !== null) {
      throw new Error(`the run exited with ${child.exitCode} before it had ${count} episodes`);
    }
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db
          .prepare(
            'SELECT count(*) AS episodes FROM episodes WHERE run_id = (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1)',
          )
          .get() as { episodes: number } | undefined;
        if ((row?.episodes ?? 0) >= count) return;
      } finally {
        db.close();
      }
    } catch (error) {
      lastError = (error as Error).message;
    }
  }
  throw new Error(`no run with ${count} episodes appeared in ${file} (${lastError})`);
}

describe('arena run checks a run file as arena validate does, before it creates a run', () => {
  it.each(runFileMistakes)(
    'rejects $name with exit code 2, its YAML path and line, and leaves no run in the store',
    async (mistake) => {
      const text = withMistakes(hostingCapacityText, [mistake]);
      const { cwd, file } = writeRunFile(text);
      const result = await runArena(['run', file], { cwd });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const line = result.stderr
        .split('\n')
        .find((candidate) => candidate.startsWith(`  ${mistake.path}: `));
      expect(line).toContain(mistake.says);
      expect(line?.endsWith(` ${whereIn(text, mistake)}`)).toBe(true);
      // the root cause is shown, not what a half-started run would fail with later
      expect(result.stderr).not.toMatch(/BrainStateError|saveState before setup/);
      // checked before the store is opened: not even an empty store is left behind
      expect(existsSync(path.join(cwd, '.arena'))).toBe(false);
      const runs = await runArena(['runs', '--json'], { cwd });
      expect(runs.stderr).toMatch(/^arena: StoreNotFoundError: no store at /);
    },
  );
});
