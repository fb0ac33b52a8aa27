import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActorTimeline } from '../../src/actors/inspection/inspection.js';
import { runArena } from '../support/cli.js';

let folder: string;
let traceFile: string;
let run: Awaited<ReturnType<typeof runArena>>;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-trace-e2e-'));
  traceFile = path.join(folder, 'run.trace.jsonl');
  run = await runArena([
    'run',
    'test/fixtures/inspect/short-run.yaml',
    '--store',
    `sqlite:${path.join(folder, 'arena.db')}`,
    '--trace',
    traceFile,
  ]);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('arena run --trace and arena trace', () => {
  it('records every inspection event of the run as JSON lines', () => {
    expect(run.code).toBe(0);
    const lines = readFileSync(traceFile, 'utf8').trimEnd().split('\n');
    expect(run.stderr).toContain(
      `arena: trace of ${lines.length} inspection events in ${traceFile} (see it with: arena trace ${traceFile})`,
    );
    const records = lines.map((line) => JSON.parse(line));
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index));
    const types = new Set(records.map((record) => record.type));
    expect([...types].sort()).toEqual([
      '@xstate.action',
      '@xstate.actor',
      '@xstate.event',
      '@xstate.microstep',
      '@xstate.snapshot',
    ]);
    const machines = new Set(records.map((record) => record.machineId));
    expect(machines).toContain('simulationController');
    expect(machines).toContain('evaluationTermination');
  });

  it('replays the trace as per-actor state changes, as JSON', async () => {
    const { code, stdout, stderr } = await runArena(['trace', traceFile, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const timelines: ActorTimeline[] = JSON.parse(stdout);
    const controller = timelines[0]!;
    expect(controller).toMatchObject({
      machineId: 'simulationController',
      parentId: null,
      phase: 'train',
    });
    expect(controller.entries[0]).toMatchObject({ event: 'xstate.init', from: null, to: 'idle' });
    expect(controller.entries.at(-1)).toMatchObject({ to: 'stopped', status: 'done' });
    const termination = timelines.find(
      (timeline) => timeline.machineId === 'evaluationTermination',
    )!;
    expect(termination.parentId).toBe(controller.sessionId);
    expect(termination.entries.map(({ event, to, status }) => ({ event, to, status }))).toEqual([
      { event: 'xstate.init', to: 'active', status: 'active' },
      { event: 'episode.ended', to: 'maxEpisodes', status: 'done' },
    ]);
    const offsets = controller.entries.map((entry) => entry.at);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('prints the same timeline as readable text', async () => {
    const { code, stdout } = await runArena(['trace', traceFile]);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('x:0  machine simulationController  phase train  (root)');
    expect(lines[1]).toMatch(/^ {2}\+\d+\.\d ms +xstate\.init +→ idle$/);
    expect(stdout).toMatch(
      /termination {2}machine evaluationTermination {2}session x:\d+ {2}parent x:0\n/,
    );
    expect(stdout).toMatch(/episode\.ended +active → maxEpisodes \(done\)\n/);
    expect(lines.at(-2)).toMatch(
      /^\d+ actors, \d+ events received, \d+ state changes over \d+\.\d ms$/,
    );
  });

  it('names the phase each controller runs, and the phase of every actor under it', async () => {
    const twoPhases = path.join(folder, 'two-phases.trace.jsonl');
    const recorded = await runArena([
      'run',
      'test/fixtures/inspect/two-phases.yaml',
      '--store',
      `sqlite:${path.join(folder, 'two-phases.db')}`,
      '--trace',
      twoPhases,
    ]);
    expect(recorded.code).toBe(0);
    const text = await runArena(['trace', twoPhases]);
    expect(text.code).toBe(0);
    const roots = text.stdout.split('\n').filter((line) => line.endsWith('(root)'));
    expect(roots).toEqual([
      expect.stringMatching(/^x:\d+ {2}machine simulationController {2}phase warmup {2}\(root\)$/),
      expect.stringMatching(/^x:\d+ {2}machine simulationController {2}phase test {2}\(root\)$/),
    ]);
    const timelines: ActorTimeline[] = JSON.parse(
      (await runArena(['trace', twoPhases, '--json'])).stdout,
    );
    const controllers = timelines.filter((timeline) => timeline.parentId === null);
    expect(controllers.map((timeline) => timeline.phase)).toEqual(['warmup', 'test']);
    for (const timeline of timelines) {
      expect(['warmup', 'test']).toContain(timeline.phase);
    }
    const terminations = timelines.filter(
      (timeline) => timeline.machineId === 'evaluationTermination',
    );
    expect(terminations.map(({ parentId, phase }) => ({ parentId, phase }))).toEqual([
      { parentId: controllers[0]!.sessionId, phase: 'warmup' },
      { parentId: controllers[1]!.sessionId, phase: 'test' },
    ]);
  });

  it('names the file and line of a bad trace, exit code 2', async () => {
    const bad = path.join(folder, 'bad.jsonl');
    writeFileSync(bad, '{"seq":0,"at":0,"type":"@xstate.actor","sessionId":"x:0"}\nnot json\n');
    const { code, stdout, stderr } = await runArena(['trace', bad]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(`^arena: ${bad.replaceAll('.', '\\.')}:2: invalid JSON: .+\\n$`),
    );
    const missing = await runArena(['trace', path.join(folder, 'none.jsonl')]);
    expect(missing.stderr).toBe(
      `arena: cannot read ${path.join(folder, 'none.jsonl')}: no such file\n`,
    );
  });

  it('refuses a trace file it cannot write before the run starts', async () => {
    const target = path.join(folder, 'missing-dir', 'trace.jsonl');
    const { code, stdout, stderr } = await runArena([
      'run',
      'test/fixtures/inspect/short-run.yaml',
      '--store',
      `sqlite:${path.join(folder, 'refused.db')}`,
      '--trace',
      target,
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`arena: --trace ${target}: cannot write the file (ENOENT)\n`);
  });
});
