import { lastValueFrom, toArray } from 'rxjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { runExperiment$ } from '../../../src/actors/experiment/observeRun.js';
import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import { fakeBuiltins, LineEnvironment, resetFakes } from '../../support/fakeComponents.js';
import { runRecords } from '../../support/records.js';
import { lineRunFile } from './runs.js';

beforeEach(() => resetFakes());

/** The line run, with its environment named as a component the host app passes in code. */
const inCodeText = lineRunFile({ episodes: 4, condition: 'none' }).replace(
  'name: arena:LineEnvironment',
  'name: code:Line',
);

describe('embedding runExperiment in a host app', () => {
  it('runs a component passed in code (`code:Line`), with the same records as the built-in it is', async () => {
    const builtin = lineRunFile({ episodes: 4, condition: 'none' });
    const reference = createMemoryStore();
    const expected = await runExperiment(
      parseRunFile(builtin, { sourcePath: '/virtual/line.yaml' }),
      {
        store: reference,
        builtins: fakeBuiltins,
      },
    );
    resetFakes();
    const store = createMemoryStore();
    const summary = await runExperiment(
      parseRunFile(inCodeText, { sourcePath: '/virtual/line.yaml' }),
      {
        store,
        builtins: fakeBuiltins,
        components: { Line: LineEnvironment },
      },
    );
    expect(summary.status).toBe('succeeded');
    expect(runRecords(store, summary.runId)).toEqual(runRecords(reference, expected.runId));
  });

  it('stores the text the spec was parsed from when no runFileText is given', async () => {
    const store = createMemoryStore();
    const spec = parseRunFile(inCodeText, { sourcePath: '/virtual/line.yaml' });
    const summary = await runExperiment(spec, {
      store,
      builtins: fakeBuiltins,
      components: { Line: LineEnvironment },
    });
    expect(store.getRun(summary.runId).runFile).toBe(inCodeText);
  });

  it('names the in-code components it was given when the run file names another', async () => {
    const spec = parseRunFile(inCodeText.replace('code:Line', 'code:Lien'), {
      sourcePath: '/virtual/line.yaml',
    });
    const summary = await runExperiment(spec, {
      store: createMemoryStore(),
      builtins: fakeBuiltins,
      components: { Line: LineEnvironment },
    });
    expect(summary.status).toBe('failed');
    expect(summary.error).toContain(
      'unknown in-code component "code:Lien" (in-code components: code:Line)',
    );
  });
});

describe('runExperiment$', () => {
  it('emits the run as a stream of events, from run.started to run.finished, and completes', async () => {
    const store = createMemoryStore();
    const spec = parseRunFile(lineRunFile({ episodes: 3, condition: 'none' }), {
      sourcePath: '/virtual/line.yaml',
    });
    const events = await lastValueFrom(
      runExperiment$(spec, { store, builtins: fakeBuiltins }).pipe(toArray()),
    );
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', summary: { status: 'succeeded' } });
    const episodes = events.flatMap((event) =>
      event.type === 'episode.completed' && !event.summary.evaluation ? [event] : [],
    );
    expect(episodes).toHaveLength(3);
  });

  it('cancels the run when its subscriber unsubscribes, leaving it resumable', async () => {
    const store = createMemoryStore();
    const spec = parseRunFile(lineRunFile({ episodes: 40, condition: 'none' }), {
      sourcePath: '/virtual/line.yaml',
    });
    let runId = '';
    await new Promise<void>((resolve) => {
      const subscription = runExperiment$(spec, { store, builtins: fakeBuiltins }).subscribe(
        (event) => {
          if (event.type === 'run.started') runId = event.runId;
          if (event.type === 'episode.completed' && event.summary.episode === 2) {
            subscription.unsubscribe();
            resolve();
          }
        },
      );
    });
    // the cancelled run finishes writing on its own
    for (let wait = 0; wait < 100 && store.getRun(runId).status === 'running'; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(store.getRun(runId)).toMatchObject({ status: 'cancelled', lease: null });
    const resumed = await runExperiment(spec, {
      store,
      builtins: fakeBuiltins,
      resumeRunId: runId,
    });
    expect(resumed.status).toBe('succeeded');
  });
});
