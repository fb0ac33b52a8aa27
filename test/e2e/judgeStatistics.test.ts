import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const example = (file: string) => path.join('examples/judge', file);
const scratch = () => scratchFolder('arena-judge-statistics-');
const jsonLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('arena judge --trials --reduce', () => {
  it('writes a reduced record after each case, and folds the summary and gates over them', async () => {
    const out = path.join(scratch(), 'results.jsonl');
    const args = ['judge', example('cases.jsonl'), '--config', example('replay.yaml')];
    const run = await runArena([...args, '--trials', '3', '--reduce', 'pass_at_2', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'reduced by pass_at_2 over 3 trials: pass rate 0.6667 (95% CI 0.2077-0.9385, n 3), mean score 0.6333 (95% CI -0.7348 to 2.0015, n 3)',
    );
    // the stability of the trials stays beside the reduced values
    expect(run.stdout).toContain('stability over 3 trials:');
    const records = jsonLines(out);
    expect(records).toHaveLength(4 * 3 + 4);
    const reduced = records.filter((record) => record.kind === 'reduced');
    expect(reduced.map((record) => [record.caseId, record.passValue])).toEqual(
      expect.arrayContaining([
        ['arith-1', 1],
        ['injection-1', null],
      ]),
    );
    // a case's reduced record follows its last trial
    const lastTrial = records.findLastIndex(
      (record) => record.caseId === 'arith-1' && record.trial === 3,
    );
    expect(records[lastTrial + 1]).toMatchObject({ kind: 'reduced', caseId: 'arith-1' });
    const json = await runArena([...args, '--trials', '3', '--reduce', 'mode', '--json']);
    const summary = JSON.parse(json.stdout.trim().split('\n').at(-1)!).summary;
    expect(summary).toMatchObject({
      reduced: { reducer: 'mode', trials: 3, cases: 4 },
      n: 3,
      passRateCi: { low: expect.any(Number), high: expect.any(Number) },
    });
  });

  it('clusters the intervals by case when the trials are not reduced', async () => {
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      '--trials',
      '2',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const { summary } = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(summary).toMatchObject({ n: 6, clusteredBy: { cases: 3, trials: 2 } });
  });

  it.each([
    [
      ['--trials', '3', '--reduce', 'pass_at_5'],
      'arena: --reduce pass_at_5: pass_at_5 needs K from 1 to the trials (3), got 5',
    ],
    [['--trials', '3', '--reduce', 'best'], "arena: --reduce best: unknown reducer 'best'"],
    [['--reduce', 'mean'], 'arena: --reduce mean needs --trials 2 or more'],
  ])('refuses %j with exit 2, naming the option', async (extra, message) => {
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      ...extra,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});

describe('arena judge compare', () => {
  const before = example('compare/before.jsonl');
  const after = example('compare/after.jsonl');

  it('pairs the shipped runs and finds B better on the score, with what pairing saved', async () => {
    const run = await runArena(['judge', 'compare', before, after]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`A ${before}, B ${after}: 40 paired, 0 only in A, 0 only in B`);
    expect(lines[1]).toBe(
      'pass/fail over 40 pairs: both passed 18, only A passed 0, only B passed 4, neither 18',
    );
    expect(lines[2]).toMatch(/McNemar exact p 0\.125$/);
    expect(lines[3]).toMatch(/pairing cut it by \d+%\); paired t test p /);
    expect(lines.at(-1)).toMatch(/^verdict: B is better than A at alpha 0\.05 \(mean score: /);
  });

  it('--fail-if-worse exits 1 when B is significantly worse, 0 otherwise', async () => {
    const worse = await runArena(['judge', 'compare', after, before, '--fail-if-worse']);
    expect(worse.code).toBe(1);
    expect(worse.stdout).toContain('verdict: A is better than B at alpha 0.05');
    const same = await runArena(['judge', 'compare', before, before, '--fail-if-worse', '--json']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ paired: 40, better: null, bWorse: false });
  });

  it('refuses runs with no case in common, a line that is no result, and a bad alpha, with exit 2', async () => {
    const folder = scratch();
    const other = path.join(folder, 'other.jsonl');
    writeFileSync(
      other,
      `${JSON.stringify({ caseId: 'x', subjectId: 'x', status: 'passed', score: 1 })}\n`,
    );
    const none = await runArena(['judge', 'compare', before, other]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`${before} and ${other} have no case in common (40 and 1 cases)`);
    const cases = await runArena(['judge', 'compare', before, example('cases.jsonl')]);
    expect(cases.code).toBe(2);
    expect(cases.stderr).toContain(
      `arena: ${example('cases.jsonl')}:1: not a line of an arena judge --out file (no caseId and subjectId)`,
    );
    const alpha = await runArena(['judge', 'compare', before, after, '--alpha', '2']);
    expect(alpha.code).toBe(2);
    expect(alpha.stderr).toContain("--alpha must be a number between 0 and 1, got '2'");
    const missing = await runArena(['judge', 'compare', before, 'no-such-run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no results file no-such-run');
  });

  it('compares a stored evaluation run, named by its id, with a results file', async () => {
    const folder = scratch();
    const store = `sqlite:${path.join(folder, 'verdicts.db')}`;
    const out = path.join(folder, 'results.jsonl');
    const judged = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      '--store',
      store,
      '--out',
      out,
      '--json',
    ]);
    expect(judged.code, judged.stderr).toBe(0);
    const { evaluationRunId } = JSON.parse(judged.stdout.trim().split('\n').at(-1)!);
    const run = await runArena(['judge', 'compare', evaluationRunId, out, '--store', store]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `A evaluation run ${evaluationRunId}, B ${out}: 4 paired, 0 only in A, 0 only in B`,
    );
    expect(run.stdout).toContain('verdict: no difference found at alpha 0.05');
    const unknown = await runArena(['judge', 'compare', 'nope', out, '--store', store]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'nope is neither a results file nor an evaluation run of the store',
    );
  });
});

// the shipped compare files are what the script makes
describe('examples/judge/compare', () => {
  it('holds 40 results in each run, over the same cases', () => {
    const a = jsonLines(path.join(repoRoot, 'examples/judge/compare/before.jsonl'));
    const b = jsonLines(path.join(repoRoot, 'examples/judge/compare/after.jsonl'));
    expect(a.map((record) => record.caseId)).toEqual(b.map((record) => record.caseId));
    expect(a).toHaveLength(40);
  });
});
