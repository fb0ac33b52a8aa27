import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { runExperiment } from '../../../src/actors/experiment/runExperiment.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { simulationControllerMachine } from '../../../src/machines/simulationController.js';
import { fixedClock } from '../../../src/ports/runtime/clock.js';
import { createMemoryStore } from '../../../src/ports/store/memory/memoryStore.js';
import { openSqliteStore } from '../../../src/ports/store/sqlite/sqliteStore.js';
import type { RunStore } from '../../../src/ports/store/store.js';
import { dyingStore } from '../../support/dyingStore.js';
import {
  fakeBuiltins,
  LineEnvironment,
  resetFakes,
  ScriptedBrain,
} from '../../support/fakeComponents.js';
import { runRecords } from '../../support/records.js';
import { type LineRunOptions, lineRunFile } from './runs.js';

async function run(options: LineRunOptions, store: RunStore = createMemoryStore()) {
  const text = lineRunFile({ meta: true, ...options });
  const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
  const summary = await runExperiment(spec, { store, builtins: fakeBuiltins, runFileText: text });
  return { store, summary, runId: summary.runId };
}

const count = (entry: string) => LineEnvironment.log.filter((each) => each === entry).length;
const designer = () => ScriptedBrain.instances.find((brain) => brain.name === 'designer');

beforeEach(() => resetFakes());

describe('the repeated meta loop', () => {
  it('reruns the meta turn exactly every `every` episodes, each decision in a world of its own', async () => {
    const { store, runId, summary } = await run({
      episodes: 7,
      metaEvery: 2,
      condition: 'none',
      evaluateEvery: 100,
      designer: '{ action: random }',
    });
    expect(summary.status).toBe('succeeded');
    // decisions before episodes 1, 3, 5 and 7; in-place resets between them
    expect(designer()?.acts).toBe(4);
    expect(count('line.start')).toBe(4);
    expect(count('line.reset')).toBe(3);
    const decisions = store.metaDecisions(runId);
    expect(decisions.map((decision) => [decision.startRequest, decision.firstEpisode])).toEqual([
      [1, 1],
      [2, 3],
      [3, 5],
      [4, 7],
    ]);
    // each decision is its own ScenarioDecisionRecord, and its candidate is the world that ran
    const candidates = decisions.map(
      (decision) => (decision.record as { candidate: Record<string, number> }).candidate,
    );
    expect(new Set(candidates.map((candidate) => JSON.stringify(candidate))).size).toBe(4);
    for (const decision of decisions) {
      const record = decision.record as { record: { decisionId?: string; toRevision?: string } };
      expect(record.record).toBeDefined();
    }
    expect(summary.phases[0]?.metaDecision?.candidate).toEqual(candidates[3]);
    // the summary lists the decisions against the episodes each world ran
    expect(
      summary.phases[0]?.metaLoop?.map(({ firstEpisode, episodes, candidate }) => ({
        firstEpisode,
        episodes,
        candidate,
      })),
    ).toEqual(
      [1, 3, 5, 7].map((firstEpisode, index) => ({
        firstEpisode,
        episodes: index < 3 ? 2 : 1,
        candidate: candidates[index],
      })),
    );
  });

  it('closes the operating world before each new decision and sets the meta agent up again', async () => {
    await run({ episodes: 4, metaEvery: 2, condition: 'none', evaluateEvery: 100 });
    const log = LineEnvironment.log.filter((entry) =>
      ['line.start', 'line.close', 'designer.setup', 'line.reset'].includes(entry),
    );
    expect(log).toEqual([
      'designer.setup',
      'line.start',
      'line.reset',
      'line.close',
      'designer.setup',
      'line.start',
      'line.reset',
      'line.close',
    ]);
  });

  it('never reruns the meta turn on other restarts: evaluation episodes and in-place resets between decisions', async () => {
    const { store, runId } = await run({
      episodes: 6,
      metaEvery: 3,
      evaluateEvery: 2,
      condition: 'none',
    });
    // ordinals: 1, 2, eval 3, 4 | decision | 5, eval 6, 7, 8, eval 9
    expect(store.metaDecisions(runId).map((decision) => decision.firstEpisode)).toEqual([1, 5]);
    expect(designer()?.acts).toBe(2);
  });

  it('without every, runs the seed one-shot profile: one decision, one world', async () => {
    const { store, runId, summary } = await run({
      episodes: 6,
      condition: 'none',
      evaluateEvery: 2,
    });
    expect(store.metaDecisions(runId)).toHaveLength(1);
    expect(Object.keys(summary.phases[0] ?? {})).not.toContain('metaLoop');
    expect(count('line.start')).toBe(1);
    expect(designer()?.acts).toBe(1);
  });

  it('keeps the evaluation-termination machine running across decisions: a success streak spans one', async () => {
    const { store, runId, summary } = await run({
      episodes: 10,
      metaEvery: 2,
      evaluateEvery: 1,
      metrics: [0.1, 0.9, 0.9],
    });
    // checkpoints after training episodes 1, 2 | decision | 3: the streak of two crosses the decision
    expect(summary.phases[0]?.reason).toBe('success');
    expect(store.checkpoints(runId).map((checkpoint) => checkpoint.checkpointIndex)).toEqual([
      0, 1, 2,
    ]);
    expect(store.metaDecisions(runId)).toHaveLength(2);
  });

  it('carries the operating learning over by default; learning: reset restarts it when the candidate changes, not when it stays', async () => {
    const objectives = async (options: LineRunOptions) => {
      resetFakes();
      const { store, runId } = await run({
        episodes: 6,
        metaEvery: 2,
        evaluateEvery: 1,
        // below the success threshold (0.8): the rules never stop the phase
        metrics: [0.1, 0.5, 0.7],
        ...options,
      });
      // the operator's evaluation metrics are scripted by its evaluation count: its learning state
      return store
        .checkpoints(runId)
        .map(
          (checkpoint) =>
            (checkpoint.outcomes as { metrics: { objective: number } }[])[0]?.metrics.objective,
        );
    };
    // the designer's candidates: 0.25, 0.5, 0.5 (decisions before episodes 1, 3 and 5)
    const designer = '{ actions: [0.25, 0.5, 0.5] }';
    expect(await objectives({ designer })).toEqual([0.1, 0.5, 0.7, 0.7, 0.7, 0.7]);
    expect(await objectives({ designer, metaLearning: 'carry_over' })).toEqual([
      0.1, 0.5, 0.7, 0.7, 0.7, 0.7,
    ]);
    // a new candidate (0.5) starts the operator again; the same candidate again keeps learning
    expect(await objectives({ designer, metaLearning: 'reset' })).toEqual([
      0.1, 0.5, 0.1, 0.5, 0.7, 0.7,
    ]);
  });

  it('fails the phase when a new decision fails its checks, before any new world exists', async () => {
    // the second decision is out of the definition bounds: the patch check rejects it
    const { summary, store, runId } = await run({
      episodes: 6,
      metaEvery: 2,
      condition: 'none',
      evaluateEvery: 100,
      designer: '{ actions: [0.25, 99] }',
    });
    expect(summary.status).toBe('failed');
    expect(summary.phases[0]?.status).toBe('failed');
    expect(summary.phases[0]?.episodes).toBe(2);
    const stored = store.phases(runId)[0];
    expect(stored?.error).toMatch(/meta turn failed at proposingPatch: .*99 is not in/);
    expect(store.metaDecisions(runId)).toHaveLength(1);
    // the old world closed, the meta agent acted, and no world was started from the failed decision
    const log = LineEnvironment.log;
    const closed = log.indexOf('line.close');
    expect(closed).toBeGreaterThan(-1);
    expect(log.slice(closed).filter((entry) => entry === 'line.start')).toHaveLength(0);
    expect(designer()?.acts).toBe(2);
  });
});

