import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { storedVerdicts } from '../../actors/judging/evaluationRuns.js';
import type { FoldedResult } from '../../actors/judging/judgeInDrawOrder.js';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import { parseCaseLine } from '../../domain/judge/cases.js';
import type { JudgeContext } from '../../domain/judge/context.js';
import {
  type SequentialGateSpec,
  type SequentialGateState,
  sequentialGateMismatch,
  sequentialGateReports,
  sequentialGates,
} from '../../domain/judge/sequentialGate.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { gateWealth } from '../../domain/stats/bettingGate.js';
import { drawOrder, drawSeedOf } from '../../domain/stats/drawOrder.js';
import type {
  EvaluationRunRecord,
  JudgeStore,
  SequentialGateRecord,
} from '../../ports/store/judgeStore.js';
import { lineAt, lineStarts } from '../caseLineIndex.js';
import { CliError } from '../errors.js';
import { type CasesScan, caseLines, evaluationRunOf, scanCases } from './judgeCommandIo.js';
import type { AgreementReport } from './judgePanelReport.js';
import { sequentialCostLine, sequentialGateLine } from './sequentialGateText.js';

/** A cases file as the sequential gate draws from it: its scan, and the case at a file index, read when drawn. */
export interface DrawnCases {
  readonly scan: CasesScan;
  readonly caseAt: (fileIndex: number) => Promise<JudgeContext>;
}

/**
 * Index a cases file for drawing (eight bytes a line, never the text) and
 * read each case by its index in file order when it is drawn.
 */
export async function drawnCases(
  file: FileHandle,
  casesPath: string,
  defaultRunId: string,
): Promise<DrawnCases> {
  const scan = await scanCases(file, defaultRunId, casesPath);
  if (scan.cases === 0) {
    throw new CliError(`${casesPath}: no case to judge: the sequential gate needs at least one`);
  }
  const starts = await lineStarts(file);
  const lineOfCase = new Uint32Array(scan.cases);
  let line = 0;
  let found = 0;
  for await (const outcome of caseLines(file, defaultRunId, casesPath)) {
    line++;
    if (outcome.kind === 'case') lineOfCase[found++] = line;
  }
  const caseAt = async (fileIndex: number): Promise<JudgeContext> => {
    const at = lineOfCase[fileIndex]!;
    const outcome = parseCaseLine(await lineAt(file, starts, at), at, defaultRunId);
    if (outcome.kind !== 'case') {
      throw new CliError(`${casesPath}:${at}: the file changed while it was judged`);
    }
    return outcome.context;
  };
  return { scan, caseAt };
}

/**
 * The digest a store keeps of a draw order (`order[i]` as 32-bit
 * little-endian integers), so a resume proves it draws the same order.
 *
 * @example
 * ```ts
 * drawOrderSha256(drawOrder(5, 7)); // '…64 hex digits…'
 * ```
 */
export function drawOrderSha256(order: Uint32Array): string {
  const bytes = Buffer.alloc(order.length * 4);
  for (let i = 0; i < order.length; i++) bytes.writeUInt32LE(order[i]!, i * 4);
  return createHash('sha256').update(bytes).digest('hex');
}

/** A sequential evaluation run, created or resumed from the store. */
export interface SequentialRun {
  readonly run: EvaluationRunRecord;
  readonly order: Uint32Array;
  /** The fold state to continue from. */
  readonly state: SequentialGateState;
  /** The verdicts the run holds already (a resumed run's), by case key: folded from here, never judged again. */
  readonly known: Map<string, FoldedResult>;
  /** The last verdict read into `known` (its `seq`; 0 when none). */
  readonly lastSeq: number;
}

/** What creating or resuming a sequential evaluation run needs. */
export interface SequentialRunInput {
  readonly judgeName: string;
  readonly config: JudgeConfig;
  /** Where the config file is: its relative paths are read from there. */
  readonly baseDir: string;
  readonly casesPath: string;
  readonly casesSha256: string;
  readonly cache: boolean;
  readonly cases: number;
  readonly gates: { readonly alpha: number; readonly specs: readonly SequentialGateSpec[] };
  /** `--seed`, if given. */
  readonly seed: number | undefined;
  /** The cases' default evaluation run id: the seed's default comes from it. */
  readonly defaultRunId: string;
  /** `--resume <id>`: the stored run to continue. */
  readonly resume: string | undefined;
}

/**
 * Create a sequential evaluation run in the store, its draw order and fresh
 * gates saved before the first case is judged; or, with `resume`, read one
 * back: the same file, judge and gates, its order and fold state as saved,
 * and the verdicts it holds.
 *
 * @throws CliError (exit 2) when the run to resume is not this file's, judge's or gates', or has no sequential gate.
 */
