import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../support/chatServer.js';
import { runArena } from '../support/cli.js';
import { judgeFixture, verdictFor } from '../support/judgeFleet.js';

// arena judge calibrate against the test chat server (case-i fails when i % 3 === 0), then the
// calibration gate of arena judge: it goes stale when the rubric or the model changes.
let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer((request) => verdictFor(request));
});
afterAll(async () => {
  await server?.close();
});

const cases = 12;

/** People agree with the server on every case but case-1, which they fail (a false pass). */
function labelsFor(folder: string, lines?: string[]): string {
  const file = path.join(folder, 'labels.jsonl');
  const made =
    lines ??
    Array.from({ length: cases }, (_, index) =>
      JSON.stringify({
        case_id: `case-${index}`,
        status: index % 3 === 0 || index === 1 ? 'failed' : 'passed',
      }),
    );
  writeFileSync(file, `${made.join('\n')}\n`);
  return file;
}

function fixture() {
  const made = judgeFixture(server, cases);
  writeFileSync(made.config, `${readFileSync(made.config, 'utf8')}  min_calibration_kappa: 0.5\n`);
  return {
    ...made,
    store: `sqlite:${path.join(made.folder, 'store.db')}`,
    labels: labelsFor(made.folder),
  };
}

type Fixture = ReturnType<typeof fixture>;

const calibrate = (f: Fixture, extra: string[] = []) =>
  runArena(
    [
      'judge',
      'calibrate',
      f.cases,
      '--labels',
      f.labels,
      '--config',
      f.config,
      '--store',
      f.store,
      ...extra,
    ],
    { timeoutMs: 60_000 },
  );
const judge = (f: Fixture) =>
  runArena(
    [
      'judge',
      f.cases,
      '--config',
      f.config,
      '--store',
      f.store,
      '--out',
      path.join(f.folder, 'out.jsonl'),
    ],
    { timeoutMs: 60_000 },
  );
const edit = (f: Fixture, from: string, to: string) => {
  const text = readFileSync(f.config, 'utf8');
  expect(text).toContain(from);
  writeFileSync(f.config, text.replace(from, to));
};

describe('arena judge calibrate', () => {
  it('measures the judge against the labels and stores it under the fingerprint', async () => {
    const f = fixture();
    const run = await calibrate(f, ['--json', '--html', path.join(f.folder, 'cal.html')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.judge).toMatch(/^strict@[0-9a-f]{12}$/);
    expect(summary.n).toBe(12);
    expect(summary.errors).toEqual([]);
    expect(summary.agreement).toBeCloseTo(11 / 12, 12);
    // p_o = 11/12, p_e = (8·7 + 4·5) / 144
    expect(summary.kappa).toBeCloseTo((11 / 12 - 76 / 144) / (1 - 76 / 144), 12);
    expect(summary.kappaCi[0]).toBeLessThanOrEqual(summary.kappa);
    expect(summary.confusion).toEqual({
      labels: ['passed', 'failed', 'skipped'],
      matrix: [
        [7, 1, 0],
        [0, 4, 0],
        [0, 0, 0],
      ],
    });
    expect(summary.falsePasses).toEqual(['case-1']);
    expect(summary.falseFails).toEqual([]);
    expect(summary.perStatus.failed).toMatchObject({ precision: 1, recall: 0.8, support: 5 });
    expect(summary.perStatus.failed.f1).toBeCloseTo(8 / 9, 12);
    const page = readFileSync(path.join(f.folder, 'cal.html'), 'utf8');
    expect(page).toContain('<h2>Confusion matrix</h2>');
    expect(page).toContain('case-1');
    expect(page).not.toMatch(/<script src=|https?:\/\//);
  });

  it('gates arena judge on the calibration, and the gate goes stale when one word of the rubric changes', async () => {
    const f = fixture();
    const uncalibrated = await judge(f);
    expect(uncalibrated.code).toBe(1);
    expect(uncalibrated.stdout).toMatch(
      /gates: FAILED: min_calibration_kappa: no calibration of strict@[0-9a-f]{12}; it was never calibrated/,
    );
    const first = await calibrate(f);
    expect(first.code).toBe(0);
    const label = /calibrated (strict@[0-9a-f]{12})/.exec(first.stdout)![1]!;
    const passing = await judge(f);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toMatch(/calibrated: kappa 0\.8235 \[[-\d.]+, [\d.]+\] on 12 labels/);
    expect(passing.stdout).toContain('gates: pass');

    edit(f, 'You grade answers to short questions.', 'You grade answers to brief questions.');
    const stale = await judge(f);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(
      new RegExp(
        `min_calibration_kappa: no calibration of strict@[0-9a-f]{12}; the rubric changed since ${label} was calibrated on \\d{4}-\\d\\d-\\d\\d: kappa 0\\.8235`,
      ),
    );
    expect((await calibrate(f)).code).toBe(0);
    expect((await judge(f)).code).toBe(0);

    edit(f, '    model: llama3.1:8b', '    model: qwen2.5:7b');
    const otherModel = await judge(f);
    expect(otherModel.code).toBe(1);
    expect(otherModel.stdout).toMatch(
      /the model changed since strict@[0-9a-f]{12} was calibrated on/,
    );
    expect((await calibrate(f)).code).toBe(0);
    expect((await judge(f)).code).toBe(0);
  }, 120_000);

  it('fails the gate when the calibration is below the bar', async () => {
    const f = fixture();
    edit(f, 'min_calibration_kappa: 0.5', 'min_calibration_kappa: 0.9');
    expect((await calibrate(f)).code).toBe(0);
    const below = await judge(f);
    expect(below.code).toBe(1);
    expect(below.stdout).toMatch(
      /min_calibration_kappa: strict@[0-9a-f]{12} has kappa 0\.8235, below 0\.9/,
    );
  });
});

describe('arena judge calibrate refuses bad input with exit 2', () => {
  it.each([
    [
      'a label for an unknown case',
      ['{"case_id":"case-0","status":"failed"}', '{"case_id":"nope","status":"passed"}'],
      /labels\.jsonl:2: case_id: "nope" is not a case of .*cases\.jsonl/,
    ],
    [
      'a status outside the three',
      ['{"case_id":"case-0","status":"pass"}'],
      /labels\.jsonl:1: status: .*"passed"\|"failed"\|"skipped"/,
    ],
    [
      'bad JSON',
      ['{"case_id":"case-0","status":"failed"}', '{"case_id":'],
      /labels\.jsonl:2: not valid JSON/,
    ],
    [
      'a score that is no number',
      ['{"case_id":"case-0","status":"failed","score":"high"}'],
      /labels\.jsonl:1: score: /,
    ],
  ])('%s: file, line and field, nothing stored', async (_what, lines, message) => {
    const f = fixture();
    labelsFor(f.folder, lines);
    const before = server.requests.length;
    const run = await calibrate(f);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(server.requests.length).toBe(before);
  });

  it('a calibration gate without --store is a config error naming the gate', async () => {
    const f = fixture();
    const run = await runArena(['judge', f.cases, '--config', f.config], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('gates.min_calibration_kappa needs --store');
  });
});
