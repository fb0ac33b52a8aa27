/**
 * Evaluation-aware termination throughput and memory.
 *
 * The seed keeps every outcome and re-reads its history at each checkpoint, so
 * its cost per checkpoint grows with the run; arena's must not. Printed, all
 * measured in this process:
 * 1. checkpoints per second for 1 agent at 10k, 100k and 1M checkpoints, and
 *    the 1M rate as a ratio of the 10k rate (target ≥ 0.8);
 * 2. checkpoints per second for 8 agents at 100k;
 * 3. the machine path (`actor.send`) against the pure `applyCheckpoint` path
 *    on the same 100k checkpoints, as a time ratio (target ≤ 3);
 * 4. retained heap bytes per accepted outcome after 1M checkpoints with
 *    `window: 10` (target ≤ 200), measured with `global.gc`.
 * The rules never end the run (success threshold out of reach, patience huge),
 * so every checkpoint is a full accepted outcome per agent.
 */
import { createActor } from 'xstate';
import { createRng } from '../src/domain/shared/random.js';
import {
  type AgentRulesInput,
  applyCheckpoint,
  createTerminationState,
  type EvaluationOutcome,
  parseTerminationConfig,
  type TerminationState,
} from '../src/domain/termination/index.js';
import { evaluationTerminationMachine } from '../src/machines/evaluationTermination.js';

function rulesFor(agentCount: number): Record<string, AgentRulesInput> {
  const agents: Record<string, AgentRulesInput> = {};
  for (let index = 0; index < agentCount; index++) {
    agents[`agent${index}`] = {
      success: {
        metric: 'objective',
        threshold: 2,
        direction: 'greater_equal',
        consecutive: 3,
        min_evaluations: 5,
      },
      plateau: {
        metric: 'objective',
        direction: 'maximize',
        min_delta: 0.001,
        patience: 1_000_000_000,
        min_evaluations: 5,
        window: 10,
      },
    };
  }
  return agents;
}

/** The checkpoint at `episode` for every agent: made on the fly so the bench holds no log. */
function checkpointAt(
  agentNames: readonly string[],
  episode: number,
  value: number,
): EvaluationOutcome[] {
  return agentNames.map((agentName) => ({
    agentName,
    evaluationId: `${agentName}-${episode}`,
    evaluationEpisode: episode,
    checkpointId: `ckpt-${episode}`,
    metrics: { objective: value, reward: value * 100 },
  }));
}

function runPure(
  agentCount: number,
  checkpoints: number,
): { seconds: number; state: TerminationState } {
  const config = parseTerminationConfig({ agents: rulesFor(agentCount) });
  const rng = createRng(7);
  let state = createTerminationState(config);
  const started = process.hrtime.bigint();
  for (let episode = 0; episode < checkpoints; episode++) {
    state = applyCheckpoint(state, checkpointAt(config.agentNames, episode, rng.next())).state;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (state.terminationReason !== null)
    throw new Error(`bench rules ended the run: ${state.terminationReason}`);
  return { seconds, state };
}

/**
 * The machine and the pure path over the same checkpoints, interleaved in
 * chunks so that a busy machine slows both alike; returns the summed seconds.
 */
function runInterleaved(checkpoints: number, chunk: number): { pure: number; machine: number } {
  const agents = rulesFor(1);
  const config = parseTerminationConfig({ agents });
  const actor = createActor(evaluationTerminationMachine, { input: { agents } });
  actor.subscribe({ error: (error) => console.error(error) });
  actor.start();
  let state = createTerminationState(config);
  const values = createRng(7);
  let pure = 0n;
  let machine = 0n;
  for (let start = 0; start < checkpoints; start += chunk) {
    const batch = Array.from({ length: chunk }, (_, offset) =>
      checkpointAt(config.agentNames, start + offset, values.next()),
    );
    const pureStarted = process.hrtime.bigint();
    for (const outcomes of batch) state = applyCheckpoint(state, outcomes).state;
    const machineStarted = process.hrtime.bigint();
    for (const outcomes of batch) actor.send({ type: 'evaluation.checkpoint', outcomes });
    const finished = process.hrtime.bigint();
    pure += machineStarted - pureStarted;
    machine += finished - machineStarted;
  }
  if (actor.getSnapshot().value !== 'active' || state.terminationReason !== null) {
    throw new Error('bench rules ended the run');
  }
  actor.stop();
  return { pure: Number(pure) / 1e9, machine: Number(machine) / 1e9 };
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  for (let round = 0; round < 3; round++) gc();
  return process.memoryUsage().heapUsed;
}

const rate = (checkpoints: number, seconds: number): string =>
  `${Math.round(checkpoints / seconds).toLocaleString('en-US')} checkpoints/s`;
const verdict = (ok: boolean): string => (ok ? 'ok' : 'MISSED');

runPure(1, 20_000); // warm-up: let the JIT settle before anything is timed
runInterleaved(5_000, 1_000);

console.log('1. one agent, pure applyCheckpoint');
const rates = new Map<number, number>();
for (const checkpoints of [10_000, 100_000, 1_000_000]) {
  const { seconds } = runPure(1, checkpoints);
  rates.set(checkpoints, checkpoints / seconds);
  console.log(
    `   ${checkpoints.toLocaleString('en-US').padStart(9)}: ${rate(checkpoints, seconds)}`,
  );
}
const scaling = (rates.get(1_000_000) ?? 0) / (rates.get(10_000) ?? 1);
console.log(
  `   rate at 1M / rate at 10k: ${scaling.toFixed(2)} (target >= 0.8: ${verdict(scaling >= 0.8)})`,
);

console.log('2. eight agents, pure applyCheckpoint');
const eight = runPure(8, 100_000);
console.log(
  `     100,000: ${rate(100_000, eight.seconds)} (${rate(800_000, eight.seconds).replace('checkpoints', 'outcomes')})`,
);

console.log(
  '3. machine path (actor.send) against pure applyCheckpoint, one agent, 100k checkpoints',
);
const { pure, machine } = runInterleaved(100_000, 5_000);
const overhead = machine / pure;
console.log(
  `   pure ${rate(100_000, pure)}, machine ${rate(100_000, machine)} (interleaved in chunks of 5k)`,
);
console.log(
  `   machine time / pure time: ${overhead.toFixed(2)} (target <= 3: ${verdict(overhead <= 3)})`,
);

console.log('4. retained heap after 1M checkpoints, one agent, window 10');
const baseline = collect();
const retained = runPure(1, 1_000_000);
const after = collect();
const perOutcome = (after - baseline) / 1_000_000;
console.log(
  `   ${((after - baseline) / 1024 / 1024).toFixed(1)} MiB retained for ${retained.state.agents.agent0?.seenCount.toLocaleString('en-US')} accepted outcomes`,
);
console.log(
  `   ${perOutcome.toFixed(0)} bytes per accepted outcome (target <= 200: ${verdict(perOutcome <= 200)})`,
);
