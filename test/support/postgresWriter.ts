/**
 * One of N writer processes on one PostgreSQL store (test/unit/store/postgresConcurrency.test.ts):
 * `node --import tsx postgresWriter.ts <uri> <name> <runs> <episodes> <grabs>`. It runs `runs`
 * runs of `episodes` episodes under their leases, and `grabs` times takes the lease of the
 * shared run `shared` over and records a resume of it; it prints what it was given as JSON.
 */
import { readFileSync } from 'node:fs';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';

const [uri, name, runs, episodes, grabs] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = openPostgresStore(uri);
const owner = { id: `writer ${name}`, host: 'test', pid: process.pid };
const runIds: string[] = [];
const tokens: number[] = [];
// a start barrier: every writer is connected, then the test closes all their stdins at once
process.stdout.write('ready\n');
readFileSync(0);
for (let grab = 0; grab < Number(grabs); grab++) {
  tokens.push(store.acquireLease('shared', { owner, ttlMs: 60_000, takeOver: () => true }).token);
  store.recordResume({
    runId: 'shared',
    owner: owner.id,
    phaseIndex: 0,
    episode: grab,
    forced: false,
    changedModules: [],
  });
}
for (let run = 0; run < Number(runs); run++) {
  // one start time for all: generated ids collide now and then, and must be retried, never lost
  const { runId } = store.createRun({
    uid: 'concurrent',
    seed: run,
    runFile: name,
    runFilePath: '/c.yaml',
    startedAt: '2026-12-01T00:00:00.000Z',
  });
  runIds.push(runId);
  const lease = store.acquireLease(runId, { owner, ttlMs: 60_000 });
  store.startPhase({ runId, phaseIndex: 0, name: 'train', mode: 'train' });
  for (let episode = 1; episode <= Number(episodes); episode++) {
    store.transaction(() => {
      store.requireLease(lease);
      store.recordEpisode({
        runId,
        phaseIndex: 0,
        episode,
        mode: 'train',
        evaluation: false,
        episodeReturn: episode,
        steps: 1,
        returnsByAgent: { [name]: episode },
        doneReason: 'max_steps',
      });
      store.saveSnapshot({ runId, phaseIndex: 0, episode, state: { writer: name, episode } });
    });
  }
  store.finishPhase(runId, 0, {
    status: 'done',
    terminationReason: 'max_episodes',
    episodes: Number(episodes),
  });
  store.finishRun(runId, { status: 'succeeded' });
  store.releaseLease(lease);
}
store.close();
process.stdout.write(`${JSON.stringify({ runIds, tokens })}\n`);
