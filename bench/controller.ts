/**
 * The controller's cost per turn, against a hand-written loop over the same
 * environment and agent in the same process, and its heap over a 1M-step run.
 *
 * Prints: turns/s of both, the controller's overhead per turn in µs (target
 * ≤ 10 µs), and the heap after 10k steps and after 1M steps (target: within
 * 20 MB). Run with `npm run bench controller` (needs --expose-gc, which
 * bench/run.ts passes).
 */
import { runExperiment } from '../src/actors/experiment/runExperiment.js';
import { parseRunFile } from '../src/config/runFile.js';
import type { Brain } from '../src/ports/agent.js';
import type { Environment, EnvironmentStart, Readings } from '../src/ports/environment.js';
import { createMemoryStore } from '../src/ports/store/memory/memoryStore.js';

const gc = (globalThis as { gc?: () => void }).gc;

const start: EnvironmentStart = {
  sensors: [{ uid: 'noop.x', space: { type: 'Box', low: -1, high: 1 } }],
  actuators: [{ uid: 'noop.u', space: { type: 'Box', low: -1, high: 1 } }],
  readings: { 'noop.x': 0 },
};
const stepResult = { readings: start.readings, rewards: { 'noop.r': 0 }, done: false };
const actions: Readings = { 'noop.u': 0 };

/** Does nothing, allocates nothing. */
class NoopEnvironment implements Environment {
  readonly uid = 'noop';
  proposeDefinition() {
    return null;
  }
  start() {
    return start;
  }
  step(_actions: Readings) {
    return stepResult;
  }
  reset() {
    return start;
  }
  close() {}
}

let steps = 0;
let heapAt10k = 0;
const heapProbe = { enabled: false };

/** Acts with a constant; when probing, samples the heap after 10k steps. */
class NoopBrain implements Brain {
  setup() {}
  act() {
    steps++;
    if (heapProbe.enabled && steps === 10_000) {
      gc?.();
      heapAt10k = process.memoryUsage().heapUsed;
    }
    return actions;
  }
  observe() {}
  endEpisode() {}
  evaluateRollouts() {
    return { metrics: { objective: 0 } };
  }
}

const builtins = new Map<string, unknown>([
  ['arena:NoopEnvironment', NoopEnvironment],
  ['arena:NoopBrain', NoopBrain],
  ['arena:DefaultMuscle', () => ({ act: (proposal: Readings) => proposal })],
  ['arena:SumObjective', () => ({ evaluate: (rewards: Readings) => rewards['noop.r'] ?? 0 })],
]);

function runFile(episodes: number, maxSteps: number): string {
  return `uid: bench
seed: 1
version: 1
schedule:
  - train:
      environments:
        - environment: { uid: noop, name: arena:NoopEnvironment, params: {} }
      agents:
        - name: agent
          brain: { name: arena:NoopBrain, params: {} }
      simulation:
        name: arena:ScriptedSimulationController
        params: { script: { loop: [ { agents: [agent], environments: [noop] } ] } }
      phase_config: { mode: train, worker: 1, episodes: ${episodes}, max_steps: ${maxSteps} }
`;
}

async function controllerSeconds(episodes: number, maxSteps: number): Promise<number> {
  const text = runFile(episodes, maxSteps);
  const spec = parseRunFile(text, { sourcePath: '/bench/controller.yaml' });
  const store = createMemoryStore();
  const began = performance.now();
  const summary = await runExperiment(spec, { store, builtins, runFileText: text });
  const seconds = (performance.now() - began) / 1000;
  store.close();
  if (summary.status !== 'succeeded')
    throw new Error(`bench run ${summary.status}: ${summary.error}`);
  return seconds;
}

/** The same environment, brain, muscle and objective, called directly. */
function directSeconds(totalSteps: number): number {
  const environment = new NoopEnvironment();
  const brain = new NoopBrain();
  const muscle = builtins.get('arena:DefaultMuscle') as () => { act: (p: Readings) => Readings };
  const objective = (
    builtins.get('arena:SumObjective') as () => { evaluate: (r: Readings) => number }
  )();
  const acting = muscle();
  let readings = environment.start().readings;
  let total = 0;
  const began = performance.now();
  for (let step = 0; step < totalSteps; step++) {
    const proposal = brain.act();
    const result = environment.step(acting.act(proposal ?? readings));
    readings = result.readings;
    total += objective.evaluate(result.rewards);
    brain.observe();
  }
  if (Number.isNaN(total)) throw new Error('unreachable');
  return (performance.now() - began) / 1000;
}

function best(samples: number[]): number {
  return Math.min(...samples);
}

const turns = 200_000;
const episodes = 10;
await controllerSeconds(2, 1000); // warm-up
directSeconds(20_000);
const controller: number[] = [];
const direct: number[] = [];
for (let round = 0; round < 3; round++) {
  controller.push(await controllerSeconds(episodes, turns / episodes));
  direct.push(directSeconds(turns));
}
const controllerRate = turns / best(controller);
const directRate = turns / best(direct);
const overheadMicros = ((best(controller) - best(direct)) / turns) * 1e6;
console.log(`turns per run: ${turns} (${episodes} episodes), best of 3`);
console.log(`direct loop:  ${Math.round(directRate).toLocaleString()} turns/s`);
console.log(`controller:   ${Math.round(controllerRate).toLocaleString()} turns/s`);
console.log(`controller / direct rate: ${(controllerRate / directRate).toFixed(3)}`);
console.log(`controller overhead per turn: ${overheadMicros.toFixed(2)} µs (target ≤ 10 µs)`);

if (gc === undefined) {
  console.log('heap check skipped: run with --expose-gc (npm run bench does)');
} else {
  steps = 0;
  heapProbe.enabled = true;
  const millionSteps = 1_000_000;
  await controllerSeconds(100, millionSteps / 100);
  gc();
  const heapAtEnd = process.memoryUsage().heapUsed;
  const growthMb = (heapAtEnd - heapAt10k) / 2 ** 20;
  console.log(
    `heap after 10k steps: ${(heapAt10k / 2 ** 20).toFixed(1)} MB, after 1M steps: ${(heapAtEnd / 2 ** 20).toFixed(1)} MB, growth ${growthMb.toFixed(2)} MB (target ≤ 20 MB)`,
  );
}
