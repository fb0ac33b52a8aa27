/**
 * Child process of the durability test: writes through a store writer, flushes,
 * queues one more write it never flushes, says `flushed` and waits to be killed.
 */
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';
import { createStoreWriter } from '../../../src/ports/store/storeWriter.js';
import { sampleEpisode } from './sampleRun.js';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: flushThenHang.ts <store file>');
const runId = 'killed';
const store = openSqliteStore(file);
const writer = createStoreWriter(store, { maxBatch: 1000, maxDelayMs: 60_000 });
store.createRun({ runId, uid: 'k', seed: 1, runFile: 'uid: k', runFilePath: 'k.yaml' });
writer.write({ kind: 'startPhase', phase: { runId, phaseIndex: 0, name: 'train', mode: 'train' } });
for (let episode = 1; episode <= 50; episode++) {
  writer.write({ kind: 'episode', record: sampleEpisode(runId, 0, episode) });
}
writer.flush();
store.saveSnapshot({ runId, phaseIndex: 0, episode: 50, state: { episode: 50 } });
writer.write({ kind: 'episode', record: sampleEpisode(runId, 0, 51) });
process.stdout.write('flushed\n');
setInterval(() => undefined, 1_000);
