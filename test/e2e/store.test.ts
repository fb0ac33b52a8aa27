import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { postgresMigrations } from '../../src/ports/store/postgres/postgresSchema.js';
import { storeMigrations } from '../../src/ports/store/sqlite/sqliteSchema.js';
import { arenaForOtherUser } from '../support/arenaForOtherUser.js';
import { type CliRun, repoRoot, runArena } from '../support/cli.js';
import { manualText } from '../support/manual.js';
import { scratchFolder } from '../support/scratch.js';

const runFile = path.join(repoRoot, 'examples/custom-environment.yaml');

/** Run `arena` with these arguments in this folder. */
type ArenaRunner = (args: readonly string[], cwd: string) => Promise<CliRun>;

const nobody = { uid: 65534, gid: 65534 };

/**
 * Run `arena` as a user who cannot write the files, as a user meets a
 * read-only store: as `nobody` when the tests run as root (root writes
 * anything), from a copy `nobody` can reach (the checkout may sit in a private
 * folder); as the current user otherwise. Skips the test, saying why, only
 * where `nobody` cannot run node at all.
 */
async function arenaWithoutWriteAccess(context: TestContext): Promise<ArenaRunner> {
  if (process.getuid?.() !== 0) return (args, cwd) => runArena(args, { cwd, env: { HOME: cwd } });
  const arena = await arenaForOtherUser(nobody);
  if ('unreachable' in arena) context.skip(arena.unreachable);
  const { bin } = arena;
  return (args, cwd) => runArena(args, { cwd, env: { HOME: cwd }, user: nobody, bin });
}

/** A folder anyone may read, holding a store with one finished run. */
async function storeWithRun(): Promise<{ folder: string; store: string; runId: string }> {
  const folder = scratchFolder('arena-store-');
  chmodSync(folder, 0o755);
  const store = path.join(folder, 'arena.db');
  const run = await runArena(['run', runFile, '--store', `sqlite:${store}`, '--json'], {
    cwd: folder,
  });
  expect(run.code).toBe(0);
  return { folder, store, runId: (JSON.parse(run.stdout) as { runId: string }).runId };
}

describe('read commands open the store read-only', () => {
  let finished: Awaited<ReturnType<typeof storeWithRun>>;
  beforeAll(async () => {
    finished = await storeWithRun();
  });

  it('never create a store: a mistyped path is one line and exit 2, and no folder or file appears', async () => {
    const folder = scratchFolder('arena-typo-');
    const typo = path.join(folder, 'typo', 'x.db');
    for (const command of [['runs'], ['show', 'some-run'], ['report', 'some-run']]) {
      const result = await runArena([...command, '--store', `sqlite:${typo}`], { cwd: folder });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `arena: StoreNotFoundError: no store at ${typo} (arena run creates one; name another with --store)\n`,
      );
    }
    expect(existsSync(path.join(folder, 'typo'))).toBe(false);
  });

  it('arena run --resume and arena check on a mistyped store say "no store at" too, and create nothing', async () => {
    const folder = scratchFolder('arena-typo-');
    const typo = path.join(folder, 'typo', 'x.db');
    // each names the store the way it takes it: run by --store, check by its argument
    for (const [command, hint] of [
      [['run', '--resume', 'some-run', '--store', `sqlite:${typo}`], 'name another with --store'],
      [
        ['check', `sqlite:${typo}`],
        'arena check takes the store as its argument: arena check sqlite:PATH',
      ],
    ] as const) {
      const result = await runArena(command, { cwd: folder });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `arena: StoreNotFoundError: no store at ${typo} (arena run creates one; ${hint})\n`,
      );
    }
    // without --store: the default store of the folder, which is not there either
    const resumed = await runArena(['run', '--resume', 'some-run'], { cwd: folder });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/^arena: StoreNotFoundError: no store at .*\.arena\/arena\.db /);
    expect(existsSync(path.join(folder, 'typo'))).toBe(false);
    expect(existsSync(path.join(folder, '.arena'))).toBe(false);
  });

  it('read a store file nobody may write, in a folder nobody may write', async (context) => {
    const runArenaWithoutWriteAccess = await arenaWithoutWriteAccess(context);
    const { folder, store, runId } = finished;
    chmodSync(store, 0o444);
    chmodSync(folder, 0o555);
    const before = readFileSync(store);
    try {
      const runs = await runArenaWithoutWriteAccess(
        ['runs', '--store', `sqlite:${store}`, '--json'],
        folder,
      );
      expect(runs.stderr).toBe('');
      expect(runs.code).toBe(0);
      expect((JSON.parse(runs.stdout) as { runId: string }[]).map((run) => run.runId)).toEqual([
        runId,
      ]);
      const shown = await runArenaWithoutWriteAccess(
        ['show', runId, '--store', `sqlite:${store}`],
        folder,
      );
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`run ${runId}`);
      const report = await runArenaWithoutWriteAccess(
        ['report', runId, '--store', `sqlite:${store}`, '--out', '-'],
        folder,
      );
      expect(report.code).toBe(0);
      expect(report.stdout).toContain('<html');
      const checked = await runArenaWithoutWriteAccess(['check', store], folder);
      expect(checked.stdout).toContain(
        `ok: arena.db is a sound arena store (schema version ${storeMigrations.length}, 1 run)`,
      );
      expect(readFileSync(store).equals(before)).toBe(true);
    } finally {
      chmodSync(folder, 0o755);
      chmodSync(store, 0o644);
    }
  });

  it('read a read-only store file in a folder they may write', async (context) => {
    const runArenaWithoutWriteAccess = await arenaWithoutWriteAccess(context);
    const { folder, store, runId } = await storeWithRun();
    chmodSync(store, 0o444);
    chmodSync(folder, 0o777);
    const shown = await runArenaWithoutWriteAccess(
      ['show', runId, '--store', `sqlite:${store}`],
      folder,
    );
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
  });
});