describe('the repeated meta loop without barrier pauses (the machine embedded on its own)', () => {
  it('goes from the barrier straight back into the meta turn when one is due', async () => {
    const calls: string[] = [];
    let decisions = 0;
    const machine = simulationControllerMachine.provide({
      actors: {
        // stand-ins for the live world: the chart, not the world, is under test
        metaTurn: fromPromise(async ({ input }: { input: { decidedAt: string } }) => {
          calls.push(`decide at ${input.decidedAt}`);
          decisions += 1;
          return {
            status: 'done' as const,
            environmentUid: 'env',
            override: { env: { size: decisions } },
            candidate: null,
            decision: null,
            agentInterface: null,
            failedStep: null,
            error: null,
          };
        }) as never,
        setUpWorld: fromPromise(
          async ({ input }: { input: { params: Record<string, unknown> } }) => {
            calls.push(`setUp ${JSON.stringify(input.params)}`);
            return undefined;
          },
        ) as never,
        closeWorld: fromPromise(async () => {
          calls.push('close');
          return { closedAt: `2026-12-01T00:00:0${decisions}.000Z` };
        }),
        runEpisode: fromPromise(async () => {
          calls.push('episode');
          return { steps: 1, returnsByAgent: { agent: 1 }, environmentDone: false };
        }) as never,
        endEpisode: fromPromise(async () => {}),
        resetWorld: fromPromise(async () => {
          calls.push('reset');
        }),
      },
    });
    const actor = createActor(machine, {
      input: {
        phase: {
          name: 'train',
          index: 0,
          mode: 'train',
          episodes: 5,
          evaluateEvery: null,
          maxSteps: 1,
        },
        script: {
          profile: 'meta',
          metaAgent: 'designer',
          operatingAgent: 'agent',
          definitionEnvironment: 'env',
          loopAgents: ['agent'],
          metaEvery: 2,
        },
        environmentConfigurations: { env: { size: 0 } },
        termination: null,
      },
    });
    actor.start();
    actor.send({ type: 'start' });
    const output = await toPromise(actor);
    expect(output).toMatchObject({ status: 'stopped', reason: 'max_episodes', episodes: 5 });
    // a repeated decision is an internal start request of its own, made when the world closed
    expect(calls).toEqual([
      'decide at 1970-01-01T00:00:00.000Z',
      'setUp {"env":{"size":1}}',
      'episode',
      'reset',
      'episode',
      'close',
      'decide at 2026-12-01T00:00:01.000Z',
      'setUp {"env":{"size":2}}',
      'episode',
      'reset',
      'episode',
      'close',
      'decide at 2026-12-01T00:00:02.000Z',
      'setUp {"env":{"size":3}}',
      'episode',
    ]);
  });
});

