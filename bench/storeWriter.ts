/**
 * The store writer against writing each record in its own transaction, on a
 * real WAL file: episode records per second, and the writer's speed-up over
 * the one-transaction-per-record baseline measured in the same process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from '../src/ports/store/sqlite/sqliteStore.js';
import type { EpisodeRecord, RunStore } from '../src/ports/store/store.js';
import { createStoreWriter } from '../src/ports/store/storeWriter.js';

const episodes = 20_000;
const folder = mkdtempSync(path.join(tmpdir(), 'arena-bench-store-'));

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

/** Best of three: records per second of `write`, each time on a fresh store file. */
function measure(name: string, write: (store: RunStore, runId: string) => void): number {
  return Math.max(...[1, 2, 3].map((round) => measureOnce(`${name}-${round}`, write)));
}

function measureOnce(name: string, write: (store: RunStore, runId: string) => void): number {
  const store = openSqliteStore(path.join(folder, `${name}.db`));
  const runId = store.createRun({ uid: name, seed: 1, runFile: '', runFilePath: 'bench' }).runId;
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
  const start = performance.now();
  write(store, runId);
  const seconds = (performance.now() - start) / 1000;
  if (store.episodes(runId).length !== episodes) throw new Error(`${name} lost records`);
  store.close();
  return episodes / seconds;
}

const perRecord = measure('per-record', (store, runId) => {
  for (let episode = 1; episode <= episodes; episode++)
    store.recordEpisode(episodeRecord(runId, episode));
});
const batched = measure('writer', (store, runId) => {
  const writer = createStoreWriter(store, { maxBatch: 256, maxDelayMs: 50 });
  for (let episode = 1; episode <= episodes; episode++) {
    writer.write({ kind: 'episode', record: episodeRecord(runId, episode) });
  }
  writer.close();
});
const barrierFlushed = measure('writer-flush-every-10', (store, runId) => {
  const writer = createStoreWriter(store, { maxBatch: 256, maxDelayMs: 50 });
  for (let episode = 1; episode <= episodes; episode++) {
    writer.write({ kind: 'episode', record: episodeRecord(runId, episode) });
    if (episode % 10 === 0) writer.flush();
  }
  writer.close();
});
rmSync(folder, { recursive: true, force: true });

const line = (name: string, rate: number) =>
  `${name.padEnd(38)} ${Math.round(rate).toString().padStart(9)} records/s  ${(rate / perRecord).toFixed(1)}x`;
console.log(`${episodes} episode records, WAL, synchronous=NORMAL, best of 3`);
console.log(line('one transaction per record (baseline)', perRecord));
console.log(line('writer, batches of 256', batched));
console.log(line('writer, flushed every 10 episodes', barrierFlushed));
