import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { assign, createActor, createMachine, fromPromise } from 'xstate';
import { createTraceRecorder } from '../../src/actors/inspection/traceRecorder.js';
import { buildTimeline, parseTrace } from '../../src/actors/inspection/traceTimeline.js';
import { valueLabel } from '../../src/viewer/activeStates.js';
import { traceMessages } from '../../src/viewer/traceMessages.js';
import { ViewerCharts } from '../../src/viewer/viewerCharts.js';
import { ViewerTimeline } from '../../src/viewer/viewerTimeline.js';

const folder = mkdtempSync(path.join(tmpdir(), 'arena-viewer-replay-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Nested and parallel states, a child machine, a promise actor, and context-only updates. */
const child = createMachine({
  id: 'child',
  initial: 'waiting',
  states: { waiting: { on: { poke: 'poked' } }, poked: { on: { poke: 'waiting' } } },
});
const machine = createMachine({
  id: 'lab',
  initial: 'idle',
  context: { count: 0 },
  states: {
    idle: {
      on: {
        go: 'running',
        count: { actions: assign({ count: ({ context }) => context.count + 1 }) },
      },
    },
    running: {
      type: 'parallel',
      invoke: { src: child, id: 'helper' },
      on: { stop: 'idle', finish: 'finished' },
      states: {
        left: { initial: 'a', states: { a: { on: { flip: 'b' } }, b: { on: { flip: 'a' } } } },
        right: {
          initial: 'x',
          states: {
            x: { on: { work: 'y' } },
            y: { invoke: { src: fromPromise(async () => 1), onDone: 'x' } },
          },
        },
      },
    },
    finished: { type: 'final' },
  },
});
const eventTypes = ['go', 'count', 'flip', 'work', 'stop', 'finish'] as const;

let runs = 0;

describe('the viewer replays a trace', () => {
  test.prop([fc.array(fc.constantFrom(...eventTypes), { maxLength: 25 })], { numRuns: 40 })(
    'at every step, each actor shows the state arena trace --json has after the same records',
    async (events) => {
      const file = path.join(folder, `trace-${runs++}.jsonl`);
      const recorder = createTraceRecorder(file);
      const actor = createActor(machine, { inspect: recorder.inspect });
      actor.subscribe({ error: () => {} });
      actor.start();
      for (const type of events) {
        actor.send({ type });
        await Promise.resolve();
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
      actor.stop();
      recorder.close();
      const records = parseTrace(readFileSync(file, 'utf8'), file);
      const messages = traceMessages(records, new ViewerCharts(), [machine, child]);
      const timeline = new ViewerTimeline();
      timeline.receive([{ k: 'hello', mode: 'replay', history: null, title: file }, ...messages]);
      expect(timeline.position).toBe(0);

      // One message per record the timeline reads: step through both side by side.
      for (let count = 0; count <= records.length; count++) {
        const expected = buildTimeline(records.slice(0, count));
        timeline.seek(messagesBefore(records, count));
        for (const actorTimeline of expected) {
          const last = actorTimeline.entries.at(-1);
          if (last === undefined) continue;
          const state = timeline.stateOf(actorTimeline.sessionId)!;
          expect(valueLabel(state.value, state.status)).toBe(last.to);
          expect(state.status).toBe(last.status);
        }
      }
      timeline.seek(messages.length);
      for (const actorTimeline of buildTimeline(records)) {
        const last = actorTimeline.entries.at(-1);
        if (last !== undefined) {
          expect(valueLabel(timeline.stateOf(actorTimeline.sessionId)!.value, last.status)).toBe(
            last.to,
          );
        }
      }
    },
  );
});

/** How many viewer messages the first `count` records give (actor, event and snapshot records). */
function messagesBefore(
  records: readonly { type: string; snapshot?: unknown }[],
  count: number,
): number {
  return records
    .slice(0, count)
    .filter(
      (record) =>
        record.type === '@xstate.actor' ||
        record.type === '@xstate.event' ||
        (record.type === '@xstate.snapshot' && record.snapshot !== null),
    ).length;
}
