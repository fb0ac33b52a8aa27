import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActor, createMachine, type InspectionEvent, setup } from 'xstate';
import {
  buildTimeline,
  combineInspectors,
  createTraceRecorder,
  formatTimeline,
  parseTrace,
  stateLabel,
  TraceFormatError,
  type TraceRecord,
} from '../../../src/actors/inspection/inspection.js';
import {
  type EvaluationTerminationInput,
  evaluationTerminationMachine,
} from '../../../src/machines/evaluationTermination.js';
import { successRule } from '../../support/terminationRules.js';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-trace-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const rules: EvaluationTerminationInput = {
  agents: {
    SAC: { success: successRule({ consecutive: 1, min_evaluations: 1 }) },
  },
};

function runTermination(inspect: ReturnType<typeof combineInspectors>): void {
  const actor = createActor(evaluationTerminationMachine, {
    input: rules,
    ...(inspect ? { inspect } : {}),
  });
  actor.subscribe({ error: () => {} });
  actor.start();
  actor.send({
    type: 'evaluation.checkpoint',
    outcomes: [
      {
        agentName: 'SAC',
        evaluationId: 'e0',
        evaluationEpisode: 0,
        metrics: { objective: Number.NaN },
      },
    ],
  });
  actor.send({
    type: 'evaluation.checkpoint',
    outcomes: [
      { agentName: 'SAC', evaluationId: 'e1', evaluationEpisode: 1, metrics: { objective: 0.9 } },
    ],
  });
}

describe('createTraceRecorder', () => {
  it('writes one JSON-safe line per inspection event, and the trace replays as a timeline', () => {
    const file = path.join(folder, 'trace.jsonl');
    let clock = 0;
    const recorder = createTraceRecorder(file, { now: () => (clock += 0.5) });
    runTermination(recorder.inspect);
    recorder.close();
    const records = parseTrace(readFileSync(file, 'utf8'), file);
    expect(records).toHaveLength(recorder.recordedEvents);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index));
    expect(records[0]).toMatchObject({
      type: '@xstate.actor',
      actorId: records[0]!.sessionId,
      machineId: 'evaluationTermination',
      parentId: null,
      snapshot: null,
    });
    const invalid = records.find(
      (record) =>
        record.type === '@xstate.event' &&
        JSON.stringify(record.event).includes('"evaluationId":"e0"'),
    );
    expect(invalid?.event).toMatchObject({ outcomes: [{ metrics: { objective: '__nan__' } }] });
    const [timeline] = buildTimeline(records);
    expect(
      timeline?.entries.map(({ event, from, to, status }) => ({ event, from, to, status })),
    ).toEqual([
      { event: 'xstate.init', from: null, to: 'active', status: 'active' },
      { event: 'evaluation.checkpoint', from: 'active', to: 'success', status: 'done' },
    ]);
    expect(timeline?.receivedEvents).toBe(3);
  });

  it('ignores events after close and closes once', () => {
    const file = path.join(folder, 'late.jsonl');
    const recorder = createTraceRecorder(file);
    recorder.close();
    runTermination(recorder.inspect);
    recorder.close();
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(recorder.recordedEvents).toBe(0);
  });
});

describe('combineInspectors', () => {
  it('hands every event to each inspector, even when one throws', () => {
    const seen: string[] = [];
    const observed: string[] = [];
    const inspect = combineInspectors(
      () => {
        throw new Error('broken dashboard');
      },
      undefined,
      (event: InspectionEvent) => seen.push(event.type),
      { next: (event: InspectionEvent) => observed.push(event.type) },
    );
    runTermination(inspect);
    expect(seen.length).toBeGreaterThan(4);
    expect(observed).toEqual(seen);
    expect(seen[0]).toBe('@xstate.actor');
    expect(combineInspectors(undefined, undefined)).toBeUndefined();
  });
});

describe('parseTrace', () => {
  it.each([
    ['{"at":1', 'trace.jsonl:2: invalid JSON'],
    ['[1]', 'trace.jsonl:2: a trace record must be a JSON object'],
    [
      '{"at":"soon","type":"@xstate.event","sessionId":"x:0"}',
      'trace.jsonl:2: "at" must be a number of milliseconds',
    ],
    [
      '{"at":1,"type":"click","sessionId":"x:0"}',
      'trace.jsonl:2: "type" must be one of @xstate.actor',
    ],
    ['{"at":1,"type":"@xstate.event"}', 'trace.jsonl:2: "sessionId" must be a string'],
  ])('names the file and line of a bad record: %s', (line, message) => {
    const good = '{"seq":0,"at":0,"type":"@xstate.actor","sessionId":"x:0"}';
    expect(() => parseTrace(`${good}\n${line}\n`, 'trace.jsonl')).toThrow(TraceFormatError);
    expect(() => parseTrace(`${good}\n${line}\n`, 'trace.jsonl')).toThrow(message);
  });
});

