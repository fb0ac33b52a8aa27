/**
 * Grid steps per second for generated feeders of 10, 100 and 1,000 buses,
 * as ratios to the 10-bus rate measured in the same process, plus the
 * absolute rates; and a direct loop (brain + muscle + objective + step, no
 * controller) at 100 buses against the simulation controller running the
 * same agent on the same grid from a run file (`runExperiment`, memory store):
 * the controller's share of the direct loop's turns per second.
 */
import { performance } from 'node:perf_hooks';
import { runExperiment } from '../src/actors/experiment/runExperiment.js';
import { ConstantBrain } from '../src/builtins/brains/constantBrain.js';
import { DefaultMuscle } from '../src/builtins/brains/defaultMuscle.js';
import { GridObjective } from '../src/builtins/brains/objectives.js';
import { runDirectEpisode } from '../src/builtins/directLoop.js';
import { GridEnvironment } from '../src/builtins/grid/gridEnvironment.js';
import { createPowerFlowResult, solveLinDistFlow } from '../src/builtins/grid/linDistFlow.js';
import { parseGridParams } from '../src/builtins/grid/scenario.js';
import { builtinComponents } from '../src/builtins/index.js';
import { parseRunFile } from '../src/config/runFile.js';
import type { JsonObject } from '../src/domain/shared/json.js';
import type { Readings } from '../src/ports/environment.js';
import { silentLogger } from '../src/ports/runtime/logger.js';
import { createMemoryStore } from '../src/ports/store/memory/memoryStore.js';

const MEASURE_MS = 1000;

/** A generated feeder of `buses` buses: a small load on every bus, PV on every fifth. */
export function feederParams(buses: number): JsonObject {
  const activeMapping: JsonObject = {};
  const pvMapping: JsonObject = {};
  const profiles = ['Household', 'Office', 'Hospital', 'LargeHotel'];
  for (let bus = 1; bus < buses; bus++) {
    activeMapping[String(bus)] = [[profiles[bus % profiles.length]!, 0.05]];
    if (bus % 5 === 0) pvMapping[String(bus)] = [['PV', 0.1]];
  }
  return {
    scenario: {
      step_size: 900,
      end: 86_400,
      grid_params: { buses },
      comdata_params: { midasmv: { active_mapping: activeMapping } },
      der_params: { midasmv: { mapping: pvMapping } },
    },
  };
}

/**
 * Run `work` (which returns how many operations it did) for `MEASURE_MS`
 * after a warm-up, in three windows; the best window's operations per
 * second, since other processes on a shared machine only ever slow it down.
 */
function rate(work: () => number): number {
  for (const end = performance.now() + 200; performance.now() < end; ) work();
  globalThis.gc?.();
  let best = 0;
  for (let window = 0; window < 3; window++) {
    let operations = 0;
    const start = performance.now();
    let now = start;
    while (now - start < MEASURE_MS / 3) {
      operations += work();
      now = performance.now();
    }
    best = Math.max(best, (operations * 1000) / (now - start));
  }
  return best;
}

function environmentFor(buses: number) {
  const params = feederParams(buses);
  const environment = new GridEnvironment({
    uid: 'grid',
    params,
    keyOrder: {},
    seed: 1,
    logger: silentLogger(),
  });
  return { params, environment, start: environment.start(params) };
}

/** `GridEnvironment.step` calls per second (episodes restart in place when done). */
export function measureGridStepsPerSecond(buses: number): number {
  const { environment, start } = environmentFor(buses);
  const actions: Readings = Object.fromEntries(
    start.actuators.map((actuator) => [actuator.uid, 0]),
  );
  return rate(() => {
    for (let step = 0; step < 100; step++) {
      if (environment.step(actions).done) environment.reset();
    }
    return 100;
  });
}

/** The bare LinDistFlow solve per second, without building readings or rewards. */
export function measurePowerFlowsPerSecond(buses: number): number {
  const model = parseGridParams(feederParams(buses));
  const result = createPowerFlowResult(model.feeder);
  const load = new Float64Array(buses).fill(0.05);
  const reactive = new Float64Array(buses).fill(0.016);
  return rate(() => {
    for (let solve = 0; solve < 100; solve++) {
      solveLinDistFlow(model.feeder, load, reactive, model.nominalKv, 1, result);
    }
    return 100;
  });
}

