import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { runExperiment } from '../../src/actors/experiment/runExperiment.js';
import { parseRunFile } from '../../src/config/runFile.js';
import { createMemoryStore } from '../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../src/ports/store/store.js';
import { fakeBuiltins, LineEnvironment, resetFakes } from '../support/fakeComponents.js';
import { type RandomRun, randomRun, runFileOf } from '../support/randomRuns.js';
import { runRecords } from '../support/records.js';

async function execute(text: string): Promise<{ store: RunStore; runId: string; status: string }> {
  const spec = parseRunFile(text, { sourcePath: '/virtual/random.yaml' });
  const store = createMemoryStore();
  const summary = await runExperiment(spec, { store, builtins: fakeBuiltins, runFileText: text });
  return { store, runId: summary.runId, status: summary.status };
}

beforeEach(() => resetFakes());

describe('simulation controller properties', () => {
  it('never steps an environment before it is started, and never exceeds the episode cap', async () => {
    await fc.assert(
      fc.asyncProperty(randomRun, async (run) => {
        resetFakes();
        const { store, runId, status } = await execute(runFileOf(run));
        expect(status).toBe('succeeded');
        const log = LineEnvironment.log;
        for (let index = 0; index < run.environments; index++) {
          const firstStep = log.indexOf(`env${index}.step`);
          if (firstStep >= 0) expect(log.indexOf(`env${index}.start`)).toBeLessThan(firstStep);
        }
        for (const phase of store.phases(runId)) {
          const cap = phase.name === 'train' ? run.episodes : 1;
          const trained = store
            .episodes(runId, phase.phaseIndex)
            .filter((episode) => !episode.evaluation);
          expect(trained.length).toBeLessThanOrEqual(cap);
          expect(trained.length).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 25, seed: 20261129 },
    );
  });

  it('gives identical records for two runs of the same file and seed', async () => {
    await fc.assert(
      fc.asyncProperty(randomRun, async (run) => {
        const text = runFileOf(run);
        resetFakes();
        const first = await execute(text);
        resetFakes();
        const second = await execute(text);
        expect(runRecords(second.store, second.runId)).toEqual(
          runRecords(first.store, first.runId),
        );
      }),
      { numRuns: 15, seed: 7 },
    );
  });

  it('gives different returns for different seeds (randomness flows from the seed)', async () => {
    const run: RandomRun = {
      seed: 1,
      environments: 1,
      agents: 1,
      groups: [{ agents: [0], environments: [0] }],
      episodes: 2,
      maxSteps: 3,
      evaluateEvery: 5,
      evaluationRules: false,
      meta: false,
      testPhase: false,
    };
    const first = await execute(runFileOf(run));
    const second = await execute(runFileOf({ ...run, seed: 2 }));
    expect(first.store.episodes(first.runId)[0]?.episodeReturn).not.toBe(
      second.store.episodes(second.runId)[0]?.episodeReturn,
    );
  });
});

describe('resume', () => {
  it('resumed after a crash at any step, a run reaches the same records as one that never stopped', async () => {
    let crashes = 0;
    await fc.assert(
      fc.asyncProperty(randomRun, fc.integer({ min: 1, max: 60 }), async (run, crashAt) => {
        const text = runFileOf({ ...run, evaluationRules: true });
        resetFakes();
        const reference = await execute(text);
        resetFakes();
        LineEnvironment.crashAtStep = crashAt;
        const spec = parseRunFile(text, { sourcePath: '/virtual/random.yaml' });
        const store = createMemoryStore();
        const crashed = await runExperiment(spec, {
          store,
          builtins: fakeBuiltins,
          runFileText: text,
        });
        if (crashed.status === 'failed') {
          crashes++;
          resetFakes();
          const resumed = await runExperiment(spec, {
            store,
            builtins: fakeBuiltins,
            runFileText: text,
            resumeRunId: crashed.runId,
          });
          expect(resumed.status).toBe('succeeded');
        }
        expect(runRecords(store, crashed.runId)).toEqual(
          runRecords(reference.store, reference.runId),
        );
      }),
      { numRuns: 25, seed: 99 },
    );
    // the property means something only if runs really crashed mid-way
    expect(crashes).toBeGreaterThan(8);
  });
});
