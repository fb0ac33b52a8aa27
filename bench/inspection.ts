/**
 * What watching costs: checkpoints per second through the evaluation
 * termination actor with no inspector (the baseline), with a no-op inspect
 * function (XState's own inspection overhead), with the JSONL trace recorder
 * writing to a real file, and with @statelyai/inspect's conversion to
 * Stately's format (what the relay sends, without a socket). Ratios are
 * against the baseline measured in this process; best of three.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInspector } from '@statelyai/inspect';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { createTraceRecorder } from '../src/actors/inspection/inspection.js';
import { toStatelyMessage } from '../src/actors/inspection/inspectorRelay.js';
import type { AgentRulesInput } from '../src/domain/termination/index.js';
import { evaluationTerminationMachine } from '../src/machines/evaluationTermination.js';

const checkpoints = 4000;
const folder = mkdtempSync(path.join(tmpdir(), 'arena-bench-inspection-'));
/** Rules that never end the phase (threshold out of reach, min_delta 0), for both agents. */
const neverEnding: AgentRulesInput = {
  success: {
    metric: 'objective',
    threshold: 2,
    direction: 'greater_equal',
    consecutive: 2,
    min_evaluations: 3,
  },
  plateau: {
    metric: 'objective',
    direction: 'maximize',
    min_delta: 0,
    patience: 3,
    min_evaluations: 4,
    window: 2,
  },
};
const input = { agents: { PPO: neverEnding, SAC: neverEnding } };

/**
 * Drive one actor through `checkpoints` never-terminating checkpoints, then
 * let deferred inspector work (setTimeout(0)) finish; checkpoints per second.
 */
async function drive(
  count: number,
  inspect: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined,
) {
  const actor = createActor(evaluationTerminationMachine, {
    input,
    ...(inspect ? { inspect } : {}),
  });
  actor.subscribe({ error: () => {} });
  actor.start();
  const start = performance.now();
  for (let index = 0; index < count; index++) {
    actor.send({
      type: 'evaluation.checkpoint',
      outcomes: ['PPO', 'SAC'].map((agentName) => ({
        agentName,
        evaluationId: `${agentName}-${index}`,
        evaluationEpisode: index,
        metrics: { objective: 0.5 + index * 1e-6 },
      })),
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 1));
  const seconds = (performance.now() - start) / 1000;
  if (actor.getSnapshot().status !== 'active') throw new Error('the bench actor terminated');
  actor.stop();
  return count / seconds;
}

type Setup = () => { inspect?: Parameters<typeof drive>[1]; done?: () => void };

/** Best of three rounds per variant, the rounds interleaved so that drift hits all alike. */
async function bestOfThree(count: number, variants: readonly Setup[]): Promise<number[]> {
  const best = variants.map(() => 0);
  for (let round = 0; round < 3; round++) {
    for (const [index, setup] of variants.entries()) {
      const { inspect, done } = setup();
      best[index] = Math.max(best[index]!, await drive(count, inspect));
      done?.();
    }
  }
  return best;
}

let traceEvents = 0;
const withoutInspector: Setup = () => ({});
const noopInspector: Setup = () => ({ inspect: () => {} });
const traceRecorder: Setup = () => {
  const recorder = createTraceRecorder(path.join(folder, 'trace.jsonl'));
  return {
    inspect: recorder.inspect,
    done: () => {
      recorder.close();
      traceEvents = recorder.recordedEvents;
    },
  };
};
// The relay's work per event (converted in a setTimeout(0), then serialised), without a socket.
const statelyConversion: Setup = () => {
  const inspector = createInspector({
    send: (event) => {
      toStatelyMessage(event);
    },
  });
  return { inspect: (event: InspectionEvent) => inspector.inspect.next?.(event) };
};

await drive(checkpoints, undefined); // warm-up, not counted
const [baseline = 1, noop = 0, traced = 0] = await bestOfThree(checkpoints, [
  withoutInspector,
  noopInspector,
  traceRecorder,
]);
const line = (name: string, rate: number, base: number) =>
  `${name.padEnd(48)} ${Math.round(rate).toString().padStart(7)} checkpoints/s  ${(rate / base).toFixed(2)}x`;
console.log(`${checkpoints} checkpoints of 2 agents through the termination actor, best of 3`);
console.log(line('no inspector (baseline)', baseline, baseline));
console.log(line('no-op inspect function', noop, baseline));
console.log(
  line(
    `trace recorder (${(traceEvents / checkpoints).toFixed(1)} events per checkpoint)`,
    traced,
    baseline,
  ),
);
// Stately's events carry the whole context, which grows with the run (one digest
// per evaluation id), so the relay's cost per checkpoint grows with the run too.
for (const count of [100, 400]) {
  const [shortBaseline = 1, relayed = 0] = await bestOfThree(count, [
    withoutInspector,
    statelyConversion,
  ]);
  console.log(line(`Stately conversion, ${count} checkpoints (relay)`, relayed, shortBaseline));
}
rmSync(folder, { recursive: true, force: true });