describe('the timeline', () => {
  const record = (overrides: Partial<TraceRecord>): TraceRecord => ({
    seq: 0,
    at: 0,
    type: '@xstate.snapshot',
    sessionId: 'x:0',
    actorId: 'x:0',
    machineId: 'controller',
    parentId: null,
    rootId: 'x:0',
    sourceId: null,
    event: null,
    snapshot: null,
    action: null,
    ...overrides,
  });

  it('names states as dotted paths, parallel regions joined, or by status', () => {
    expect(stateLabel({ status: 'active', value: { running: 'acting' }, error: null })).toBe(
      'running.acting',
    );
    expect(stateLabel({ status: 'active', value: { a: 'x', b: { c: 'y' } }, error: null })).toBe(
      'a.x, b.c.y',
    );
    expect(stateLabel({ status: 'done', value: null, error: null })).toBe('done');
  });

  it('prints state changes per actor with offsets and events, skipping repeats', () => {
    const records = [
      record({ type: '@xstate.actor', at: 0 }),
      record({
        at: 1,
        event: { type: 'xstate.init' },
        snapshot: { status: 'active', value: 'idle', error: null },
      }),
      record({ type: '@xstate.event', at: 2, event: { type: 'start' } }),
      record({
        at: 2.25,
        event: { type: 'start' },
        snapshot: { status: 'active', value: { running: 'acting' }, error: null },
      }),
      record({
        at: 3,
        event: { type: 'tick' },
        snapshot: { status: 'active', value: { running: 'acting' }, error: null },
      }),
      record({
        sessionId: 'x:1',
        actorId: 'job',
        machineId: null,
        parentId: 'x:0',
        at: 4,
        event: { type: 'xstate.init' },
        snapshot: { status: 'active', value: null, error: null },
      }),
      record({
        at: 12.5,
        event: { type: 'stop' },
        snapshot: { status: 'done', value: 'stopped', error: null },
      }),
    ];
    expect(formatTimeline(buildTimeline(records))).toBe(
      [
        'x:0  machine controller  (root)',
        '  +1.0 ms      xstate.init  → idle',
        '  +2.3 ms      start        idle → running.acting',
        '  +12.5 ms     stop         running.acting → stopped (done)',
        '',
        'job  session x:1  parent x:0',
        '  +4.0 ms      xstate.init  → active',
        '',
        '2 actors, 1 event received, 4 state changes over 12.5 ms',
        '',
      ].join('\n'),
    );
  });

  it('formats a timeline longer than a call has room for arguments (300k state changes)', () => {
    const entries = Array.from({ length: 300_000 }, (_, index) => ({
      at: index,
      event: index === 299_999 ? 'the.longest.event' : 'tick',
      from: index === 0 ? null : 'a',
      to: 'a',
      status: 'active',
    }));
    const text = formatTimeline([
      {
        sessionId: 'x:0',
        actorId: 'x:0',
        machineId: 'm',
        parentId: null,
        phase: null,
        createdAt: 0,
        receivedEvents: entries.length,
        entries,
      },
    ]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(300_004);
    expect(lines[300_000]).toBe('  +299999.0 ms the.longest.event  a → a');
  });
});

describe('the phase of each controller', () => {
  const job = createMachine({ id: 'job', initial: 'working', states: { working: {} } });
  /** A stand-in controller: a root whose context names its phase, with one child. */
  const controller = setup({ actors: { job } }).createMachine({
    id: 'controller',
    context: ({ input }: { input: { phase: string } }) => ({ phase: { name: input.phase } }),
    invoke: { id: 'job', src: 'job' },
    initial: 'running',
    states: { running: { on: { stop: 'stopped' } }, stopped: { type: 'final' } },
  });

  it('names the phase of every root controller, and its children belong to it', () => {
    const file = path.join(folder, 'phases.jsonl');
    const recorder = createTraceRecorder(file);
    for (const phase of ['warmup', 'test']) {
      const actor = createActor(controller, { input: { phase }, inspect: recorder.inspect });
      actor.start();
      actor.send({ type: 'stop' });
    }
    // A root without a phase (a host app's own machine) has none.
    createActor(job, { inspect: recorder.inspect }).start();
    recorder.close();
    const records = parseTrace(readFileSync(file, 'utf8'), file);
    expect(
      records.filter((record) => record.phase !== null).every((record) => record.parentId === null),
    ).toBe(true);
    const timelines = buildTimeline(records);
    expect(
      timelines.map(({ actorId, machineId, phase }) => ({
        actorId: machineId === 'controller' ? 'controller' : actorId,
        phase,
      })),
    ).toEqual([
      { actorId: 'controller', phase: 'warmup' },
      { actorId: 'job', phase: 'warmup' },
      { actorId: 'controller', phase: 'test' },
      { actorId: 'job', phase: 'test' },
      { actorId: timelines[4]!.sessionId, phase: null },
    ]);
    const roots = formatTimeline(timelines)
      .split('\n')
      .filter((line) => line.endsWith('(root)'));
    expect(roots).toEqual([
      `${timelines[0]!.sessionId}  machine controller  phase warmup  (root)`,
      `${timelines[2]!.sessionId}  machine controller  phase test  (root)`,
      `${timelines[4]!.sessionId}  machine job  (root)`,
    ]);
  });

  it('reads a trace written before records had a phase', () => {
    const line = (fields: object) =>
      JSON.stringify({
        seq: 0,
        at: 0,
        sessionId: 'x:0',
        actorId: 'x:0',
        parentId: null,
        ...fields,
      });
    const old = [
      line({ type: '@xstate.actor', machineId: 'controller', rootId: 'x:0' }),
      line({
        type: '@xstate.snapshot',
        at: 1,
        rootId: 'x:0',
        event: { type: 'xstate.init' },
        snapshot: { status: 'active', value: 'idle', error: null },
      }),
    ].join('\n');
    const [timeline] = buildTimeline(parseTrace(old, 'old.jsonl'));
    expect(timeline?.phase).toBeNull();
    expect(formatTimeline(buildTimeline(parseTrace(old, 'old.jsonl'))).split('\n')[0]).toBe(
      'x:0  machine controller  (root)',
    );
  });
});
