/**
 * What arena's viewer costs a run: 1,000 actors receiving 5,000 events a
 * second (each event also costs the run 0.1 ms of CPU work of its own, a
 * fixed loop calibrated once, so the run keeps its thread half busy), with no
 * viewer (the baseline), with a no-op XState `inspect` (what XState's own
 * inspection events cost, whoever watches), and with the viewer and a
 * headless Chromium page attached; each twice, interleaved, the lower kept (a
 * shared machine only ever adds time). Prints the run's slowdown in wall time
 * and in the CPU of its own process (the browser is another process), each
 * against the target of 5 %, the viewer's and XState's CPU per event, and the
 * server's memory each second (heap after a GC, and the messages it keeps)
 * to show it flat once the rings are full.
 */
import { createActor, createMachine, type InspectionEvent, type Observer } from 'xstate';
import { startViewer } from '../src/viewer/index.js';
import { launchChromium } from '../test/support/browser.js';

const actorCount = 1000;
const eventsPerSecond = 5000;
const seconds = 6;
const tickMs = 10;
/** Events per actor the viewer keeps: small, so that the rings fill within the run. */
const history = 20;
const workPerEventMs = 0.1;

const worker = createMachine({
  id: 'worker',
  initial: 'idle',
  states: {
    idle: { on: { tick: 'busy' } },
    busy: { on: { tick: 'checking' } },
    checking: { on: { tick: 'idle' } },
  },
});

let sink = 0;
/** The run's own work per event: a fixed loop, so its CPU does not depend on the machine's load. */
function work(iterations: number): void {
  let value = sink;
  for (let index = 0; index < iterations; index++)
    value = (value * 1_103_515_245 + 12_345) % 2_147_483_648;
  sink = value;
}
/** Iterations of `work` that take `workPerEventMs` of CPU here. */
function calibrate(): number {
  const trial = 200_000;
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    work(trial);
    const spent = process.cpuUsage(before);
    best = Math.min(best, (spent.user + spent.system) / 1000);
  }
  return Math.max(1, Math.round((trial * workPerEventMs) / best));
}
const workIterations = calibrate();

interface Round {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly memory: { second: number; heapMiB: number; kept: number }[];
}

async function round(
  inspect: Observer<InspectionEvent> | undefined,
  kept: () => number,
): Promise<Round> {
  const actors = Array.from({ length: actorCount }, () => {
    const actor = createActor(worker, inspect ? { inspect } : {});
    actor.subscribe({ error: () => {} });
    return actor.start();
  });
  const perTick = (eventsPerSecond * tickMs) / 1000;
  const ticks = (seconds * 1000) / tickMs;
  const memory: Round['memory'] = [];
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  for (let tick = 0; tick < ticks; tick++) {
    // paced: each tick's events are due at tick * tickMs; a slow tick delays the rest
    const due = start + tick * tickMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else await new Promise((resolve) => setImmediate(resolve));
    for (let index = 0; index < perTick; index++) {
      actors[sent % actorCount]!.send({ type: 'tick', n: sent, apiKey: 'sk-not-shown-anywhere' });
      work(workIterations);
      sent += 1;
    }
    if ((tick + 1) % (1000 / tickMs) === 0) {
      globalThis.gc?.();
      memory.push({
        second: (tick + 1) / (1000 / tickMs),
        heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
        kept: kept(),
      });
    }
  }
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  for (const actor of actors) actor.stop();
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, memory };
}

const viewer = await startViewer({ port: 0, history });
const browser = await launchChromium();
const page = await browser.newPage();
await page.goto(viewer.url);
const noop: Observer<InspectionEvent> = { next() {} };
const rounds: { baseline: Round[]; xstate: Round[]; watched: Round[] } = {
  baseline: [],
  xstate: [],
  watched: [],
};
for (let repeat = 0; repeat < 2; repeat++) {
  rounds.baseline.push(await round(undefined, () => 0));
  rounds.xstate.push(await round(noop, () => 0));
  rounds.watched.push(await round(viewer.inspect, () => viewer.keptMessages));
}
const pageActors = await page.$eval('.counts', (node) => node.textContent ?? '');
await browser.close();
await viewer.close();

const least = (list: Round[], key: 'wallMs' | 'cpuMs') => Math.min(...list.map((one) => one[key]));
const [baseWall, baseCpu] = [least(rounds.baseline, 'wallMs'), least(rounds.baseline, 'cpuMs')];
const [watchedWall, watchedCpu] = [least(rounds.watched, 'wallMs'), least(rounds.watched, 'cpuMs')];
const xstateCpu = least(rounds.xstate, 'cpuMs');
const events = eventsPerSecond * seconds;
const perEvent = (ms: number) => `${((ms * 1000) / events).toFixed(1)} µs`;
const percent = (value: number, base: number) => `${(((value - base) / base) * 100).toFixed(1)} %`;
const watched = rounds.watched.at(-1)!;
console.log(
  `${actorCount} actors, ${eventsPerSecond} events/s for ${seconds} s, ${workPerEventMs} ms of the run's own CPU work per event (lower of 2 rounds each)`,
);
console.log(
  `run wall time: ${baseWall.toFixed(0)} ms without a viewer, ${watchedWall.toFixed(0)} ms with it and a page: slowdown ${percent(watchedWall, baseWall)} (target <= 5 %)`,
);
console.log(
  `run CPU (its own process; the browser is another): ${baseCpu.toFixed(0)} ms without, ${watchedCpu.toFixed(0)} ms with: ${percent(watchedCpu, baseCpu)} (target <= 5 %)`,
);
console.log(
  `  of which XState's inspection events (a no-op inspect): ${perEvent(xstateCpu - baseCpu)} per event; the viewer's: ${perEvent(watchedCpu - xstateCpu)} per event`,
);
console.log(`page at the end: ${pageActors}; pages cut off: ${viewer.droppedViewers}`);
console.log(
  `server memory each second (history ${history} per actor; flat once the rings are full):`,
);
for (const { second, heapMiB, kept } of watched.memory) {
  console.log(
    `  ${String(second).padStart(2)} s  heap ${heapMiB.toFixed(1).padStart(6)} MiB  kept ${kept} messages`,
  );
}