/**
 * Turns per second of a direct loop with no controller: a ConstantBrain, the
 * DefaultMuscle and the GridObjective on the grid. The controller's turns per
 * second over the same grid divided by this is its overhead ratio (target
 * >= 0.5 at 100 buses).
 */
export async function measureDirectLoopTurnsPerSecond(buses: number): Promise<number> {
  const { environment, start } = environmentFor(buses);
  const logger = silentLogger();
  const brain = new ConstantBrain({ name: 'op', params: {}, seed: 1, logger });
  const agentInterface = { ...start, readings: start.readings };
  brain.setup(agentInterface);
  const parts = {
    environment,
    brain,
    muscle: new DefaultMuscle({ name: 'op', params: {}, seed: 1, logger }),
    objective: new GridObjective({ params: {} }),
    agentInterface,
  };
  const context = { mode: 'train', evaluation: false, phase: 'bench', episode: 0 } as const;
  let turns = 0;
  const begin = performance.now();
  while (performance.now() - begin < MEASURE_MS / 3) {
    turns += (await runDirectEpisode(parts, environment.reset().readings, context)).steps;
  }
  return (turns * 1000) / (performance.now() - begin);
}

/**
 * Turns per second of `runExperiment` on a one-phase run file with the same
 * agent as `measureDirectLoopTurnsPerSecond` (memory store), counting the
 * steps of completed episodes over the whole run, setup included.
 */
export async function measureControllerTurnsPerSecond(
  buses: number,
  episodes: number,
): Promise<number> {
  const text = [
    'uid: grid-bench',
    'seed: 1',
    'version: 1',
    'schedule:',
    '  - train:',
    '      environments:',
    '        - environment:',
    '            uid: grid',
    '            name: arena:GridEnvironment',
    `            params: ${JSON.stringify(feederParams(buses))}`,
    '      agents:',
    '        - name: op',
    '          brain: { name: arena:ConstantBrain, params: {} }',
    '          objective: { name: arena:GridObjective, params: {} }',
    '      simulation:',
    '        name: arena:ScriptedSimulationController',
    '        params: { script: { loop: [ { agents: [op], environments: [grid] } ] } }',
    `      phase_config: { mode: train, worker: 1, episodes: ${episodes}, max_steps: 1000 }`,
    '',
  ].join('\n');
  const spec = parseRunFile(text, { sourcePath: '/virtual/grid-bench.yaml' });
  let turns = 0;
  const begin = performance.now();
  const summary = await runExperiment(spec, {
    store: createMemoryStore(),
    builtins: builtinComponents,
    runFileText: text,
    onEvent: (event) => {
      if (event.type === 'episode.completed') turns += event.summary.steps;
    },
  });
  const elapsed = performance.now() - begin;
  if (summary.status !== 'succeeded') throw new Error(`the benchmark run ${summary.status}`);
  return (turns * 1000) / elapsed;
}

const format = (value: number) => Math.round(value).toLocaleString('en-US');
const sizes = [10, 100, 1000];
const steps = sizes.map(measureGridStepsPerSecond);
const solves = sizes.map(measurePowerFlowsPerSecond);
console.log('buses  steps/s      ratio to 10  power flows/s  ratio to 10');
sizes.forEach((buses, index) => {
  console.log(
    `${String(buses).padStart(5)}  ${format(steps[index]!).padStart(11)}  ${(steps[index]! / steps[0]!).toFixed(3).padStart(11)}  ${format(solves[index]!).padStart(13)}  ${(solves[index]! / solves[0]!).toFixed(3).padStart(11)}`,
  );
});
// Alternate the two loops and keep each one's best of three.
await measureControllerTurnsPerSecond(100, 2);
let directTurns = 0;
let controllerTurns = 0;
for (let round = 0; round < 3; round++) {
  directTurns = Math.max(directTurns, await measureDirectLoopTurnsPerSecond(100));
  controllerTurns = Math.max(controllerTurns, await measureControllerTurnsPerSecond(100, 10));
}
console.log(`direct loop at 100 buses:      ${format(directTurns).padStart(7)} turns/s`);
console.log(`controller at 100 buses:       ${format(controllerTurns).padStart(7)} turns/s`);
console.log(
  `controller / direct loop:      ${(controllerTurns / directTurns).toFixed(3)} (target >= 0.5)`,
);
