import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createRng, type Rng } from '../../src/domain/shared/random.js';
import { readStore, runRecords } from './records.js';
import { scratchFolder } from './scratch.js';

/**
 * Fault trials with real `arena` processes, as a user or a tester makes them:
 * kills at random moments (during a resume too), Ctrl-C twice, two resumes of
 * one run at once, N runs writing one store at once. Each trial ends by
 * comparing the stored records with those of an uninterrupted run of the same
 * file. Used by test/e2e/faults.test.ts (a few tries) and by
 * scripts/fault-trials.ts (the table in the closing note).
 */

export interface TrialResult {
  readonly trial: string;
  readonly runFile: string;
  /** The records equal the uninterrupted run's, and every process ended as expected. */
  readonly identical: boolean;
  /** What went wrong, for the report. */
  readonly note: string;
  /** Interruptions that struck a live process (not one that had already ended). */
  readonly landed?: number;
  /** Of those, interruptions of a resume that had written episodes past where the process before it stopped. */
  readonly landedInProgressedResume?: number;
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

interface Arena {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
}

/** Start `arena` (the built CLI at `cli`) in `cwd`; its stdout is dropped so a full pipe never blocks it. */
export function startArena(cli: string, args: readonly string[], cwd: string): Arena {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<Exit>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exited };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function storeOf(cwd: string): string {
  return path.join(cwd, 'arena.db');
}

function recordsOf(cwd: string, runId: string) {
  return readStore(storeOf(cwd), (store) => ({
    records: runRecords(store, runId),
    status: store.getRun(runId).status,
  }));
}

function episodeCountOf(cwd: string, runId: string): number {
  return readStore(storeOf(cwd), (store) => store.episodes(runId).length);
}

function runIdsOf(cwd: string): string[] {
  try {
    return readStore(storeOf(cwd), (store) => store.listRuns().map((run) => run.runId));
  } catch {
    return [];
  }
}

/** An uninterrupted run's records, how long its process took, and how long it ran once stored. */
export interface ReferenceRun {
  readonly records: unknown;
  readonly durationMs: number;
  /** From the moment the run was in the store to the process's end (start-up left out). */
  readonly storedMs?: number;
}

/** The records of an uninterrupted run, and how long it took. */
export async function referenceRun(cli: string, runFile: string): Promise<ReferenceRun> {
  const cwd = scratchFolder('arena-fault-ref-');
  const started = performance.now();
  const arena = startArena(cli, ['run', runFile, '--store', `sqlite:${storeOf(cwd)}`], cwd);
  let exitedYet = false;
  void arena.exited.then(() => {
    exitedYet = true;
  });
  while (!exitedYet && runIdsOf(cwd).length === 0) await sleep(5);
  const storedAt = performance.now();
  const exit = await arena.exited;
  const ended = performance.now();
  if (exit.code !== 0) throw new Error(`the reference run failed: ${exit.stderr}`);
  const [runId] = runIdsOf(cwd);
  return {
    records: recordsOf(cwd, runId as string).records,
    durationMs: ended - started,
    storedMs: ended - storedAt,
  };
}

type Interrupt = 'SIGKILL' | 'SIGINT' | 'SIGTERM';

/** Start (or resume) a run and interrupt it after `delayMs`; the process's exit. */
async function interrupted(
  cli: string,
  args: readonly string[],
  cwd: string,
  signal: Interrupt,
  delayMs: number,
  startDelayWhen: () => boolean = () => true,
): Promise<Exit> {
  const arena = startArena(cli, args, cwd);
  let exitedYet = false;
  void arena.exited.then(() => {
    exitedYet = true;
  });
  // a new run: wait until it is stored, so there is a run to resume (a kill before that leaves none)
  if (args[1] !== '--resume') {
    while (!exitedYet && runIdsOf(cwd).length === 0) await sleep(5);
  }
  while (!exitedYet && !startDelayWhen()) await sleep(5);
  const timer = setTimeout(() => arena.child.kill(signal), delayMs);
  const exit = await arena.exited;
  clearTimeout(timer);
  return exit;
}

function statusOf(cwd: string, runId: string): string {
  return recordsOf(cwd, runId).status;
}

/** Resume until the run succeeds (a later resume after a refused one is what a user does). */
async function resumeToEnd(cli: string, cwd: string, runId: string): Promise<Exit> {
  return startArena(cli, ['run', '--resume', runId, '--store', `sqlite:${storeOf(cwd)}`], cwd)
    .exited;
}

function compare(
  trial: string,
  runFile: string,
  cwd: string,
  expected: unknown,
  last: Exit,
): TrialResult {
  const [runId] = runIdsOf(cwd);
  if (runId === undefined) return { trial, runFile, identical: false, note: 'no run stored' };
  const { records, status } = recordsOf(cwd, runId);
  const same = JSON.stringify(records) === JSON.stringify(expected);
  const ok = same && status === 'succeeded' && last.code === 0;
  const note = ok
    ? ''
    : `status ${status}, last exit ${last.code ?? last.signal}, records ${same ? 'equal' : 'differ'} ${last.stderr.trim().split('\n').at(-1) ?? ''}`;
  return { trial, runFile, identical: ok, note };
}

/**
 * Interrupt a run `interrupts` times at random moments, each interruption of
 * the run or of the resume before it, resuming after each; then resume to the
 * end and compare.
 */
export async function interruptedTrial(
  cli: string,
  runFile: string,
  reference: ReferenceRun,
  rng: Rng,
  options: { signal: Interrupt; interrupts: number },
): Promise<TrialResult> {
  const cwd = scratchFolder('arena-fault-');
  const store = `sqlite:${storeOf(cwd)}`;
  let runId: string | undefined;
  let landed = 0;
  let landedInProgressedResume = 0;
  for (let index = 0; index < options.interrupts; index++) {
    const args =
      runId === undefined
        ? ['run', runFile, '--store', store]
        : ['run', '--resume', runId, '--store', store];
    const resumedRunId = runId;
    const episodesBefore = resumedRunId === undefined ? 0 : episodeCountOf(cwd, resumedRunId);
    // half the resumes are interrupted only once they wrote new episodes, where the issue lost records
    const afterProgress = resumedRunId !== undefined && rng.uniform(0, 1) < 0.5;
    // a random moment inside what a whole run takes (start-up included), or soon after that progress
    const exit = await interrupted(
      cli,
      args,
      cwd,
      options.signal,
      // a new run is interrupted once stored, within the time it then runs
      resumedRunId === undefined
        ? rng.uniform(0, 0.9) * (reference.storedMs ?? reference.durationMs)
        : rng.uniform(0, afterProgress ? 0.3 : 0.8) * reference.durationMs,
      afterProgress
        ? () => episodeCountOf(cwd, resumedRunId as string) > episodesBefore
        : () => true,
    );
    // Ctrl-C and SIGTERM stop a run with exit 130; a SIGKILL shows as the signal
    const struck = options.signal === 'SIGKILL' ? exit.signal === 'SIGKILL' : exit.code === 130;
    if (struck) landed += 1;
    if (struck && runId !== undefined && episodeCountOf(cwd, runId) > episodesBefore) {
      landedInProgressedResume += 1;
    }
    runId ??= runIdsOf(cwd)[0];
    if (runId === undefined) break;
  }
  const finishedEarly: Exit = { code: 0, signal: null, stderr: '' };
  const last =
    runId === undefined
      ? await startArena(cli, ['run', runFile, '--store', store], cwd).exited
      : statusOf(cwd, runId) === 'succeeded'
        ? finishedEarly
        : await resumeToEnd(cli, cwd, runId);
  const name = `${options.signal} ×${options.interrupts}, --resume after each`;
  return {
    ...compare(name, runFile, cwd, reference.records, last),
    landed,
    landedInProgressedResume,
  };
}

/**
 * Kill a run, then start two resumes of it at once: exactly one may run it,
 * the other must refuse with exit 2 without touching it.
 */
export async function twoResumesTrial(
  cli: string,
  runFile: string,
  reference: ReferenceRun,
  rng: Rng,
): Promise<TrialResult> {
  const cwd = scratchFolder('arena-fault-');
  const store = `sqlite:${storeOf(cwd)}`;
  await interrupted(
    cli,
    ['run', runFile, '--store', store],
    cwd,
    'SIGKILL',
    rng.uniform(0, 0.6) * reference.durationMs,
  );
  const [runId] = runIdsOf(cwd);
  const trial = 'two --resume at once';
  if (runId === undefined) return { trial, runFile, identical: false, note: 'no run stored' };
  if (statusOf(cwd, runId) === 'succeeded') {
    // the kill came after the end: try again, earlier
    return twoResumesTrial(
      cli,
      runFile,
      { ...reference, durationMs: reference.durationMs * 0.8 },
      rng,
    );
  }
  const args = ['run', '--resume', runId, '--store', store];
  const first = startArena(cli, args, cwd);
  await sleep(rng.uniform(0, 40));
  const second = startArena(cli, args, cwd);
  const exits = await Promise.all([first.exited, second.exited]);
  const succeeded = exits.filter((exit) => exit.code === 0).length;
  const refused = exits.filter(
    // refused while the other runs it, or (when it came late) because the other already finished it
    (exit) => exit.code === 2 && /is being run by|already succeeded/.test(exit.stderr),
  ).length;
  const result = compare(
    trial,
    runFile,
    cwd,
    reference.records,
    exits.find((exit) => exit.code === 0) ?? (exits[0] as Exit),
  );
  if (succeeded === 1 && refused === 1) return result;
  return {
    ...result,
    identical: false,
    note: `${result.note} exits ${exits.map((exit) => exit.code).join('/')} (${exits.map((exit) => exit.stderr.trim().split('\n').at(-1)).join(' | ')})`,
  };
}

/** Start `writers` runs of the file on one store at once: every one must succeed with the solo records. */
export async function concurrentWritersTrial(
  cli: string,
  runFile: string,
  reference: ReferenceRun,
  writers: number,
): Promise<TrialResult> {
  const cwd = scratchFolder('arena-fault-');
  const store = `sqlite:${storeOf(cwd)}`;
  const exits = await Promise.all(
    Array.from(
      { length: writers },
      () => startArena(cli, ['run', runFile, '--store', store], cwd).exited,
    ),
  );
  const runIds = runIdsOf(cwd);
  const trial = `${writers} arena run on one store at once`;
  const failed = exits.filter((exit) => exit.code !== 0);
  const differing = runIds.filter((runId) => {
    const { records, status } = recordsOf(cwd, runId);
    return status !== 'succeeded' || JSON.stringify(records) !== JSON.stringify(reference.records);
  });
  const identical = failed.length === 0 && differing.length === 0 && runIds.length === writers;
  const note = identical
    ? ''
    : `${failed.length} failed (${failed.map((exit) => exit.stderr.trim().split('\n').at(-1)).join(' | ')}), ${differing.length} differ, ${runIds.length} runs stored`;
  return { trial, runFile, identical, note };
}

/** A seeded random source for trial moments. */
export function trialRng(seed: number): Rng {
  return createRng(seed);
}
