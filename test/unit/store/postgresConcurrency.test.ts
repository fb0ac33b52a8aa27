import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/ports/store/postgres/postgresStore.js';
import { repoRoot } from '../../support/cli.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.stop();
});

const writer = path.join(repoRoot, 'test/support/postgresWriter.ts');

interface Writer {
  /** Resolves once the writer is connected and waits at the start barrier. */
  readonly ready: Promise<void>;
  go(): void;
  readonly done: Promise<{ runIds: string[]; tokens: number[] }>;
}

function startWriter(args: readonly string[]): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, ...args], { cwd: repoRoot });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const done = new Promise<{ runIds: string[]; tokens: number[] }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      markReady();
      if (code === 0) resolve(JSON.parse(stdout.slice('ready\n'.length)));
      else reject(new Error(`writer ${args[1]} exited ${code}: ${stderr}`));
    });
  });
  return { ready, go: () => child.stdin.end(), done };
}

describe('N writer processes on one PostgreSQL store', () => {
  it('never lose or duplicate a row: every run, episode, snapshot, resume and lease token is there once', async () => {
    const uri = await server.createDatabase('concurrent');
    const writers = 4;
    const runs = 3;
    const episodes = 15;
    const grabs = 40;
    const started = Array.from({ length: writers }, (_, index) =>
      startWriter([uri, `w${index}`, String(runs), String(episodes), String(grabs)]),
    );
    // they all opened the new database at once: its schema was created once, not raced
    await Promise.all(started.map((one) => one.ready));
    const setup = openPostgresStore(uri);
    setup.createRun({
      runId: 'shared',
      uid: 'shared',
      seed: 0,
      runFile: '',
      runFilePath: '/s.yaml',
    });
    setup.close();
    for (const one of started) one.go();
    const results = await Promise.all(started.map((one) => one.done));

    const store = openPostgresStore(uri, { readonly: true });
    const reported = results.flatMap((result) => result.runIds).sort();
    const stored = store
      .listRuns()
      .filter((run) => run.uid === 'concurrent')
      .map((run) => run.runId)
      .sort();
    expect(new Set(reported).size).toBe(writers * runs);
    expect(stored).toEqual(reported);
    for (const runId of stored) {
      expect(store.getRun(runId)).toMatchObject({ status: 'succeeded', lease: null });
      expect(store.episodes(runId).map((episode) => episode.episode)).toEqual(
        Array.from({ length: episodes }, (_, index) => index + 1),
      );
      expect(store.snapshotCount(runId)).toBe(episodes);
      // each run's records are its own writer's: no row landed under another run
      const writerName = store.getRun(runId).runFile;
      expect(store.latestSnapshot(runId)?.state).toEqual({ writer: writerName, episode: episodes });
    }
    // every takeover got a new fencing token, and every resume its own index
    const tokens = results.flatMap((result) => result.tokens).sort((a, b) => a - b);
    expect(tokens).toEqual(Array.from({ length: writers * grabs }, (_, index) => index + 1));
    expect(store.resumes('shared').map((resume) => resume.resumeIndex)).toEqual(
      Array.from({ length: writers * grabs }, (_, index) => index + 1),
    );
    store.close();
  });
});
