/**
 * Evaluation-aware termination throughput and memory.
 *
 * The seed keeps every outcome and re-reads its history at each checkpoint, so
 * its cost per checkpoint grows with the run; arena's must not. Printed, all
 * measured in this process:
 * 1. the seed's algorithm (bench/_seedTermination.ts, ported line by line)
 *    against arena's pure `applyCheckpoint` on one pre-built stream of 50k
 *    checkpoints, one agent, alternated chunk by chunk, as a rate ratio
 *    (target ≥ 100);
 * 2. checkpoints per second of a run of 1M checkpoints, one agent, as a
 *    ratio of the rate of runs of 10k (target ≥ 0.8), the short runs
 *    interleaved with the long one chunk by chunk;
 * 3. checkpoints per second for 8 agents at 100k;
 * 4. the machine path (`actor.send`) against the pure `applyCheckpoint` path
 *    on the same 100k checkpoints, as a time ratio (target ≤ 3);
 * 5. retained heap bytes per accepted outcome after 1M checkpoints with
 *    `window: 10` (target ≤ 120), measured with `global.gc`.
 * The rules never end the run (success threshold out of reach, patience huge),
 * so every checkpoint is a full accepted outcome per agent. On a shared
 * machine a rate is the best of several windows, each after a full GC, and
 * the windows being compared are interleaved so that load slows both alike.
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
import { SeedEvaluationTermination } from './_seedTermination.js';

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

/** `count` checkpoints from `first` on, built before any timing starts. */
function streamFrom(agentCount: number, first: number, count: number): EvaluationOutcome[][] {
  const names = Array.from({ length: agentCount }, (_, index) => `agent${index}`);
  const values = createRng(first + 7);
  return Array.from({ length: count }, (_, offset) =>
    checkpointAt(names, first + offset, values.next()),
  );
}

/**
 * The seed and arena on the same stream, chunk by chunk: each chunk of 1000
 * checkpoints goes to the seed, then to arena ({@link ARENA_RUNS} runs side
 * by side, each keeping its own state),
 * so both rates come from the same stretch of time and load slows both
 * alike. Each round is a fresh run of both; the ratio is the median round's.
 * A full GC precedes each chunk, so each side pays for its own collections:
 * the seed copies its whole history per checkpoint, and with a scavenge
 * alone V8 finished that major-GC work during arena's chunks (arena measured
 * ~20% slower beside the seed than alone, and no slower alone with a full GC
 * per chunk than with a scavenge, so the full GC gives arena nothing of its own).
 */
/** Fresh arena runs of the stream side by side in {@link againstSeed}, each its own state. */
const ARENA_RUNS = 5;

function againstSeed(stream: readonly EvaluationOutcome[][], rounds: number) {
  const agents = rulesFor(1);
  const config = parseTerminationConfig({ agents });
  const chunk = 1000;
  const results: { seed: number; arena: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    collect();
    const condition = new SeedEvaluationTermination(agents as never);
    // Arena's chunk takes ~1 ms against the seed's ~100: several runs side by side, so one preemption is not a tenth of arena's time.
    const states = Array.from({ length: ARENA_RUNS }, () => createTerminationState(config));
    let seedTime = 0n;
    let arenaTime = 0n;
    for (let first = 0; first < stream.length; first += chunk) {
      const part = stream.slice(first, first + chunk);
      fullGc();
      let started = process.hrtime.bigint();
      for (const outcomes of part) condition.evaluation_flow_control(outcomes);
      seedTime += process.hrtime.bigint() - started;
      // A full collection, not a scavenge: the seed's history copies leave major-GC work that V8 would otherwise finish in arena's time.
      fullGc();
      started = process.hrtime.bigint();
      for (let run = 0; run < ARENA_RUNS; run++) {
        let state = states[run]!;
        for (const outcomes of part) state = applyCheckpoint(state, outcomes).state;
        states[run] = state;
      }
      arenaTime += process.hrtime.bigint() - started;
    }
    if (
      condition.termination_reason !== null ||
      states.some((state) => state.terminationReason !== null)
    ) {
      throw new Error('bench rules ended a run');
    }
    results.push({
      seed: stream.length / (Number(seedTime) / 1e9),
      arena: (ARENA_RUNS * stream.length) / (Number(arenaTime) / 1e9),
    });
  }
  results.sort((a, b) => a.arena / a.seed - b.arena / b.seed);
  return results[Math.floor(results.length / 2)]!;
}

/**
 * One run of `checkpoints` checkpoints, timed chunk by chunk, and after each
 * chunk a fresh run of `chunk` checkpoints: both rates come from the same
 * stretch of time, so a shared machine's load slows both alike (a best-of of
 * short runs would catch quiet moments a long run cannot).
 */
