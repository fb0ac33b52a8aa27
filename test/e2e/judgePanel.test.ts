import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer } from '../support/chatServer.js';
import { repoRoot, runArena } from '../support/cli.js';
import { judgeStdout } from '../support/judgeOutput.js';
import { manualText } from '../support/manual.js';
import { scratchFolder } from '../support/scratch.js';

const example = (file: string) => path.join(repoRoot, 'examples/judge', file);
const scratch = () => scratchFolder('arena-panel-');
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

/** The shipped panel config with its replay files made absolute and one edit, in a scratch folder. */
function panelConfig(edit: (yaml: string) => string = (yaml) => yaml): string {
  const file = path.join(scratch(), 'panel.yaml');
  const yaml = readFileSync(example('panel.yaml'), 'utf8').replace(
    /replay_file: (\S+)/g,
    (_, name: string) => `replay_file: ${example(name)}`,
  );
  writeFileSync(file, edit(yaml));
  return file;
}

describe('arena judge with a panel', () => {
  it("judges the shipped panel offline: each member's pass rate, the members' agreement, the gates", async () => {
    const out = path.join(scratch(), 'results.jsonl');
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('panel.yaml'),
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        'judged 4 cases with trio: passed 2, failed 1, skipped 1, error 0',
        'pass rate 0.6667 (95% CI 0.2077-0.9385, n 3), mean score 0.5889 (95% CI -0.7107 to 1.8885, n 3)',
        'tokens 3033 (in 2595, out 438), cost $0.000000',
        'member strict: passed 2, failed 1, skipped 1, error 0; pass rate 0.6667 (95% CI 0.2077-0.9385, n 3)',
        'member lenient: passed 3, failed 1, skipped 0, error 0; pass rate 0.75 (95% CI 0.3006-0.9544, n 4)',
        'member pedantic: passed 1, failed 2, skipped 1, error 0; pass rate 0.3333 (95% CI 0.0615-0.7923, n 3)',
        "agreement of the members: Fleiss' kappa 0.4545 over 4 judgements (categories failed, passed, skipped)",
        'gates: pass',
      ].join('\n'),
    );
    const results = lines(readFileSync(out, 'utf8'));
    const byCase = Object.fromEntries(results.map((result) => [result.caseId, result]));
    expect(byCase['injection-1']).toMatchObject({
      judge: 'trio',
      status: 'skipped',
      panel: { rule: 'majority', minVotes: 2, vote: { votes: 1, passed: 1, skipped: 2 } },
    });
    expect(byCase['capital-1'].status).toBe('passed');
    for (const result of results) {
      expect(result.panel.members.map((member: { judge: string }) => member.judge)).toEqual([
        'strict',
        'lenient',
        'pedantic',
      ]);
    }
    // Members' evidence travels as digests only, as a single judge's does.
    expect(JSON.stringify(results)).not.toContain('mark this as passed');
    expect(JSON.stringify(results)).not.toContain('not Sydney');
  });

  it('prints the panel part of the summary as JSON and fails a min_agreement it does not reach', async () => {
    const config = panelConfig((yaml) => yaml.replace('min_agreement: 0.4', 'min_agreement: 0.5'));
    const run = await runArena(['judge', example('cases.jsonl'), '--config', config, '--json']);
    expect(run.code).toBe(1);
    const report = judgeStdout(run.stdout).summary;
    expect(report.panel.agreement).toMatchObject({ subjects: 4, leftOut: 0 });
    expect(report.panel.agreement.kappa).toBeCloseTo(5 / 11, 10);
    expect(report.panel.members.lenient.passRate).toBe(0.75);
    expect(report.failedGates).toEqual([
      'agreement of the members 0.4545 is below min_agreement 0.5',
    ]);
  });

  it('gives a tied majority its own error type and fails max_errors', async () => {
    const config = panelConfig((yaml) =>
      yaml.replace('members: [strict, lenient, pedantic]', 'members: [lenient, pedantic]'),
    );
    const run = await runArena(['judge', example('cases.jsonl'), '--config', config, '--json']);
    expect(run.code).toBe(1);
    const statuses = Object.fromEntries(
      judgeStdout(run.stdout).results.map((result) => [
        result.caseId,
        [result.status, result.errorType],
      ]),
    );
    expect(statuses).toEqual({
      'arith-1': ['passed', null],
      'arith-2': ['failed', null],
      'capital-1': ['error', 'PanelTieError'],
      'injection-1': ['error', 'PanelQuorumError'],
    });
    expect(judgeStdout(run.stdout).summary.failedGates).toContain('2 errors exceed max_errors 0');
  });

  it('exits 2 with the YAML path of a bad panel', async () => {
    const config = panelConfig((yaml) =>
      yaml.replace('members: [strict, lenient, pedantic]', 'members: [strict, lenient, nobody]'),
    );
    const run = await runArena(['judge', example('cases.jsonl'), '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "panels.trio.members.2: unknown judge 'nobody' (known: strict, lenient, pedantic)",
    );
  });
});

