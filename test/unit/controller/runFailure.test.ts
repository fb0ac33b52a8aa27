import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { builtinComponents } from '../../../src/builtins/index.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import { repoRoot } from '../../support/cli.js';
import { fakeBuiltins, LineEnvironment, resetFakes } from '../../support/fakeComponents.js';
import { runFileOf } from '../../support/randomRuns.js';

const studyFile = path.join(repoRoot, 'examples/hosting-capacity.yaml');

describe('a run that fails', () => {
  it('reports the root cause (a bad include regex), not what failed after it, and leaves no phase running', async () => {
    // past `arena validate` (an embedder may call runExperiment on a parsed spec): the runner must still say why
    const text = readFileSync(studyFile, 'utf8').replace(
      'include: ["^/der_params/midasmv/mapping/"]',
      'include: ["^(/der_params/midasmv/mapping/"]',
    );
    const spec = parseRunFile(text, { sourcePath: studyFile });
    const store = createMemoryStore();
    const summary = await runExperiment(spec, {
      store,
      builtins: builtinComponents,
      runFileText: text,
    });
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatch(/Unterminated group/);
    expect(summary.error).not.toMatch(/saveState before setup/);
    expect(store.phases(summary.runId)).toEqual([
      expect.objectContaining({ phaseIndex: 0, status: 'failed', terminationReason: 'failed' }),
    ]);
    expect(store.phases(summary.runId)[0]?.error).toMatch(/Unterminated group/);
    expect(store.getRun(summary.runId)).toMatchObject({ status: 'failed', lease: null });
  });

  it('closes every environment of a phase that fails mid-episode and records the thrown error, the phase failed, never running', async () => {
    const text = runFileOf({
      seed: 7,
      environments: 2,
      agents: 1,
      groups: [{ agents: [0], environments: [0, 1] }],
      episodes: 4,
      maxSteps: 3,
      evaluateEvery: 2,
      evaluationRules: false,
      meta: false,
      testPhase: true,
    });
    resetFakes();
    LineEnvironment.crashAtStep = 5;
    const store = createMemoryStore();
    const summary = await runExperiment(parseRunFile(text, { sourcePath: '/virtual/r.yaml' }), {
      store,
      builtins: fakeBuiltins,
      runFileText: text,
    });
    expect(summary).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/simulated crash/),
    });
    expect(LineEnvironment.log.filter((entry) => entry.endsWith('.close')).sort()).toEqual([
      'env0.close',
      'env1.close',
    ]);
    // the test phase after it never started
    expect(store.phases(summary.runId)).toEqual([
      expect.objectContaining({
        phaseIndex: 0,
        status: 'failed',
        error: expect.stringMatching(/Error: simulated crash/),
      }),
    ]);
    expect(store.getRun(summary.runId)).toMatchObject({ status: 'failed', lease: null });
    resetFakes();
  });
});