function runAgainstShortRuns(checkpoints: number, chunk: number) {
  const config = parseTerminationConfig({ agents: rulesFor(1) });
  const values = createRng(7);
  let state = createTerminationState(config);
  let long = 0n;
  let short = 0n;
  let tenth = 0n;
  for (let first = 0; first < checkpoints; first += chunk) {
    // A minor GC between the two, so neither pays for the other's young objects.
    scavenge();
    const started = process.hrtime.bigint();
    for (let episode = first; episode < first + chunk; episode++) {
      state = applyCheckpoint(state, checkpointAt(config.agentNames, episode, values.next())).state;
    }
    const elapsed = process.hrtime.bigint() - started;
    long += elapsed;
    if (first < checkpoints / 10) tenth += elapsed;
    scavenge();
    short += BigInt(Math.round(runPure(1, chunk).seconds * 1e9));
  }
  if (state.terminationReason !== null) throw new Error('bench rules ended the run');
  const count = checkpoints / chunk;
  return {
    long: checkpoints / (Number(long) / 1e9),
    short: (count * chunk) / (Number(short) / 1e9),
    atTenth: checkpoints / 10 / (Number(tenth) / 1e9),
  };
}

function scavenge(): void {
  const gc = (globalThis as { gc?: (options?: { type: 'minor' }) => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  gc({ type: 'minor' });
}

function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  gc();
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)');
  for (let round = 0; round < 3; round++) gc();
  return process.memoryUsage().heapUsed;
}

const rate = (checkpoints: number, seconds: number): string =>
  `${Math.round(checkpoints / seconds).toLocaleString('en-US')} checkpoints/s`;
const perSecond = (value: number): string =>
  `${Math.round(value).toLocaleString('en-US')} checkpoints/s`;
const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

runPure(1, 20_000); // warm-up: let the JIT settle before anything is timed
runInterleaved(5_000, 1_000);

console.log('1. the seed (ported line by line) against arena, one agent, the same 50k checkpoints');
const seedStream = streamFrom(1, 0, 50_000);
const versus = againstSeed(seedStream, 3);
const speedup = versus.arena / versus.seed;
console.log(
  `   seed ${perSecond(versus.seed)}, arena ${perSecond(versus.arena)} (chunks of 1000 alternated, a full GC before each, arena ${ARENA_RUNS} runs side by side, median of 3 rounds)`,
);
console.log(
  `   arena rate / seed rate: ${speedup.toFixed(1)} (target >= 100: ${verdict(speedup >= 100)})`,
);

console.log('2. one agent, pure applyCheckpoint, a run of 1M checkpoints against runs of 10k');
const scale = runAgainstShortRuns(1_000_000, 10_000);
console.log(
  `   1M-checkpoint run: ${perSecond(scale.long)}; 10k-checkpoint runs: ${perSecond(scale.short)}`,
);
console.log(`   rate at 100k (its first tenth): ${perSecond(scale.atTenth)}`);
const scaling = scale.long / scale.short;
console.log(
  `   rate at 1M / rate at 10k: ${scaling.toFixed(2)} (a 10k run after every 10k of the 1M run, so load slows both alike; target >= 0.8: ${verdict(scaling >= 0.8)})`,
);

console.log('3. eight agents, pure applyCheckpoint');
const eight = runPure(8, 100_000);
console.log(
  `     100,000: ${rate(100_000, eight.seconds)} (${rate(800_000, eight.seconds).replace('checkpoints', 'outcomes')})`,
);

console.log(
  '4. machine path (actor.send) against pure applyCheckpoint, one agent, 100k checkpoints',
);
const { pure, machine } = runInterleaved(100_000, 5_000);
const overhead = machine / pure;
console.log(
  `   pure ${rate(100_000, pure)}, machine ${rate(100_000, machine)} (interleaved in chunks of 5k)`,
);
console.log(
  `   machine time / pure time: ${overhead.toFixed(2)} (target <= 3: ${verdict(overhead <= 3)})`,
);

console.log('5. retained heap after 1M checkpoints, one agent, window 10');
const baseline = collect();
const retained = runPure(1, 1_000_000);
const after = collect();
const perOutcome = (after - baseline) / 1_000_000;
console.log(
  `   ${((after - baseline) / 1024 / 1024).toFixed(1)} MiB retained for ${retained.state.agents.agent0?.seenCount.toLocaleString('en-US')} accepted outcomes`,
);
console.log(
  `   ${perOutcome.toFixed(0)} bytes per accepted outcome (target <= 120: ${verdict(perOutcome <= 120)})`,
);