describe('arena judge --trials', () => {
  it('judges each case N times and reports a replayed judge as perfectly stable', async () => {
    const out = path.join(scratch(), 'results.jsonl');
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      '--trials',
      '3',
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('judged 12 judgements (4 cases × 3 trials) with strict:');
    expect(run.stdout).toContain(
      "stability over 3 trials: Fleiss' kappa 1 over 4 cases (categories failed, passed, skipped); the same verdict in every trial: 4 of 4 cases",
    );
    const results = lines(readFileSync(out, 'utf8'));
    expect(results).toHaveLength(12);
    expect(
      results
        .filter((result) => result.caseId === 'arith-1')
        .map((r) => r.trial)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it('measures an unstable judge: a server whose verdict on one case flips between trials', async () => {
    const calls = new Map<string, number>();
    const verdict = (status: 'passed' | 'failed') =>
      JSON.stringify({
        status,
        score: status === 'passed' ? 1 : 0,
        label: status,
        explanation: null,
        evidence: [],
      });
    const server = await startChatServer((request) => {
      const body = JSON.stringify(request.body);
      const caseId = ['arith-1', 'arith-2', 'capital-1', 'injection-1'].find((id) =>
        body.includes(`\\"case_id\\":\\"${id}\\"`),
      )!;
      const call = (calls.get(caseId) ?? 0) + 1;
      calls.set(caseId, call);
      if (caseId === 'arith-2') return { content: verdict('failed') };
      if (caseId === 'capital-1') return { content: verdict(call === 2 ? 'failed' : 'passed') };
      return { content: verdict('passed') };
    });
    try {
      const config = path.join(scratch(), 'local.yaml');
      writeFileSync(
        config,
        readFileSync(example('local.yaml'), 'utf8')
          .replace('base_url: http://localhost:11434/v1', `base_url: ${server.baseURL}`)
          .replace(/gates:[\s\S]*$/, 'gates:\n  min_agreement: 0.8\n'),
      );
      const run = await runArena([
        'judge',
        example('cases.jsonl'),
        '--config',
        config,
        '--trials',
        '3',
        '--json',
      ]);
      expect([...calls.values()]).toEqual([3, 3, 3, 3]);
      const report = judgeStdout(run.stdout).summary;
      // arith-1 and injection-1 always passed, arith-2 always failed, capital-1 passed twice of three.
      expect(report.trials).toMatchObject({ trials: 3, cases: 4, sameVerdict: 3, subjects: 4 });
      expect(report.trials.kappa).toBeCloseTo(0.625, 10);
      expect(report.failedGates).toEqual([
        'stability over trials 0.625 is below min_agreement 0.8',
      ]);
      expect(run.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('judges a panel in trials: the members agree as before, and the panel is stable', async () => {
    const run = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('panel.yaml'),
      '--trials',
      '2',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(
      judgeStdout(run.stdout)
        .results.map((result) => result.trial)
        .sort(),
    ).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    const report = judgeStdout(run.stdout).summary;
    expect(report.panel.agreement).toMatchObject({ subjects: 8, leftOut: 0 });
    expect(report.panel.agreement.kappa).toBeCloseTo(5 / 11, 10);
    expect(report.trials).toMatchObject({ kappa: 1, trials: 2, cases: 4, sameVerdict: 4 });
  });

  it('exits 2 for a bad --trials and for min_agreement with nothing to measure', async () => {
    const badTrials = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      example('replay.yaml'),
      '--trials',
      'two',
    ]);
    expect(badTrials.code).toBe(2);
    expect(badTrials.stderr).toContain(
      "--trials must be a positive integer of at most 1000, got 'two'",
    );
    const config = panelConfig();
    const alone = await runArena([
      'judge',
      example('cases.jsonl'),
      '--config',
      config,
      '--judge',
      'strict',
    ]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(
      'gates.min_agreement needs a panel judge or --trials 2 or more: judge strict alone has no agreement to measure',
    );
  });
});

describe('README judge panels', () => {
  it('shows the real output of the panel example and of --trials', async () => {
    const readme = manualText();
    for (const [config, extra] of [
      ['panel.yaml', []],
      ['replay.yaml', ['--trials', '3']],
    ] as const) {
      const out = path.join(scratch(), 'results.jsonl');
      const args = ['judge', example('cases.jsonl'), '--config', example(config), ...extra];
      const run = await runArena([...args, '--out', out]);
      expect(run.code).toBe(0);
      const shown = `$ npx arena judge examples/judge/cases.jsonl --config examples/judge/${config}${extra.length > 0 ? ` ${extra.join(' ')}` : ''} --out results.jsonl`;
      expect(readme).toContain(`${shown}\n${run.stdout}`);
    }
  });
});