describe('foreign and damaged store files', () => {
  it('name a file that is not a database in one line, exit 2, no stack trace', async () => {
    const folder = scratchFolder('arena-bad-');
    const notes = path.join(folder, 'notes.db');
    writeFileSync(notes, 'these are my notes, not a database\n'.repeat(200));
    for (const command of [['runs'], ['run', runFile]]) {
      const result = await runArena([...command, '--store', `sqlite:${notes}`], { cwd: folder });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `arena: StoreOpenError: ${notes}: not a database (is this the right file?)\n`,
      );
    }
    expect(readFileSync(notes, 'utf8')).toMatch(/^these are my notes/);
  });

  it('refuse a SQLite database of another program instead of adding tables to it', async () => {
    const folder = scratchFolder('arena-bad-');
    const other = path.join(folder, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE contacts (name TEXT)');
    db.close();
    const result = await runArena(['run', runFile, '--store', `sqlite:${other}`], { cwd: folder });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${other}: a SQLite database, but not an arena store`);
    const reopened = new Database(other, { readonly: true });
    expect(reopened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: 'contacts' },
    ]);
    reopened.close();
  });

  it('arena check finds damage the normal path never reads, and says so with exit 2', async () => {
    const { store, runId } = await storeWithRun();
    expect((await runArena(['check', store])).code).toBe(0);
    // overwrite the middle of the file (index and table pages), leaving the header and schema intact
    const size = statSync(store).size;
    const pageSize = 4096;
    const file = openSync(store, 'r+');
    const garbage = Buffer.alloc(pageSize, 0x5a);
    for (
      let page = Math.floor(size / pageSize / 2);
      page < Math.floor(size / pageSize) - 1;
      page += 3
    ) {
      writeSync(file, garbage, 0, pageSize, page * pageSize);
    }
    closeSync(file);
    const checked = await runArena(['check', `sqlite:${store}`]);
    expect(checked.code).toBe(2);
    expect(checked.stdout).toMatch(new RegExp(`^damaged: ${store} \\(\\d+ problems?\\)\\n  - `));
    const shown = await runArena(['show', runId, '--store', `sqlite:${store}`]);
    expect(shown.stderr).not.toMatch(/\n\s+at /);
    expect([0, 2]).toContain(shown.code);
  });

  it('creates its store folder only for a command that writes', async () => {
    const folder = scratchFolder('arena-new-');
    const store = path.join(folder, 'nested', 'deeper', 'arena.db');
    mkdirSync(path.join(folder, 'nested'));
    const result = await runArena(['run', runFile, '--store', `sqlite:${store}`], { cwd: folder });
    expect(result.code).toBe(0);
    expect(existsSync(store)).toBe(true);
  });
});

describe('README: what the store promises', () => {
  it('shows what arena check really prints for a folder with one run in its default store', async () => {
    const folder = scratchFolder('arena-readme-check-');
    expect((await runArena(['run', runFile], { cwd: folder })).code).toBe(0);
    const { code, stdout } = await runArena(['check'], { cwd: folder });
    expect(code).toBe(0);
    const readme = manualText();
    expect(readme).toContain(`  $ npx arena check\n  ${stdout}  \`\`\``);
  });

  it('explains the schema version it shows, with the numbers this arena writes', () => {
    const readme = manualText().replace(/\s+/g, ' ');
    expect(readme).toContain('The schema version counts the migrations a store has had');
    expect(readme).toContain(
      `SQLite stores are at version ${storeMigrations.length} and its PostgreSQL stores at ${postgresMigrations.length}`,
    );
    expect(readme).toContain('A newer arena migrates an older store');
  });
});
