/**
 * What arena's viewer costs a run: 1,000 actors receiving 5,000 events a
 * second (each event also costs the run 0.1 ms of CPU work of its own, a
 * fixed loop calibrated once, so the run keeps its thread half busy). Five
 * kinds of round, interleaved, each repeated (`VIEWER_BENCH_REPEATS`, default
 * 2) and the lower figure kept (a shared machine only ever adds time): no
 * inspection (the baseline); a plain no-op XState `inspect` (what XState's own
 * inspection events cost any observer); the viewer with no page; the viewer
 * with a headless Chromium page attached; the same with a page that stopped
 * reading (a slow or gone browser).
 *
 * The run's slowdown is how much later the paced run finishes (wall), printed
 * with the target of 5 %; beside it the CPU of the run's own process (every
 * thread, GC included) and the browser's CPU (its processes' user + system
 * time from /proc) per second of run, and how long after the run's last
 * event the page showed all of it. The forced GC that measures the server's
 * memory each second is timed and left out of both the wall and the CPU
 * figures of every round: it is the bench's, not the run's.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { createActor, createMachine, type InspectionEvent, type Observer } from 'xstate';
import { type LiveViewer, startViewer } from '../src/viewer/index.js';
import { launchChromium } from '../test/support/browser.js';

const actorCount = 1000;
const eventsPerSecond = 5000;
const seconds = Number(process.env.VIEWER_BENCH_SECONDS ?? 6);
const repeats = Number(process.env.VIEWER_BENCH_REPEATS ?? 2);
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

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
/** CPU ms (user + system) of every process descended from this one: the browser's. */
function browserCpuMs(): number {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    stats.set(Number(entry), {
      parent: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
    });
  }
  const descends = (pid: number): boolean => {
    for (let at = stats.get(pid)?.parent; at !== undefined && at > 1; at = stats.get(at)?.parent)
      if (at === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, { ticks: own }] of stats) if (descends(pid)) ticks += own;
  return (ticks * 1000) / clockTicks;
}

type Kind = 'none' | 'xstate' | 'viewer' | 'page' | 'stalled';
interface Round {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly browserMs: number;
  /** From the run's last event until the page showed every message, `null` without a reading page. */
  readonly catchUpMs: number | null;
  readonly pageMessages: number | null;
  readonly memory: { second: number; heapMiB: number; kept: number }[];
}

/** Messages one round gives the viewer: counted in the no-op round (the run is the same each time). */
let messagesPerRound = 0;

async function round(kind: Kind, browser: Awaited<ReturnType<typeof launchChromium>>) {
  let viewer: LiveViewer | null = null;
  let inspect: Observer<InspectionEvent> | undefined;
  let counted = 0;
  if (kind === 'xstate') {
    inspect = {
      next(event) {
        const type = event.type;
        if (type === '@xstate.event' || type === '@xstate.snapshot' || type === '@xstate.actor')
          counted += 1;
      },
    };
  } else if (kind !== 'none') {
    viewer = await startViewer({ port: 0, history, title: 'bench' });
    inspect = viewer.inspect;
  }
  const page = kind === 'page' || kind === 'stalled' ? await browser.newPage() : null;
  let cdp: CDPSession | null = null;
  if (page !== null && viewer !== null) {
    await page.goto(viewer.url);
    await page.waitForSelector('[data-connected="true"]');
    if (kind === 'stalled') {
      // a page that stopped reading: its renderer paused, the server keeps writing until it cuts it off
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Debugger.enable');
      await cdp.send('Debugger.pause');
    }
  }
  const actors = Array.from({ length: actorCount }, () => {
    const actor = createActor(worker, inspect ? { inspect } : {});
    actor.subscribe({ error: () => {} });
    return actor.start();
  });
  const perTick = (eventsPerSecond * tickMs) / 1000;
  const ticks = (seconds * 1000) / tickMs;
  const memory: Round['memory'] = [];
  let gcWallMs = 0;
  let gcCpuMs = 0;
  const browserBefore = page === null ? 0 : browserCpuMs();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  for (let tick = 0; tick < ticks; tick++) {
    // paced: each tick's events are due at tick * tickMs (plus the bench's own GC pauses)
    const due = start + gcWallMs + tick * tickMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else await new Promise((resolve) => setImmediate(resolve));
    for (let index = 0; index < perTick; index++) {
      actors[sent % actorCount]!.send({ type: 'tick', n: sent, apiKey: 'sk-not-shown-anywhere' });
      work(workIterations);
      sent += 1;
    }
    if ((tick + 1) % (1000 / tickMs) === 0) {
      const gcStart = performance.now();
      const gcCpu = process.cpuUsage();
      globalThis.gc?.();
      memory.push({
        second: (tick + 1) / (1000 / tickMs),
        heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
        kept: viewer?.keptMessages ?? 0,
      });
      const spent = process.cpuUsage(gcCpu);
      gcCpuMs += (spent.user + spent.system) / 1000;
      gcWallMs += performance.now() - gcStart;
    }
  }
  const wallMs = performance.now() - start - gcWallMs;
  const cpu = process.cpuUsage(cpuBefore);
  const browserMs = page === null ? 0 : browserCpuMs() - browserBefore;
  for (const actor of actors) actor.stop();
  if (kind === 'xstate') messagesPerRound = counted;
  let catchUpMs: number | null = null;
  let pageMessages: number | null = null;
  if (page !== null && kind === 'page') {
    const ended = performance.now();
    // read from here every 20 ms: the page's policy lets no evaluated string run in it
    for (;;) {
      pageMessages = Number(await page.getAttribute('body', 'data-messages'));
      if (pageMessages >= messagesPerRound || performance.now() - ended > 120_000) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    catchUpMs = performance.now() - ended;
  }
  if (cdp !== null) await cdp.detach();
  await page?.close();
  const dropped = viewer?.droppedViewers ?? 0;
  await viewer?.close();
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000 - gcCpuMs,
    browserMs,
    catchUpMs,
    pageMessages,
    memory,
    dropped,
  };
}

