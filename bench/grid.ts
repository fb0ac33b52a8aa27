/**
 * Grid steps per second for generated feeders of 10, 100 and 1,000 buses,
 * as ratios to the 10-bus rate measured in the same process, plus the
 * absolute rates; and a direct loop (brain + muscle + objective + step, no
 * controller) at 100 buses: the baseline the controller's turns per second
 * are to be compared with (`measureDirectLoopTurnsPerSecond`).
 */
import { performance } from 'node:perf_hooks';
import { ConstantBrain } from '../src/builtins/brains/constantBrain.js';
import { DefaultMuscle } from '../src/builtins/brains/defaultMuscle.js';
import { GridObjective } from '../src/builtins/brains/objectives.js';
import { runDirectEpisode } from '../src/builtins/directLoop.js';
import { GridEnvironment } from '../src/builtins/grid/gridEnvironment.js';
import { createPowerFlowResult, solveLinDistFlow } from '../src/builtins/grid/linDistFlow.js';
import { parseGridParams } from '../src/builtins/grid/scenario.js';
import type { JsonObject } from '../src/domain/shared/json.js';
import type { Readings } from '../src/ports/environment.js';
import { silentLogger } from '../src/ports/logger.js';

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

/** Run `work` repeatedly for about `MEASURE_MS` after a warm-up; calls per second. */
function rate(work: () => number): number {
  for (const end = performance.now() + 200; performance.now() < end; ) work();
  globalThis.gc?.();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < MEASURE_MS) {
    calls += work();
    now = performance.now();
  }
  return (calls * 1000) / (now - start);
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
  while (performance.now() - begin < MEASURE_MS) {
    turns += (await runDirectEpisode(parts, environment.reset().readings, context)).steps;
  }
  return (turns * 1000) / (performance.now() - begin);
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
const directTurns = await measureDirectLoopTurnsPerSecond(100);
console.log(
  `direct loop at 100 buses: ${format(directTurns)} turns/s (${(directTurns / steps[1]!).toFixed(3)} of bare steps/s)`,
);
console.log(
  'controller turns/s vs direct loop: not measured here (needs the simulation controller; divide its turns/s by the direct loop rate)',
);
