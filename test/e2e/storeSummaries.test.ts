import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesWithMistakes, sweepExamples } from '../support/badRunFiles.js';
import { repoRoot, runArena } from '../support/cli.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';

let server: TestPostgres;
let uri: string;
let folder: string;

beforeAll(async () => {
  server = await startTestPostgres();
  uri = await server.createDatabase('summaries');
  folder = mkdtempSync(path.join(tmpdir(), 'arena-summaries-e2e-'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** The shipped run files that run on their own (remote-environment.yaml needs `arena serve`). */
const examples = readdirSync(path.join(repoRoot, 'examples'))
  .filter((name) => name.endsWith('.yaml') && !examplesWithMistakes.includes(name))
  .filter((name) => !sweepExamples.includes(name))
  .filter((name) => !readFileSync(path.join(repoRoot, 'examples', name), 'utf8').includes('nats:'));

interface ShownPhase {
  readonly meanReturn: number | null;
  readonly evaluationMeanReturn: number | null;
}
interface Shown {
  readonly run: { readonly summary: { readonly phases: readonly { meanReturn: number | null }[] } };
  readonly phases: readonly ShownPhase[];
}

/** Run a file into a store and read it back with `arena show --json`. */
async function runAndShow(runFile: string, store: string): Promise<Shown> {
  const ran = await runArena(['run', runFile, '--store', store]);
  expect(ran.code, ran.stderr).toBe(0);
  const runId = /^run (\S+): /m.exec(ran.stdout)?.[1] ?? '';
  const shown = await runArena(['show', runId, '--store', store, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout) as Shown;
}

describe('summaries of one run in two stores', () => {
  it('finds shipped examples to run', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples)(
    '%s: SQLite and PostgreSQL give every phase the same mean returns to the bit, as the run summary does',
    async (name) => {
      const runFile = path.join(repoRoot, 'examples', name);
      const [onSqlite, onPostgres] = await Promise.all([
        runAndShow(runFile, `sqlite:${path.join(folder, `${name}.db`)}`),
        runAndShow(runFile, uri),
      ]);
      expect(onPostgres.phases).toHaveLength(onSqlite.phases.length);
      onSqlite.phases.forEach((phase, index) => {
        const other = onPostgres.phases[index]!;
        expect(other.meanReturn).toBe(phase.meanReturn);
        expect(other.evaluationMeanReturn).toBe(phase.evaluationMeanReturn);
        // the closing summary and arena show compute a phase's mean in one place
        expect(onSqlite.run.summary.phases[index]?.meanReturn).toBe(phase.meanReturn);
        expect(onPostgres.run.summary.phases[index]?.meanReturn).toBe(phase.meanReturn);
      });
    },
    120_000,
  );
});