const browser = await launchChromium();
const kinds: Kind[] = ['none', 'xstate', 'viewer', 'page', 'stalled'];
const rounds = new Map<Kind, Awaited<ReturnType<typeof round>>[]>(kinds.map((kind) => [kind, []]));
for (let repeat = 0; repeat < repeats; repeat++) {
  for (const kind of kinds) rounds.get(kind)!.push(await round(kind, browser));
}
await browser.close();

const least = (kind: Kind, key: 'wallMs' | 'cpuMs' | 'browserMs') =>
  Math.min(...rounds.get(kind)!.map((one) => one[key]));
const range = (kind: Kind, key: 'wallMs' | 'cpuMs' | 'browserMs') => {
  const values = rounds.get(kind)!.map((one) => one[key]);
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
};
const events = eventsPerSecond * seconds;
const perEvent = (ms: number) => `${((ms * 1000) / events).toFixed(1)} µs`;
const percent = (value: number, base: number) =>
  `${value >= base ? '+' : ''}${(((value - base) / base) * 100).toFixed(1)} %`;
const baseWall = least('none', 'wallMs');
const baseCpu = least('none', 'cpuMs');
console.log(
  `${actorCount} actors, ${eventsPerSecond} events/s for ${seconds} s, ${workPerEventMs} ms of the run's own CPU work per event; lower of ${repeats} rounds each (range in brackets)`,
);
console.log(
  `baseline (no inspection): wall ${baseWall.toFixed(0)} ms [${range('none', 'wallMs')}], run CPU ${baseCpu.toFixed(0)} ms [${range('none', 'cpuMs')}]`,
);
const labels: Record<Exclude<Kind, 'none'>, string> = {
  xstate: "XState's own inspection (a plain no-op inspect)",
  viewer: 'the viewer, no page',
  page: 'the viewer and a Chromium page',
  stalled: 'the viewer and a page that stopped reading',
};
for (const kind of ['xstate', 'viewer', 'page', 'stalled'] as const) {
  const wall = least(kind, 'wallMs');
  const cpu = least(kind, 'cpuMs');
  const browserPart =
    kind === 'page' || kind === 'stalled'
      ? `; browser CPU ${(least(kind, 'browserMs') / seconds).toFixed(0)} ms per second of run [${range(kind, 'browserMs')} ms in all]`
      : '';
  console.log(`${labels[kind]}:`);
  console.log(
    `  run wall ${wall.toFixed(0)} ms [${range(kind, 'wallMs')}]: slowdown ${percent(wall, baseWall)} (target <= 5 %)`,
  );
  console.log(
    `  run CPU ${cpu.toFixed(0)} ms [${range(kind, 'cpuMs')}]: ${percent(cpu, baseCpu)}, ${perEvent(cpu - baseCpu)} per event${browserPart}`,
  );
}
const paged = rounds.get('page')!;
console.log(
  `page caught up ${paged.map((one) => `${one.catchUpMs?.toFixed(0)} ms`).join(', ')} after the run's end (it showed ${paged[0]?.pageMessages} messages; the run made ${messagesPerRound}); stalled pages cut off: ${rounds
    .get('stalled')!
    .map((one) => one.dropped)
    .join(', ')}`,
);
console.log(
  `server memory each second, viewer and page (history ${history} per actor; flat once the rings are full):`,
);
for (const { second, heapMiB, kept } of paged.at(-1)!.memory) {
  console.log(
    `  ${String(second).padStart(2)} s  heap ${heapMiB.toFixed(1).padStart(6)} MiB  kept ${kept} messages`,
  );
}
