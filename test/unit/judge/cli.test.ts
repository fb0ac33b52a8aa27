import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../../src/cli/commands/judgeCommandIo.js';
import { createProgressBar, formatProgressLine } from '../../../src/cli/progress.js';
import { parseCaseLine } from '../../../src/domain/judge/cases.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import { failedGates, summarizeJudgeResults } from '../../../src/domain/judge/summary.js';
import { parseReplayRecords, ReplayFileError } from '../../../src/ports/model/replayProvider.js';

function result(status: JudgeResult['status'], score: number | null): JudgeResult {
  return {
    status,
    score,
    usage: {
      inputTokens: 10,
      outputTokens: 2,
      reasoningTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: 12,
    },
    costUsd: 0.001,
  } as JudgeResult;
}

describe('case lines', () => {
  it('reads a case line into a judge context with defaults', () => {
    const outcome = parseCaseLine(
      '{"case_id":"c1","input":"q","candidate_output":"a","observation":{"agent_name":"bot"}}',
      3,
      'run',
    );
    expect(outcome).toEqual({
      kind: 'case',
      context: {
        evaluationRunId: 'run',
        caseId: 'c1',
        subjectId: 'c1',
        input: 'q',
        candidateOutput: 'a',
        observation: { model: null, provider: null, agentName: 'bot' },
      },
    });
    expect(parseCaseLine('   ', 4, 'run')).toEqual({ kind: 'blank' });
  });

  it('reports a malformed line with its number and the field at fault', () => {
    expect(parseCaseLine('{nope', 7, 'run')).toEqual({
      kind: 'malformed',
      problem: { line: 7, message: 'not valid JSON' },
    });
    const outcome = parseCaseLine(
      '{"case_id":"c","input":1,"candidate_output":2,"extra":1}',
      8,
      'run',
    );
    expect(outcome.kind).toBe('malformed');
    expect(outcome.kind === 'malformed' && outcome.problem.message).toContain('extra');
  });
});

describe('summary and gates', () => {
  const results = [
    result('passed', 1),
    result('failed', 0),
    result('skipped', null),
    result('error', null),
  ];

  it('counts statuses, averages scores and leaves skipped cases out of the pass rate', () => {
    const summary = summarizeJudgeResults(results);
    expect(summary).toMatchObject({
      total: 4,
      byStatus: { passed: 1, failed: 1, skipped: 1, error: 1 },
      meanScore: 0.5,
      passRate: 1 / 3,
      totalTokens: 48,
    });
    expect(summary.costUsd).toBeCloseTo(0.004);
    expect(summarizeJudgeResults([])).toMatchObject({ meanScore: null, passRate: null });
  });

  it('names every gate that fails', () => {
    const summary = summarizeJudgeResults(results);
    // errors fail a run by default, and the sentence says how to allow them
    expect(failedGates(summary, {})).toEqual([
      '1 error exceeds max_errors 0 (the default: allow errors with gates.max_errors)',
    ]);
    expect(failedGates(summary, { maxErrors: 1 })).toEqual([]);
    expect(failedGates(summary, { minPassRate: 0.5, minMeanScore: 0.6, maxErrors: 0 })).toEqual([
      'pass rate 0.3333 is below min_pass_rate 0.5',
      'mean score 0.5 is below min_mean_score 0.6',
      '1 error exceeds max_errors 0',
    ]);
    expect(failedGates(summarizeJudgeResults([]), { minMeanScore: 0 })).toEqual([
      'mean score n/a is below min_mean_score 0',
    ]);
  });
});

describe('progress bar', () => {
  it('draws nothing when the stream is not a TTY', () => {
    const stream = new PassThrough();
    const bar = createProgressBar({ total: 2, label: 'judging', stream });
    bar.update(1);
    bar.finish();
    expect(stream.read()).toBeNull();
  });

  it('draws and clears one line on a TTY', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 60 });
    const bar = createProgressBar({ total: 4, label: 'judging', stream, minIntervalMs: 0 });
    bar.update(2, '1 errors');
    bar.finish();
    const text = String(stream.read());
    expect(text).toContain('2/4  50%  1 errors');
    expect(text.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('fits the line to the terminal width', () => {
    expect(formatProgressLine(1, 4, 'judging', '', 40)).toBe('judging [###.......] 1/4  25%');
    expect(formatProgressLine(4, 4, 'judging', '', 40).length).toBeLessThan(40);
  });
});

describe('replay records', () => {
  it('parses records and names the bad line', () => {
    expect(parseReplayRecords('{"case_id":"c","content":"{}"}\n\n')).toHaveLength(1);
    expect(() =>
      parseReplayRecords('{"case_id":"c","content":"{}"}\n{"content":"{}"}', 'r.jsonl'),
    ).toThrow('r.jsonl:2: (record): a record needs prompt_sha256 or case_id');
    expect(() => parseReplayRecords('oops')).toThrow(ReplayFileError);
  });
});

describe('the summary arena judge prints', () => {
  const agreement = { lines: [], json: {}, failedGates: [] };
  it('says one case, and a cost that no result had is unknown, not zero (null in JSON)', () => {
    const unpriced = { ...result('passed', 1), costUsd: null };
    const summary = summarizeJudgeResults([unpriced]);
    expect(summary.costUsd).toBeNull();
    expect(formatSummary('strict', summary, 1, [], agreement).split('\n')).toEqual([
      'judged 1 case with strict: passed 1, failed 0, skipped 0, error 0; 1 malformed line skipped',
      'mean score 1, pass rate 1, tokens 12 (in 10, out 2), cost unknown (no prices configured)',
      'gates: pass',
      '',
    ]);
  });

  it('sums the costs the results had', () => {
    const summary = summarizeJudgeResults([
      result('passed', 1),
      { ...result('failed', 0), costUsd: null },
    ]);
    expect(summary.costUsd).toBeCloseTo(0.001);
    expect(formatSummary('strict', summary, 2, [], agreement)).toContain(
      'judged 2 cases with strict: passed 1, failed 1, skipped 0, error 0; 2 malformed lines skipped\nmean score 0.5, pass rate 0.5, tokens 24 (in 20, out 4), cost $0.001000\n',
    );
  });
});
