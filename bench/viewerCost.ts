/**
 * The viewer's own CPU per inspection event on the run's thread, unpaced,
 * with no page and with one (a reader of its event stream in this process,
 * discarding what it reads): 100 actors receive VIEWER_COST_EVENTS events (default
 * 100 000) inspected by a no-op observer (XState's own inspection, the
 * baseline) and by `startViewer().inspect`; rounds interleaved, the lowest of
 * VIEWER_COST_ROUNDS (default 5) kept for each; prints µs per event over the
 * baseline.
 */
import { get } from 'node:http';
import { createActor, createMachine, type InspectionEvent, type Observer } from 'xstate';
import { directInspection } from '../src/actors/inspection/directInspection.js';
import { startViewer } from '../src/viewer/startViewer.js';

const events = Number(process.env.VIEWER_COST_EVENTS ?? 100_000);
const rounds = Number(process.env.VIEWER_COST_ROUNDS ?? 5);
const actors = 100;
const toggle = createMachine({
  id: 'toggle',
  initial: 'off',
  states: { off: { on: { flip: 'on' } }, on: { on: { flip: 'off' } } },
});

/** CPU milliseconds to send `events` flips round-robin to `actors` actors inspected by `inspect`. */
async function drive(inspect: Observer<InspectionEvent>): Promise<number> {
  const refs = Array.from({ length: actors }, () => createActor(toggle, { inspect }).start());
  const before = process.cpuUsage();
  for (let index = 0; index < events; index++) {
    refs[index % actors]!.send({ type: 'flip', n: index, note: 'a payload' });
    // the server's batches go out as in a run that yields now and then
    if (index % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(before);
  for (const ref of refs) ref.stop();
  return (used.user + used.system) / 1000;
}

/** A page's stream read and thrown away; resolves once connected. */
function readStream(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(`${url}events`, (response) => {
      response.on('data', () => {});
      response.on('error', () => {});
      resolve();
    }).on('error', reject);
  });
}

const best = { none: Infinity, viewer: Infinity, page: Infinity };
for (let round = 0; round < rounds; round++) {
  best.none = Math.min(best.none, await drive(directInspection({ next: () => {} })));
  const viewer = await startViewer({ port: 0, history: 500 });
  best.viewer = Math.min(best.viewer, await drive(viewer.inspect));
  await viewer.close();
  const watched = await startViewer({ port: 0, history: 500 });
  await readStream(watched.url);
  while (watched.connectedViewers === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  best.page = Math.min(best.page, await drive(watched.inspect));
  await watched.close();
}
const perEvent = (ms: number): string => ((ms * 1000) / events).toFixed(2);
console.log(
  `no-op inspect ${perEvent(best.none)} µs/event; the viewer's own cost ${perEvent(best.viewer - best.none)} µs/event ` +
    `with no page, ${perEvent(best.page - best.none)} µs/event with one (lowest of ${rounds} rounds, ${events} events)`,
);
