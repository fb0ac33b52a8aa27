import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { judgeFleetEnv, startJudgeWorker, stopWorkers } from '../support/judgeFleet.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll } from '../support/queueFleet.js';
import { scratchFolder } from '../support/scratch.js';

// arena judge calibrate with the shipped pairwise judge (3 systems, 4 cases, replayed offline)
// and its labels (3 annotators naming the better system, or a tie), in a copy of examples/.
function exampleFolder(): string {
  const folder = scratchFolder('arena-pairwise-calibrate-');
  cpSync(path.join(repoRoot, 'examples'), path.join(folder, 'examples'), { recursive: true });
  return folder;
}

const CASES = 'examples/judge/pairwise-cases.jsonl';
const CONFIG = 'examples/judge/pairwise.yaml';
const LABELS = 'examples/judge/pairwise-labels.jsonl';

const calibrate = (
  folder: string,
  extra: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
) =>
  runArena(['judge', 'calibrate', CASES, '--labels', LABELS, '--config', CONFIG, ...extra], {
    cwd: folder,
    timeoutMs: 60_000,
    ...options,
  });

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

describe('arena judge calibrate with a pairwise judge', () => {
  it("measures each case's winner against people's, over the systems and tie", async () => {
    const folder = exampleFolder();
    const page = path.join(folder, 'calibration.html');
    const run = await calibrate(folder, ['--json', '--html', page]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.judge).toMatch(/^prefer@[0-9a-f]{12}$/);
    expect(summary.mode).toBe('pairwise');
    // judge: arith tie (alpha and beta 1.5 points each), capital tie, boiling alpha, planet tie
    expect(summary.n).toBe(4);
    expect(summary.agreement).toBe(0.75);
    // p_o 3/4; p_e = (1·2 + 3·2) / 16 = 1/2
    expect(summary.kappa).toBeCloseTo(0.5, 12);
    expect(summary.confusion).toEqual({
      labels: ['alpha', 'beta', 'gamma', 'tie'],
      matrix: [
        [1, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [1, 0, 0, 2],
      ],
    });
    expect(summary.perStatus.tie).toMatchObject({ precision: 2 / 3, recall: 1, support: 2 });
    expect(summary.falsePicks).toEqual([]);
    expect(summary.missedPicks).toEqual(['capital']);
    expect(summary.falsePickRate).toBe(0);
    expect(summary).not.toHaveProperty('falsePasses');
    expect(summary.annotators).toEqual(['ana', 'bo', 'cy']);
    expect(summary.annotatorKappa).toBeCloseTo(0.2, 12);
    expect(readFileSync(page, 'utf8')).toContain('capital');
  });

  it('names the winner the judge picked and people did not: the dangerous cell', async () => {
    const folder = exampleFolder();
    edit(
      path.join(folder, LABELS),
      '{"case_id":"boiling","winner":"alpha","annotator":"ana"}',
      '{"case_id":"boiling","winner":"tie","annotator":"ana"}',
    );
    const run = await calibrate(folder, []);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter((line) => / picks \(/.test(line))).toEqual([
      'false picks (judge named a winner people did not; rate 1): 1: boiling',
      'missed picks (judge said tie, people named a winner): 1: capital',
    ]);
  });

  it('stores the calibration under the pairwise fingerprint: the kappa gate reads it, and goes stale with the rubric', async () => {
    const folder = exampleFolder();
    const store = `sqlite:${path.join(folder, 'store.db')}`;
    const config = path.join(folder, CONFIG);
    edit(config, '  max_errors: 0', '  max_errors: 0\n  min_calibration_kappa: 0.4');
    const judge = () =>
      runArena(['judge', CASES, '--config', CONFIG, '--store', store, '--out', 'out.jsonl'], {
        cwd: folder,
        timeoutMs: 60_000,
      });
    const never = await judge();
    expect(never.code).toBe(1);
    expect(never.stdout).toMatch(/min_calibration_kappa: no calibration of prefer@[0-9a-f]{12}/);

    const stored = await calibrate(folder, ['--store', store]);
    expect(stored.code, stored.stderr).toBe(0);
    const label = /stored: the calibration of (prefer@[0-9a-f]{12})/.exec(stored.stdout)![1]!;
    const passing = await judge();
    expect(passing.code, passing.stdout).toBe(0);
    expect(passing.stdout).toContain(`calibrated: kappa 0.5 [0, 1] on 4 labels (${label}, `);

    edit(config, 'Prefer the output that answers', 'Prefer the output that replies');
    const stale = await judge();
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(`the rubric changed since ${label} was calibrated on `);
  }, 120_000);
});

describe('arena judge calibrate with a pairwise judge refuses bad input with exit 2', () => {
  it.each([
    [
      'a winner that is not a candidate of the case',
      ['{"case_id":"arith","winner":"tie"}', '{"case_id":"planet","winner":"delta"}'],
      'pairwise-labels.jsonl:2: winner: "delta" is not a candidate of case "planet" (its candidates: alpha, beta, gamma; or "tie")',
    ],
    [
      'a status label given to a pairwise judge',
      ['{"case_id":"arith","status":"passed"}'],
      'pairwise-labels.jsonl:1: status: the judge is pairwise: a label names the better system',
    ],
    [
      'a label for an unknown case',
      ['{"case_id":"arith","winner":"alpha"}', '{"case_id":"moon","winner":"alpha"}'],
      'pairwise-labels.jsonl:2: case_id: "moon" is not a case of examples/judge/pairwise-cases.jsonl',
    ],
    [
      'a score, which a pairwise label does not carry',
      ['{"case_id":"arith","winner":"alpha","score":1}'],
      'pairwise-labels.jsonl:1: score: Unrecognized key: "score"',
    ],
  ])('%s: file, line and field', async (_what, lines, message) => {
    const folder = exampleFolder();
    writeFileSync(path.join(folder, LABELS), `${lines.join('\n')}\n`);
    const run = await calibrate(folder, []);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a winner label given to a single judge', async () => {
    const folder = exampleFolder();
    writeFileSync(path.join(folder, 'labels.jsonl'), '{"case_id":"arith-1","winner":"alpha"}\n');
    const run = await runArena(
      [
        'judge',
        'calibrate',
        'examples/judge/cases.jsonl',
        '--labels',
        'labels.jsonl',
        '--config',
        'examples/judge/replay.yaml',
      ],
      { cwd: folder },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'labels.jsonl:1: winner: the judge is not pairwise: a label gives a status',
    );
  });

  it('--trials, which calibration does not take', async () => {
    const folder = exampleFolder();
    const run = await calibrate(folder, ['--trials', '3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'arena judge calibrate judges each labelled case once: --trials is not taken',
    );
  });

  it('--nats without a store', async () => {
    const folder = exampleFolder();
    const run = await calibrate(folder, ['--nats', 'nats://127.0.0.1:1'], {
      env: { ARENA_STORE: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--nats needs --store <uri> (or ARENA_STORE)');
  });

  it.each([
    ['min_pass_rate: 0.5', 'gates.min_pass_rate means nothing for a pairwise judge'],
    ['min_mean_score: 0.5', 'gates.min_mean_score means nothing for a pairwise judge'],
    ['max_false_pass_rate: 0.1', 'gates.max_false_pass_rate means nothing for a pairwise judge'],
  ])('a pairwise config gated on %s, for arena judge and for calibrate', async (gate, message) => {
    const folder = exampleFolder();
    edit(path.join(folder, CONFIG), '  max_errors: 0', `  max_errors: 0\n  ${gate}`);
    for (const run of [
      await runArena(['judge', CASES, '--config', CONFIG], { cwd: folder }),
      await calibrate(folder, []),
    ]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${CONFIG}: ${message}`);
      expect(run.stderr).toContain('gates.min_win_rate');
    }
  });
});

describe('arena judge calibrate --nats with a pairwise judge', () => {
  it("queues only the labelled cases, folds the fleet's verdicts as one process does, and stores the calibration", async () => {
    const nats = await startNatsServer();
    const workers: Awaited<ReturnType<typeof startJudgeWorker>>[] = [];
    try {
      await calibrateOnFleet(nats, workers);
    } finally {
      await killAll(workers);
      await nats.dispose();
    }
  }, 120_000);
});

/** Calibrate on two workers, then alone, and compare; the gate reads the stored calibration. */
async function calibrateOnFleet(
  nats: NatsServer,
  workers: Awaited<ReturnType<typeof startJudgeWorker>>[],
): Promise<void> {
  const folder = exampleFolder();
  // three of the four cases labelled: the fourth is never queued
  const labels = path.join(folder, LABELS);
  writeFileSync(
    labels,
    readFileSync(labels, 'utf8')
      .split('\n')
      .filter((line) => !line.includes('"planet"'))
      .join('\n'),
  );
  const store = `sqlite:${path.join(folder, 'fleet.db')}`;
  const worker = { nats: nats.url, store, cwd: folder, judgeConcurrency: 2 };
  const started = ['c1', 'c2'].map((name) => startJudgeWorker({ ...worker, name }));
  workers.push(...started);
  const fleet = await calibrate(folder, ['--nats', nats.url, '--store', store, '--json'], {
    env: { ...judgeFleetEnv },
    timeoutMs: 90_000,
  });
  expect(fleet.code, fleet.stderr).toBe(0);
  expect(fleet.stderr).toContain(
    'queued 18 judgements (3 cases, every pair of systems in both orders) as evaluation run prefer-',
  );
  const alone = await calibrate(folder, ['--json']);
  expect(alone.code, alone.stderr).toBe(0);
  expect(JSON.parse(fleet.stdout)).toEqual(JSON.parse(alone.stdout));
  expect(JSON.parse(fleet.stdout)).toMatchObject({ n: 3, unlabelled: 1, unjudged: 0 });
  // the stored calibration is the one the gate reads
  const config = path.join(folder, CONFIG);
  edit(config, '  max_errors: 0', '  max_errors: 0\n  min_calibration_kappa: 0.1');
  const gated = await runArena(
    ['judge', CASES, '--config', CONFIG, '--store', store, '--out', 'out.jsonl'],
    {
      cwd: folder,
      timeoutMs: 60_000,
    },
  );
  expect(gated.stdout).toMatch(
    /calibrated: kappa [-\d.]+ \[[-\d.]+, [-\d.]+\] on 3 labels \(prefer@/,
  );
  await stopWorkers(started);
}