describe('the repeated meta loop, inspected', () => {
  it('shows the inspector the controller going from the barrier through closingWorld back into the meta turn', async () => {
    const text = lineRunFile({
      meta: true,
      episodes: 4,
      metaEvery: 2,
      condition: 'none',
      evaluateEvery: 100,
    });
    const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
    const states: string[] = [];
    await runExperiment(spec, {
      store: createMemoryStore(),
      builtins: fakeBuiltins,
      runFileText: text,
      inspect: (event) => {
        if (event.type !== '@xstate.snapshot' || event.actorRef.sessionId !== event.rootId) return;
        const value = (event.snapshot as { value?: unknown }).value;
        const inner = (value as { simulating?: unknown } | undefined)?.simulating;
        const name = typeof inner === 'string' ? inner : JSON.stringify(inner ?? value);
        if (states.at(-1) !== name) states.push(name);
      },
    });
    const decisions = states.filter((state) => state === 'metaTurn');
    expect(decisions).toHaveLength(2);
    const loop = states.indexOf('closingWorld');
    expect(states.slice(loop - 1, loop + 3)).toEqual([
      JSON.stringify({ episodeBarrier: 'paused' }),
      'closingWorld',
      'metaTurn',
      'settingUp',
    ]);
  });
});

describe('resume around a repeated decision', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'arena-meta-loop-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const options: LineRunOptions = {
    episodes: 6,
    metaEvery: 2,
    metaLearning: 'reset',
    evaluateEvery: 1,
    metrics: [0.1, 0.4, 0.6, 0.9, 0.95],
    designer: '{ action: random }',
    plateau: true,
    success: false,
  };

  it('a kill at any store write, then --resume, ends with the records of an uninterrupted run, resumed from the barriers right before and after each new decision too', async () => {
    const referenceStore = createMemoryStore();
    const reference = await run(options, referenceStore);
    const expected = runRecords(referenceStore, reference.runId);
    expect(expected.metaDecisions.length).toBeGreaterThan(1);
    const text = lineRunFile({ meta: true, ...options });
    const spec = parseRunFile(text, { sourcePath: '/virtual/line.yaml' });
    const leaseTtlMs = 600_000;
    let kills = 0;
    const resumedFrom = new Set<number>();
    for (let atWrite = 1; ; atWrite++) {
      const file = path.join(folder, `kill-${atWrite}.db`);
      const clock = fixedClock(new Date('2026-12-01T00:00:00Z'));
      resetFakes();
      const handle = openSqliteStore(file, { clock });
      const dying = dyingStore(handle, atWrite);
      const first = await runExperiment(spec, {
        store: dying,
        builtins: fakeBuiltins,
        runFileText: text,
        leaseTtlMs,
        batching: { maxBatch: 1, maxDelayMs: 60_000 },
      }).catch(() => null);
      const runId = handle.listRuns()[0]?.runId;
      handle.close();
      if (first !== null) break; // the kill point lies past the run's last write
      kills++;
      if (runId === undefined) continue;
      clock.advance(leaseTtlMs + 1);
      resetFakes();
      const store = openSqliteStore(file, { clock });
      const stored = store.getRun(runId);
      if (stored.status !== 'succeeded') {
        const resumed = await runExperiment(spec, {
          store,
          builtins: fakeBuiltins,
          runFileText: text,
          leaseTtlMs,
          resumeRunId: runId,
        });
        expect(resumed.status).toBe('succeeded');
        for (const resume of store.resumes(runId)) resumedFrom.add(resume.episode);
      }
      expect({ atWrite, records: runRecords(store, runId) }).toEqual({
        atWrite,
        records: expected,
      });
      store.close();
    }
    // the kill struck at every write of the run: before, during and after each decision
    expect(kills).toBeGreaterThan(20);
    // resumed from the barrier right before each new decision and from the first one after it
    for (const decision of expected.metaDecisions.slice(1)) {
      const before = decision.firstEpisode - 1;
      // the first barrier of the new world: its first episode, and the evaluation episode after it
      let after = decision.firstEpisode;
      while (expected.episodes.find((episode) => episode.episode === after + 1)?.evaluation) {
        after += 1;
      }
      expect(resumedFrom).toContain(before);
      expect(resumedFrom).toContain(after);
    }
  });
});