export async function openSequentialRun(
  store: JudgeStore,
  input: SequentialRunInput,
): Promise<SequentialRun> {
  if (input.resume === undefined) {
    const seed = input.seed ?? drawSeedOf(input.defaultRunId);
    const order = drawOrder(input.cases, seed);
    const state = sequentialGates(input.gates.specs, {
      alpha: input.gates.alpha,
      total: input.cases,
      seed,
    });
    const run = await store.createEvaluationRun(
      evaluationRunOf(input.judgeName, input, input.casesPath, input.casesSha256, input.cache),
    );
    await store.saveSequentialGate(gateRecordOf(run.evaluationRunId, order, state, 0));
    return { run, order, state, known: new Map(), lastSeq: 0 };
  }
  const run = await store.getEvaluationRun(input.resume).catch((error: unknown) => {
    throw new CliError(`--resume ${input.resume}: ${(error as Error).message}`);
  });
  const refuse = (why: string): never => {
    throw new CliError(`--resume ${run.evaluationRunId}: ${why}`);
  };
  if (run.casesSha256 !== input.casesSha256) {
    refuse(`it judged ${run.casesFile} as it was then, and ${input.casesPath} is not that file`);
  }
  if (run.judgeName !== input.judgeName) {
    refuse(`it was judged with ${run.judgeName}, not ${input.judgeName}`);
  }
  const gate = await store.sequentialGateOf(run.evaluationRunId);
  if (gate === null) refuse('it has no sequential gate (it was not judged with gates.sequential)');
  const stored = (gate as SequentialGateRecord).state as unknown as SequentialGateState;
  if (input.seed !== undefined && input.seed !== stored.seed) {
    refuse(`it draws with seed ${stored.seed}, not --seed ${input.seed}`);
  }
  const order = drawOrder(input.cases, stored.seed);
  if (drawOrderSha256(order) !== (gate as SequentialGateRecord).orderSha256) {
    refuse('this arena draws its cases in another order than the one it recorded');
  }
  const fresh = sequentialGates(input.gates.specs, {
    alpha: input.gates.alpha,
    total: input.cases,
    seed: stored.seed,
  });
  const mismatch = sequentialGateMismatch(stored, fresh);
  if (mismatch !== null) refuse(`its sequential gate has ${mismatch} (the config's)`);
  if (run.status === 'cancelled' || run.status === 'failed') {
    refuse(`it ${run.status === 'failed' ? `failed (${run.error})` : 'was cancelled'}`);
  }
  const known = new Map<string, FoldedResult>();
  let lastSeq = 0;
  for await (const verdict of storedVerdicts(store, run.evaluationRunId)) {
    known.set(verdict.caseKey, { status: verdict.result.status, score: verdict.result.score });
    lastSeq = verdict.seq;
  }
  return { run, order, state: stored, known, lastSeq };
}

/** The record a store keeps of a run's gate: its order and the state after `judged` judgements. */
export function gateRecordOf(
  evaluationRunId: string,
  order: Uint32Array,
  state: SequentialGateState,
  judged: number,
) {
  return {
    evaluationRunId,
    seed: state.seed,
    total: state.total,
    orderSha256: drawOrderSha256(order),
    folded: state.folded,
    state: state as unknown as JsonValue,
    decision: state.decision,
    decidedAt: state.decidedAt,
    judged,
  };
}

/**
 * The progress bar's note while folding: the larger wealth against 1/alpha.
 *
 * @example
 * ```ts
 * wealthProgress(state); // 'wealth 3.2/20'
 * ```
 */
export function wealthProgress(state: SequentialGateState): string {
  const wealth = Math.max(...state.tracks.map((track) => gateWealth(track.test)));
  return `wealth ${wealth.toFixed(1)}/${Number((1 / state.alpha).toFixed(2))}`;
}

/**
 * Saves the latest fold state, one save at a time: a state pushed while one
 * is being saved waits, and only the newest waiting one is written. `flush`
 * waits for the last and rethrows a save's failure.
 */
export function latestStateSaver(save: (state: SequentialGateState) => Promise<unknown>): {
  push(state: SequentialGateState): void;
  flush(): Promise<void>;
} {
  let waiting: SequentialGateState | null = null;
  let saving: Promise<void> | null = null;
  let failure: unknown = null;
  const drain = async (): Promise<void> => {
    while (waiting !== null && failure === null) {
      const state = waiting;
      waiting = null;
      await save(state).catch((error: unknown) => {
        failure ??= error;
      });
    }
    saving = null;
  };
  return {
    push(state) {
      waiting = state;
      saving ??= drain();
    },
    async flush() {
      while (saving !== null) await saving;
      if (failure !== null) throw failure;
    },
  };
}

/**
 * What `arena judge` reports of its sequential gates: a line per gate, the
 * cost line, `sequential` in `--json`, the failed gates; and the config
 * without the gates they decided (the summary must not apply them again).
 */
export function sequentialReport(
  state: SequentialGateState,
  judged: number,
  config: JudgeConfig,
): { readonly config: JudgeConfig; readonly report: AgreementReport } {
  const reports = sequentialGateReports(state);
  const deciding = reports.find((report) => report.decision === 'fail') ?? reports[0]!;
  const failedGates = reports
    .filter((report) => report.decision === 'fail')
    .map(
      (report) =>
        `${report.gate} ${report.threshold} failed by the sequential gate after ${report.decidedAt} of ${state.total} cases`,
    );
  const { min_pass_rate: _rate, min_mean_score: _score, ...otherGates } = config.gates;
  return {
    config: { ...config, gates: otherGates },
    report: {
      lines: [
        ...reports.map((report) => sequentialGateLine(report, state)),
        sequentialCostLine(state, judged),
      ],
      json: {
        sequential: {
          decision: state.decision,
          judged,
          decidedAt: state.decidedAt,
          total: state.total,
          wealth: deciding.wealth,
          seed: state.seed,
          alpha: state.alpha,
          confidenceSequence: deciding.confidenceSequence,
          gates: reports,
        },
      },
      failedGates,
    },
  };
}
