import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import { runArena } from '../support/cli.js';
import {
  fillSampleRun,
  sampleClock,
  sampleEpisode,
  sampleRunFile,
} from '../unit/store/sampleRun.js';

let folder: string;
let storeFile: string;
let storeUri: string;
const finished = 'grid-demo-20261129T200702-3fa2';
const running = 'plain-20261130T080000-00ff';

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-runs-e2e-'));
  storeFile = path.join(folder, 'runs', 'arena.db');
  storeUri = `sqlite:${storeFile}`;
  mkdirSync(path.dirname(storeFile));
  const store = openSqliteStore(storeFile, { clock: sampleClock() });
  fillSampleRun(store, finished);
  store.createRun({
    runId: running,
    uid: 'plain',
    seed: 7,
    runFile: sampleRunFile,
    runFilePath: 'plain.yaml',
    startedAt: '2026-11-30T08:00:00.000Z',
  });
  store.startPhase({ runId: running, phaseIndex: 0, name: 'warmup', mode: 'train' });
  store.recordEpisode(sampleEpisode(running, 0, 1, { episodeReturn: -1 }));
  store.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('arena runs', () => {
  it('lists the runs newest first as a table', async () => {
    const { code, stdout, stderr } = await runArena(['runs', '--store', storeUri]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'RUN ID                          UID        STATUS       STARTED               PHASES  EPISODES  TERMINATION',
        'plain-20261130T080000-00ff      plain      interrupted  2026-11-30T08:00:00Z  1       1         -',
        // 4 training episodes (its 2 evaluation episodes are counted apart, as arena show does)
        'grid-demo-20261129T200702-3fa2  grid-demo  succeeded    2026-11-29T20:07:02Z  1       4         success',
        '',
      ].join('\n'),
    );
  });

  it('prints the same listing as JSON, up to --limit runs', async () => {
    const { code, stdout } = await runArena([
      'runs',
      '--store',
      storeUri,
      '--json',
      '--limit',
      '1',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      {
        runId: running,
        uid: 'plain',
        // stored running, but nobody holds its lease: nobody runs it
        status: 'interrupted',
        startedAt: '2026-11-30T08:00:00.000Z',
        phases: 1,
        episodes: 1,
        evaluationEpisodes: 0,
        terminationReason: null,
        terminationReasons: [],
        worker: null,
      },
    ]);
  });

  it('reads .arena/arena.db in the current directory when --store is not given, and never creates it', async () => {
    const cwd = path.join(folder, 'fresh');
    mkdirSync(cwd);
    const { code, stderr } = await runArena(['runs'], { cwd });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `arena: StoreNotFoundError: no store at ${path.join(cwd, '.arena', 'arena.db')} (arena run creates one; name another with --store)\n`,
    );
    expect(existsSync(path.join(cwd, '.arena'))).toBe(false);
  });

  it('refuses a --store that is neither sqlite:PATH nor a whole postgres:// URI with exit 2', async () => {
    const { code, stderr } = await runArena(['runs', '--store', 'postgres://db/arena']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "arena: StoreUriError: --store must be sqlite:PATH (e.g. sqlite:.arena/arena.db), got 'postgres://db/arena': a postgres:// store needs a user, e.g. postgres://arena@127.0.0.1:5432/arena\n",
    );
  });
});

describe('arena show', () => {
  it('summarises phases, checkpoints, meta decisions and snapshots', async () => {
    const { code, stdout, stderr } = await runArena(['show', finished, '--store', storeUri]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `run ${finished}`,
        '  uid       grid-demo',
        '  seed      42',
        '  run file  run.yaml',
        '  status    succeeded',
        '  started   2026-11-29T20:07:02Z',
        '  ended     2026-11-29T20:07:02Z',
        'phases',
        '  0 train (train): done, success; 4 training episodes, mean return 4.5; 2 evaluation episodes, mean return 2',
        'checkpoints',
        '  phase 0 #0 after 2 training episodes: accepted, CONTINUE; operator reward=0.5',
        '  phase 0 #1 after 4 training episodes: accepted, CONTINUE; operator reward=1.5',
        'meta decisions',
        '  phase 0, start request 1: planner on grid',
        '    grid.definition.load: 0.427 → 0.5',
        '    grid.definition.pv: 0.913 → 1',
        'snapshots 2',
        '',
      ].join('\n'),
    );
  });

  it('prints the summary as JSON with --json', async () => {
    const { code, stdout } = await runArena(['show', running, '--store', storeUri, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.run).toMatchObject({ runId: running, status: 'running', seed: 7 });
    expect(report.phases).toEqual([
      {
        phaseIndex: 0,
        name: 'warmup',
        mode: 'train',
        status: 'running',
        terminationReason: null,
        trainingEpisodes: 1,
        meanReturn: -1,
        evaluationEpisodes: 0,
        evaluationMeanReturn: null,
      },
    ]);
    expect(report.snapshots).toBe(0);
  });

  it('reports an unknown run id in one line with exit 2', async () => {
    const { code, stdout, stderr } = await runArena(['show', 'no-such-run', '--store', storeUri]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `arena: no run 'no-such-run' in ${storeFile} (arena runs --store sqlite:${storeFile} lists the runs)\n`,
    );
  });
});

describe('arena show on a long run', () => {
  let studyRun: string;
  beforeAll(async () => {
    const ran = await runArena([
      'run',
      'examples/hosting-capacity.yaml',
      '--store',
      storeUri,
      '--json',
    ]);
    if (ran.code !== 0) throw new Error(`arena run exited ${ran.code}: ${ran.stderr}`);
    studyRun = (JSON.parse(ran.stdout) as { runId: string }).runId;
  });

  /** The checkpoint lines of `arena show`, and how many checkpoints the store holds. */
  async function shown(extra: string[]): Promise<{ lines: string[]; stored: number }> {
    const text = await runArena(['show', studyRun, '--store', storeUri, ...extra]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const json = await runArena(['show', studyRun, '--store', storeUri, '--json']);
    const stored = (JSON.parse(json.stdout) as { checkpoints: unknown[] }).checkpoints.length;
    return {
      lines: lines.slice(lines.indexOf('checkpoints') + 1, lines.indexOf('meta decisions')),
      stored,
    };
  }

  it('prints every checkpoint when piped, and says the constant metric once instead of in each line', async () => {
    const { lines, stored } = await shown([]);
    expect(stored).toBeGreaterThan(20);
    expect(lines[0]).toBe(
      `  constant: operator episodes=1 at all ${stored} checkpoints (left out below)`,
    );
    expect(lines.slice(1)).toHaveLength(stored);
    expect(lines.slice(1).some((line) => line.includes('episodes='))).toBe(false);
    expect(lines.some((line) => line.includes('…'))).toBe(false);
  });

  it('takes --all, which prints the same complete list', async () => {
    const piped = await shown([]);
    const all = await shown(['--all']);
    expect(all.lines).toEqual(piped.lines);
  });
});
