/**
 * The sequential gate (gates.sequential): what it saves and what it costs.
 *
 * 1. The share of a 10,000-case file judged before the gate `min_pass_rate
 *    0.8` (alpha 0.05) decides, at true pass rates 0.95, 0.9, 0.85, 0.75, 0.7:
 *    the median over 20 seeds of the draw order (each file has exactly that
 *    pass rate), folded by the same `foldSequentialGates` as `arena judge`
 *    (betting test and 95% confidence sequence). Beside each: the oracle
 *    `log(1/alpha) / KL(p || 0.8)` (the expected cases of a test that knew
 *    the true rate; no test does better on average), and the target: at most
 *    three times the oracle, as a share of the file.
 * 2. The fold's extra CPU per judgement: `arena judge`'s in-process judging
 *    (the replay judge of examples/judge/sequential.yaml, an XState actor per
 *    judgement) of the 1000 sums read as an async iterable, with the plain
 *    summary fold (`judgeMany`, as `arena judge` without the gate) against the draw-order judging with the summary and the sequential fold
 *    (`judgeInDrawOrder`, a gate that does not decide before the end), CPU
 *    time per judgement (process.cpuUsage), rounds alternated, best of 7 (4 passes over the cases each)
 *    each. Target: under 2% extra.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { judgeFromConfig } from '../src/actors/judging/judgeFromConfig.js';
import { judgeInDrawOrder } from '../src/actors/judging/judgeInDrawOrder.js';
import { judgeMany } from '../src/actors/judging/judgeMany.js';
import { loadJudgeConfig } from '../src/config/judgeConfig.js';
import { parseCaseLine } from '../src/domain/judge/cases.js';
import type { JudgeContext } from '../src/domain/judge/context.js';
import {
  foldSequentialGates,
  type SequentialGateState,
  sequentialGates,
} from '../src/domain/judge/sequentialGate.js';
import { judgeSummaryAccumulator } from '../src/domain/judge/summary.js';
import { drawOrder } from '../src/domain/stats/drawOrder.js';

const TOTAL = 10_000;
const THRESHOLD = 0.8;
const ALPHA = 0.05;
const SEEDS = 20;
/** Judging rounds of each kind, alternated, and passes over the 1000 cases in each. */
const ROUNDS = 7;
const PASSES = 4;

function klBernoulli(p: number, q: number): number {
  return p * Math.log(p / q) + (1 - p) * Math.log((1 - p) / (1 - q));
}

function decidedShare(rate: number, seed: number): { share: number; decision: string } {
  const passes = Math.round(rate * TOTAL);
  const order = drawOrder(TOTAL, seed);
  let state: SequentialGateState = sequentialGates(
    [{ gate: 'min_pass_rate', threshold: THRESHOLD }],
    {
      alpha: ALPHA,
      total: TOTAL,
      seed,
    },
  );
  for (let i = 0; i < TOTAL && state.decision === null; i++) {
    // case k of the file passes when k < passes: the draw order shuffles them
    const passed = order[i]! < passes;
    state = foldSequentialGates(state, {
      status: passed ? 'passed' : 'failed',
      score: passed ? 1 : 0,
    });
  }
  return { share: state.decidedAt! / TOTAL, decision: state.decision! };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? sorted[Math.floor(middle)]!
    : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const percent = (value: number): string => `${(100 * value).toFixed(2)}%`;

console.log(
  `share of ${TOTAL} cases judged before min_pass_rate ${THRESHOLD} is decided (alpha ${ALPHA}), median of ${SEEDS} seeds:`,
);
console.log('  true rate  decision  judged (median)  saved   oracle   target (<= 3x oracle)');
let missed = 0;
for (const rate of [0.95, 0.9, 0.85, 0.75, 0.7]) {
  const runs = Array.from({ length: SEEDS }, (_, seed) => decidedShare(rate, seed + 1));
  const share = median(runs.map((run) => run.share));
  const decisions = new Set(runs.map((run) => run.decision));
  const oracle = Math.log(1 / ALPHA) / klBernoulli(rate, THRESHOLD) / TOTAL;
  const ok = share <= 3 * oracle;
  if (!ok) missed++;
  console.log(
    `  ${rate.toFixed(2)}       ${[...decisions].join('/').toUpperCase().padEnd(8)}  ${percent(share).padStart(7)}          ${percent(1 - share).padStart(6)}  ${percent(oracle).padStart(6)}   <= ${percent(3 * oracle)} ${ok ? 'ok' : 'MISSED'}`,
  );
}

// 2. CPU per judgement, plain judging and summary against draw-order judging with the sequential fold
const configPath = path.resolve(import.meta.dirname, '../examples/judge/sequential.yaml');
const { config, baseDir } = loadJudgeConfig(configPath);
const judge = await judgeFromConfig(config, { baseDir, maxConnections: 8 });
const cases: JudgeContext[] = readFileSync(path.join(baseDir, 'sums.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((text, index) => {
    const outcome = parseCaseLine(text, index + 1, 'bench');
    if (outcome.kind !== 'case') throw new Error(`line ${index + 1} is not a case`);
    return outcome.context;
  });

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** The cases as `arena judge` reads them: an async iterable, pulled as slots free up. */
async function* casesRead(): AsyncGenerator<JudgeContext> {
  for (const context of cases) yield context;
}

async function plainRound(): Promise<number> {
  const summary = judgeSummaryAccumulator();
  const started = cpuMicros();
  for (let pass = 0; pass < PASSES; pass++) {
    await new Promise<void>((resolve, reject) =>
      judgeMany(casesRead(), judge, { concurrency: 8 }).subscribe({
        next: (result) => summary.add(result),
        error: reject,
        complete: resolve,
      }),
    );
  }
  return (cpuMicros() - started) / (PASSES * cases.length);
}

async function sequentialRound(): Promise<number> {
  const summary = judgeSummaryAccumulator();
  const order = drawOrder(cases.length, 5);
  // a threshold at the file's own rate and a tiny alpha: it decides only when the cases settle it exactly
  let state = sequentialGates([{ gate: 'min_pass_rate', threshold: 0.93 }], {
    alpha: 1e-12,
    total: cases.length,
    seed: 5,
  });
  const started = cpuMicros();
  let judged = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    state = sequentialGates(
      state.tracks.map((track) => track.spec),
      { alpha: 1e-12, total: cases.length, seed: 5 },
    );
    const outcome = await judgeInDrawOrder(judge, {
      order,
      caseAt: async (index) => cases[index]!,
      concurrency: 8,
      aheadLimit: 32,
      onJudged: (result) => summary.add(result),
      fold: (result) => {
        state = foldSequentialGates(state, result);
        return state.decision !== null;
      },
    });
    judged += outcome.judged;
  }
  return (cpuMicros() - started) / judged;
}

const plain: number[] = [];
const sequential: number[] = [];
await plainRound();
await sequentialRound();
for (let round = 0; round < ROUNDS; round++) {
  global.gc?.();
  plain.push(await plainRound());
  global.gc?.();
  sequential.push(await sequentialRound());
}
const best = (values: number[]) => Math.min(...values);
const extra = best(sequential) / best(plain) - 1;
console.log(
  `CPU per judgement: plain summary fold ${best(plain).toFixed(1)} us, draw order and sequential fold ${best(sequential).toFixed(1)} us: extra ${percent(extra)} (target < 2%) ${extra < 0.02 ? 'ok' : 'MISSED'}`,
);
if (missed > 0 || extra >= 0.02) process.exitCode = 1;
