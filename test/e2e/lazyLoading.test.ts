import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { moduleLog } from '../support/moduleLog.js';
import { queueExperiment } from '../support/queueFleet.js';

describe('what a command loads at start-up', () => {
  it('arena run loads no pino while nothing is logged, and pino once something is', async () => {
    const experiment = queueExperiment(0);
    const quiet = moduleLog(experiment.folder, 'quiet');
    const ran = await runArena(['run', experiment.runFile, '--store', 'sqlite:quiet.db'], {
      cwd: experiment.folder,
      env: quiet.env,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(quiet.loaded()).toContain('better-sqlite3');
    expect(quiet.loaded()).not.toMatch(/node_modules\/pino\//);

    const told = moduleLog(experiment.folder, 'told');
    const verbose = await runArena(
      ['--log-level', 'debug', 'run', experiment.runFile, '--store', 'sqlite:told.db', '--json'],
      { cwd: experiment.folder, env: told.env },
    );
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(told.loaded()).toMatch(/node_modules\/pino\//);
    expect(verbose.stderr).toMatch(/^\{"level":20,/m);
  });

  it("bundles zod's English message locale alone", () => {
    const chunks = path.join(repoRoot, 'cli/dist/chunks');
    const bundled = readdirSync(chunks)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) =>
        [
          ...readFileSync(path.join(chunks, file), 'utf8').matchAll(
            /^\/\/ node_modules\/zod\/v4\/locales\/(\S+)$/gm,
          ),
        ].map((match) => match[1]),
      );
    expect(bundled).toEqual(['en.js']);
  });
});
