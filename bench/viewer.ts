/**
 * What arena's viewer costs a run: 1,000 actors receiving 5,000 events a
 * second (each event also costs the run 0.1 ms of its own work, so the run
 * keeps its thread half busy), first with no viewer (the baseline), then with
 * the viewer and a headless Chromium page attached. Prints the run's
 * slowdown (its wall time against the baseline's, target <= 5 %), the CPU the
 * process spent against the baseline's, and the server's memory each second
 * (heap after a GC, and the messages it keeps) to show it flat once the rings
 * are full.
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

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the run's own work per event
  }
}

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
      busyWait(workPerEventMs);
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

const baseline = await round(undefined, () => 0);
const viewer = await startViewer({ port: 0, history });
const browser = await launchChromium();
const page = await browser.newPage();
await page.goto(viewer.url);
await page.waitForSelector('[data-actor]', { state: 'attached', timeout: 30_000 }).catch(() => {});
const watched = await round(viewer.inspect, () => viewer.keptMessages);
const pageActors = await page.$eval('.counts', (node) => node.textContent ?? '');
await browser.close();
await viewer.close();

const percent = (value: number, base: number) => `${(((value - base) / base) * 100).toFixed(1)} %`;
console.log(
  `${actorCount} actors, ${eventsPerSecond} events/s for ${seconds} s, ${workPerEventMs} ms of the run's own work per event`,
);
console.log(
  `run wall time: ${baseline.wallMs.toFixed(0)} ms without a viewer, ${watched.wallMs.toFixed(0)} ms with it and a page: slowdown ${percent(watched.wallMs, baseline.wallMs)} (target <= 5 %)`,
);
console.log(
  `process CPU:   ${baseline.cpuMs.toFixed(0)} ms without, ${watched.cpuMs.toFixed(0)} ms with (+${percent(watched.cpuMs, baseline.cpuMs)}; the viewer's work, in the run's idle time)`,
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
