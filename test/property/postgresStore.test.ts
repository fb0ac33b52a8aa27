import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../src/actors/experiment/runExperiment.js';
import type { RunSummary } from '../../src/actors/experiment/runSummary.js';
import { parseRunFile } from '../../src/config/runFile.js';
import type { JsonValue } from '../../src/domain/shared/json.js';
import { fixedClock } from '../../src/ports/runtime/clock.js';
import { openPostgresStore } from '../../src/ports/store/postgres/postgresStore.js';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { encodeStoredJson } from '../../src/ports/store/storedJson.js';
import { dyingStore } from '../support/dyingStore.js';
import { fakeBuiltins, resetFakes } from '../support/fakeComponents.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres.js';
import { randomRun, runFileOf } from '../support/randomRuns.js';
import { runRecords } from '../support/records.js';

let server: TestPostgres;
let uri: string;
beforeAll(async () => {
  server = await startTestPostgres();
  uri = await server.createDatabase('property');
});
afterAll(async () => {
  await server?.stop();
});

// Heartbeats never fire in these short runs, so write counts are the same from run to run.
const leaseTtlMs = 600_000;

function outcome(store: RunStore, runId: string, summary: RunSummary) {
  return {
    records: runRecords(store, runId),
    status: summary.status,
    episodes: summary.phases.map((p) => p.episodes),
  };
}

describe('the PostgreSQL store against the SQLite store (property)', () => {
  it('any random run, killed at 0-3 random store writes and resumed each time, leaves on PostgreSQL exactly the records it leaves uninterrupted on SQLite', async () => {
    let kills = 0;
    await fc.assert(
      fc.asyncProperty(
        randomRun,
        fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 3 }),
        fc.integer({ min: 1, max: 6 }),
        async (run, killsAt, maxBatch) => {
          const text = runFileOf({ ...run, evaluationRules: true });
          const spec = parseRunFile(text, { sourcePath: '/virtual/random.yaml' });
          const batching = { maxBatch, maxDelayMs: 60_000 };
          resetFakes();
          const sqlite = openSqliteStore(':memory:');
          const reference = await runExperiment(spec, {
            store: sqlite,
            builtins: fakeBuiltins,
            runFileText: text,
            batching,
            leaseTtlMs,
          });
          const expected = outcome(sqlite, reference.runId, reference);
          sqlite.close();

          const clock = fixedClock(new Date('2026-12-01T00:00:00Z'));
          let runId: string | null = null;
          let finished: RunSummary | null = null;
          for (const killAt of [...killsAt, null]) {
            // a new process: its own handle; the killed one's lease has lapsed by now
            clock.advance(leaseTtlMs + 1);
            resetFakes();
            const handle = openPostgresStore(uri, { clock });
            const store = killAt === null ? handle : dyingStore(handle, killAt);
            const summary = await runExperiment(spec, {
              store,
              builtins: fakeBuiltins,
              runFileText: text,
              batching,
              leaseTtlMs,
              ...(runId !== null ? { resumeRunId: runId } : {}),
              onEvent: (event) => {
                if (event.type === 'run.started') runId = event.runId;
              },
            }).catch((error: unknown) => {
              if (!(store as { killed?: boolean }).killed) throw error;
              return null;
            });
            const stored = runId === null ? null : handle.getRun(runId);
            handle.close();
            if (summary === null) kills += 1;
            if (summary?.status === 'succeeded') finished = summary;
            else if (summary === null && stored?.status === 'succeeded') {
              finished = stored.summary as unknown as RunSummary;
            }
            if (finished !== null) break;
          }
          expect(finished).not.toBeNull();
          const store = openPostgresStore(uri, { readonly: true });
          expect(outcome(store, runId as unknown as string, finished as RunSummary)).toEqual(
            expected,
          );
          expect(store.getRun(runId as unknown as string)).toMatchObject({
            status: 'succeeded',
            lease: null,
          });
          store.close();
        },
      ),
      { numRuns: 25, seed: 20261201 },
    );
    // the property means something only if kills really struck
    expect(kills).toBeGreaterThan(10);
  });

  it('any JSON value, non-finite numbers included, reads back from PostgreSQL exactly as from SQLite', () => {
    const postgres = openPostgresStore(uri);
    const sqlite = openSqliteStore(':memory:');
    for (const store of [postgres, sqlite]) {
      store.createRun({ runId: 'json', uid: 'json', seed: 1, runFile: '', runFilePath: '/j.yaml' });
      store.startPhase({ runId: 'json', phaseIndex: 0, name: 'p', mode: 'train' });
    }
    const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e-7, 1e21, 5e-324, -0));
    const value = fc.letrec<{ json: unknown }>((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        number,
        fc.string({ unit: 'binary' }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('json'), { maxLength: 4 }),
        fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('json'), { maxKeys: 5 }),
      ),
    })).json;
    let episode = 0;
    fc.assert(
      fc.property(value, (state) => {
        episode += 1;
        const read = [postgres, sqlite].map((store) => {
          store.saveSnapshot({ runId: 'json', phaseIndex: 0, episode, state: state as JsonValue });
          return store.latestSnapshot('json')?.state;
        });
        expect(read[0]).toEqual(read[1]);
        expect(encodeStoredJson(read[0])).toBe(encodeStoredJson(state));
      }),
      { numRuns: 200, seed: 20261201 },
    );
    postgres.close();
    sqlite.close();
  });
});
