import { cpSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { startArena } from '../support/faultTrials.js';
import { readStore, runRecords } from '../support/records.js';
import { scratchFolder } from '../support/scratch.js';

const cli = path.join(repoRoot, 'cli/bin/arena.js');

/** A user's experiment folder: the slow run file and its user module, copied. */
function experiment(): { folder: string; runFile: string; module: string } {
  const folder = scratchFolder('arena-experiment-');
  cpSync(path.join(repoRoot, 'test/fixtures/runs/slow'), folder, { recursive: true });
  return {
    folder,
    runFile: path.join(folder, 'run.yaml'),
    module: path.join(folder, 'components.js'),
  };
}

/** Start `arena run` in `cwd` with a relative run file and SIGKILL it once it has `episodes` episodes. */
async function killedRun(
  cwd: string,
  runFile: string,
  store: string,
  episodes: number,
): Promise<string> {
  const arena = startArena(cli, ['run', runFile, '--store', `sqlite:${store}`], cwd);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      const count = readStore(store, (opened) => {
        const [run] = opened.listRuns();
        return run === undefined ? 0 : opened.episodes(run.runId).length;
      });
      if (count >= episodes) break;
    } catch {
      // not created yet
    }
  }
  arena.child.kill('SIGKILL');
  await arena.exited;
  return readStore(store, (opened) => opened.listRuns()[0]?.runId as string);
}

describe('arena run --resume', () => {
  it('resumes from any working directory: the run file and its modules resolve where the run started', async () => {
    const reference = experiment();
    const referenceStore = path.join(reference.folder, 'ref.db');
    expect(
      (
        await runArena(['run', 'run.yaml', '--store', `sqlite:${referenceStore}`], {
          cwd: reference.folder,
        })
      ).code,
    ).toBe(0);
    const expected = readStore(referenceStore, (store) =>
      runRecords(store, store.listRuns()[0]?.runId as string),
    );

    const { folder } = experiment();
    const store = path.join(folder, 'arena.db');
    const runId = await killedRun(folder, 'run.yaml', store, 8);
    expect(readStore(store, (opened) => opened.getRun(runId).runFilePath)).toBe(
      path.join(folder, 'run.yaml'),
    );
    const elsewhere = scratchFolder('arena-elsewhere-');
    const resumed = await runArena(
      ['run', '--resume', runId, '--store', `sqlite:${store}`, '--json'],
      {
        cwd: elsewhere,
      },
    );
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(readStore(store, (opened) => runRecords(opened, runId))).toEqual(expected);
  });

  it('prints a closing summary, runs.summary and arena show that cover the whole run, not only what came after the resume', async () => {
    const reference = experiment();
    const referenceStore = path.join(reference.folder, 'ref.db');
    const whole = await runArena(
      ['run', reference.runFile, '--store', `sqlite:${referenceStore}`, '--json'],
      {
        cwd: reference.folder,
      },
    );
    const expected = JSON.parse(whole.stdout) as { runId: string; phases: unknown[] };

    const { folder, runFile } = experiment();
    const store = path.join(folder, 'arena.db');
    const runId = await killedRun(folder, runFile, store, 12);
    const resumed = await runArena(
      ['run', '--resume', runId, '--store', `sqlite:${store}`, '--json'],
      { cwd: folder },
    );
    expect(resumed.code).toBe(0);
    const summary = JSON.parse(resumed.stdout) as { runId: string; phases: unknown[] };
    expect(summary.phases).toEqual(expected.phases);
    expect(readStore(store, (opened) => opened.getRun(runId).summary)).toEqual(summary);
    const shown = await runArena(['show', runId, '--store', `sqlite:${store}`, '--json'], {
      cwd: folder,
    });
    const report = JSON.parse(shown.stdout) as {
      phases: { trainingEpisodes: number; evaluationEpisodes: number }[];
      resumes: { episode: number; forced: boolean }[];
    };
    const episodes = (expected.phases as { episodes: number; evaluationEpisodes: number }[]).map(
      (phase) => [phase.episodes, phase.evaluationEpisodes],
    );
    expect(
      report.phases.map((phase) => [phase.trainingEpisodes, phase.evaluationEpisodes]),
    ).toEqual(episodes);
    expect(report.resumes).toHaveLength(1);
    expect(report.resumes[0]?.forced).toBe(false);
  });

  it('refuses to resume when a user module changed since the run started, naming the file; --force resumes and records it', async () => {
    const { folder, runFile, module } = experiment();
    const store = path.join(folder, 'arena.db');
    const runId = await killedRun(folder, runFile, store, 6);
    await appendFile(module, '\n// edited after the run started\n');
    const refused = await runArena(['run', '--resume', runId, '--store', `sqlite:${store}`], {
      cwd: folder,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`these modules changed since it started: ${module}`);
    expect(refused.stderr).toContain('--force');
    const untouched = readStore(store, (opened) => ({
      run: opened.getRun(runId),
      resumes: opened.resumes(runId),
    }));
    expect(untouched.run.status).toBe('running');
    expect(untouched.run.lease).toBeNull();
    expect(untouched.resumes).toEqual([]);

    const forced = await runArena(
      ['run', '--resume', runId, '--force', '--store', `sqlite:${store}`],
      { cwd: folder },
    );
    expect(forced.code).toBe(0);
    const resumes = readStore(store, (opened) => opened.resumes(runId));
    expect(resumes).toEqual([expect.objectContaining({ forced: true, changedModules: [module] })]);
    const shown = await runArena(['show', runId, '--store', `sqlite:${store}`], { cwd: folder });
    expect(shown.stdout).toContain(`(forced: ${module} had changed)`);
  });

  it('refuses a resume of a run that another live process is running, with exit 2 and the holder named', async () => {
    const { folder, runFile } = experiment();
    const store = path.join(folder, 'arena.db');
    const running = startArena(cli, ['run', runFile, '--store', `sqlite:${store}`], folder);
    let runId: string | undefined;
    while (runId === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        runId = readStore(store, (opened) => opened.listRuns()[0]?.runId);
      } catch {
        // not created yet
      }
    }
    // held still while the resume is tried, so a loaded machine cannot let the run end first;
    // its lease (15 s) outlasts the resume's start-up
    running.child.kill('SIGSTOP');
    let second: Awaited<ReturnType<typeof runArena>>;
    try {
      second = await runArena(['run', '--resume', runId, '--store', `sqlite:${store}`], {
        cwd: folder,
      });
    } finally {
      running.child.kill('SIGCONT');
    }
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(`run '${runId}' is being run by pid ${running.child.pid} on `),
    );
    expect((await running.exited).code).toBe(0);
  });
});
