import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import { fakeBuiltins, resetFakes } from '../../support/fakeComponents.js';
import { type LineRunOptions, lineRunFile } from '../controller/runs.js';

/** A real run of the line fakes, recorded in a fresh memory store. */
export async function storedLineRun(
  options: LineRunOptions,
): Promise<{ store: RunStore; runId: string }> {
  resetFakes();
  const text = lineRunFile(options);
  const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
  const store = createMemoryStore();
  const summary = await runExperiment(spec, { store, builtins: fakeBuiltins, runFileText: text });
  return { store, runId: summary.runId };
}
