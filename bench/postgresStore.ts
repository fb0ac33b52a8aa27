/**
 * The PostgreSQL store against the SQLite store, on loopback: what one
 * synchronous call costs (the worker-thread bridge on top of pg's own round
 * trip), and episode records per second (each insert is one round trip, batched or not) written one per transaction and
 * through the store writer. It starts its own throw-away PostgreSQL server (fsync off: it measures round trips, not the disk).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../src/ports/store/postgres/postgresStore.js';
import { openSyncConnection } from '../src/ports/store/postgres/syncConnection.js';
import { openSqliteStore } from '../src/ports/store/sqlite/sqliteStore.js';
import type { EpisodeRecord, RunStore } from '../src/ports/store/store.js';
import { createStoreWriter } from '../src/ports/store/storeWriter.js';
import { startTestPostgres } from '../test/support/postgres.js';

const calls = 5_000;
const episodes = 5_000;
const server = await startTestPostgres();
const folder = mkdtempSync(path.join(tmpdir(), 'arena-bench-pg-'));

const micros = (ms: number, count: number) => (ms * 1000) / count;

async function asyncRoundTrip(): Promise<number> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: server.port,
    user: 'arena',
    database: 'postgres',
  });
  await client.connect();
  await client.query('SELECT 1');
  const start = performance.now();
  for (let call = 0; call < calls; call++) await client.query('SELECT 1');
  const elapsed = performance.now() - start;
  await client.end();
  return micros(elapsed, calls);
}

function syncRoundTrip(): number {
  const connection = openSyncConnection(
    {
      host: '127.0.0.1',
      port: server.port,
      user: 'arena',
      database: 'postgres',
      connectTimeoutMs: 10_000,
      tls: { sslmode: 'disable', attempts: [false] },
    },
    30_000,
  );
  connection.query('SELECT 1');
  const start = performance.now();
  for (let call = 0; call < calls; call++) connection.query('SELECT 1');
  const elapsed = performance.now() - start;
  connection.close();
  return micros(elapsed, calls);
}

function episodeRecord(runId: string, episode: number): EpisodeRecord {
  return {
    runId,
    phaseIndex: 0,
    episode,
    mode: 'train',
    evaluation: false,
    episodeReturn: episode * 0.5,
    steps: 96,
    returnsByAgent: { operator: episode * 0.5 },
    doneReason: 'environment_done',
  };
}

function recordsPerSecond(store: RunStore, batched: boolean): number {
  const runId = store.createRun({ uid: 'bench', seed: 1, runFile: '', runFilePath: 'bench' }).runId;
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
  const start = performance.now();
  if (batched) {
    const writer = createStoreWriter(store, { maxBatch: 256, maxDelayMs: 50 });
    for (let episode = 1; episode <= episodes; episode++) {
      writer.write({ kind: 'episode', record: episodeRecord(runId, episode) });
    }
    writer.close();
  } else {
    for (let episode = 1; episode <= episodes; episode++)
      store.recordEpisode(episodeRecord(runId, episode));
  }
  const seconds = (performance.now() - start) / 1000;
  if (store.episodes(runId).length !== episodes) throw new Error('records lost');
  return episodes / seconds;
}

try {
  const asyncMicros = await asyncRoundTrip();
  const syncMicros = syncRoundTrip();
  console.log(
    `SELECT 1 round trip: pg awaited on the main thread ${asyncMicros.toFixed(0)} µs, through the synchronous bridge ${syncMicros.toFixed(0)} µs (${(syncMicros / asyncMicros).toFixed(2)}x)`,
  );
  const uri = await server.createDatabase('bench');
  for (const batched of [false, true]) {
    const sqlite = openSqliteStore(path.join(folder, `bench-${batched}.db`));
    const postgres = openPostgresStore(uri);
    const onSqlite = recordsPerSecond(sqlite, batched);
    const onPostgres = recordsPerSecond(postgres, batched);
    sqlite.close();
    postgres.close();
    const how = batched ? 'through the store writer (batches of 256)' : 'one transaction each';
    console.log(
      `episode records/s, ${how}: SQLite ${onSqlite.toFixed(0)}, PostgreSQL ${onPostgres.toFixed(0)} (${(onPostgres / onSqlite).toFixed(2)}x)`,
    );
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
  await server.stop();
}
