import { firstValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeMany } from '../../../src/actors/judging/judgeMany.js';
import { createModelJudge } from '../../../src/actors/judging/judges.js';
import type { JudgeContext } from '../../../src/domain/judge/context.js';
import { parsePairwiseCaseLine } from '../../../src/domain/judge/pairwiseCases.js';
import { readPairwisePayload } from '../../../src/domain/judge/pairwisePayload.js';
import {
  pairwiseCandidateMessage,
  subjectMessages,
} from '../../../src/domain/judge/pairwisePrompt.js';
import { pairwiseAccumulator } from '../../../src/domain/judge/pairwiseSummary.js';
import { repeatedKeyIn } from '../../../src/domain/judge/repeatedKey.js';
import type { JudgeResult } from '../../../src/domain/judge/result.js';
import { createOpenAIProvider } from '../../../src/ports/model/openaiProvider.js';
import { type ChatServer, startChatServer } from '../../support/chatServer.js';
import { bothOrders } from '../../support/pairwiseResults.js';

function contextsOf(text: string): readonly JudgeContext[] {
  const outcome = parsePairwiseCaseLine(text, 1, 'run');
  if (outcome.kind !== 'pairwise')
    throw new Error(`not a pairwise case: ${JSON.stringify(outcome)}`);
  return outcome.contexts;
}

describe('pairwise case lines', () => {
  it('expands three candidates into every order of every pair, names sorted', () => {
    const contexts = contextsOf(
      '{"case_id":"c1","input":"q","candidates":{"gamma":"3","alpha":"1","beta":"2"}}',
    );
    expect(contexts.map((context) => context.subjectId)).toEqual([
      '["alpha","beta"]',
      '["beta","alpha"]',
      '["alpha","gamma"]',
      '["gamma","alpha"]',
      '["beta","gamma"]',
      '["gamma","beta"]',
    ]);
    expect(contexts[1]?.pairwise).toEqual({
      first: 'beta',
      second: 'alpha',
      firstOutput: '2',
      secondOutput: '1',
      candidates: 3,
    });
  });

  it.each([
    [
      '{"case_id":"c","input":"q","candidates":{"a":"1","a":"2"}}',
      'candidates.a: system "a" is named twice',
    ],
    [
      '{"case_id":"c","input":"q","candidates":{"a":"1"}}',
      'candidates: expected two or more systems, got 1',
    ],
    [
      '{"case_id":"c","input":"q","candidates":{"a":"1","b":2}}',
      "candidates.b: expected the system's output as a string, got a number",
    ],
    [
      '{"case_id":"c","input":"q"}',
      'candidates: missing: a pairwise judge needs candidates, an object of two or more systems and their outputs',
    ],
    [
      '{"case_id":"c","input":"q","candidates":["a","b"]}',
      'candidates: expected an object of two or more systems and their outputs',
    ],
  ])('refuses %s, naming the field', (text, message) => {
    expect(parsePairwiseCaseLine(text, 4, 'run')).toEqual({
      kind: 'malformed',
      problem: { line: 4, message },
    });
  });

  it('finds a repeated key only in the named object', () => {
    expect(repeatedKeyIn('{"x":{"a":1,"a":2},"candidates":{"a":"1","b":"2"}}', 'candidates')).toBe(
      null,
    );
    expect(repeatedKeyIn('{"candidates":{"a\\"":"{","b":"}","a\\"":"x"}}', 'candidates')).toBe(
      'a"',
    );
  });
});

describe('the pairwise prompt', () => {
  const [forward, reverse] = contextsOf(
    '{"case_id":"c1","input":"2+2","expected_output":"4","candidates":{"secret-model-a":"4","secret-model-b":"5"}}',
  );

  it('shows the outputs as first and second in canonical JSON, never the systems', () => {
    expect(pairwiseCandidateMessage(forward!).split('\n')[2]).toBe(
      '{"case_id":"c1","expected_output":"4","expected_tool_calls":null,"first":"4","input":"2+2","reference_contexts":null,"second":"5"}',
    );
    const sent = JSON.stringify(subjectMessages('Prefer the right answer.', reverse!));
    expect(sent).not.toContain('secret-model');
    expect(sent).toContain('"first\\":\\"5\\"');
  });

  it('gives the two orders different prompts', () => {
    const rubric = 'Prefer the right answer.';
    expect(subjectMessages(rubric, forward!)[1]?.content).not.toBe(
      subjectMessages(rubric, reverse!)[1]?.content,
    );
    expect(subjectMessages(rubric, forward!)[0]?.content.split('\n')[0]).toBe(
      'arena pairwise evaluation task arena-pairwise-v1.',
    );
  });
});

describe('the pairwise response', () => {
  it('reads a winner as a payload whose label is the slot', () => {
    expect(readPairwisePayload('{"winner":"second","explanation":"x","evidence":["5"]}')).toEqual({
      payload: {
        status: 'passed',
        score: null,
        label: 'second',
        explanation: 'x',
        evidence: ['5'],
      },
      problem: null,
    });
  });

  it.each([
    ['{"winner":"A"}', 'winner: expected first, second or tie, got "A"'],
    [
      '{"status":"passed"}',
      'winner: missing, expected first, second or tie; (root): 1 unexpected key (expected only winner, explanation, evidence)',
    ],
    [
      '{"winner":"tie","evidence":[""]}',
      'evidence.0: expected a non-empty string of at most 8192 UTF-8 bytes, got an empty string',
    ],
    ['first', 'not valid JSON (5 characters)'],
  ])('rejects %s with its detail', (content, problem) => {
    expect(readPairwisePayload(content)).toEqual({ payload: null, problem });
  });
});

describe('the pairwise fold', () => {
  const fold = (results: readonly JudgeResult[]) => {
    const accumulator = pairwiseAccumulator({ seed: 1, resamples: 200 });
    for (const result of results) accumulator.add(result);
    return accumulator.summary();
  };

  it('counts a win, a tie and an inconsistent pair (a tie) from the two orders', () => {
    const summary = fold([
      ...bothOrders('c1', 'a', 'b', 'first', 'second'),
      ...bothOrders('c2', 'a', 'b', 'tie', 'tie'),
      ...bothOrders('c3', 'a', 'b', 'first', 'first'),
      ...bothOrders('c4', 'a', 'b', 'second', 'first'),
    ]);
    expect(summary.byPair).toHaveLength(1);
    expect(summary.byPair[0]).toMatchObject({
      systems: ['a', 'b'],
      judged: 4,
      wins: 1,
      losses: 1,
      ties: 1,
      inconsistent: 1,
      errors: 0,
      winRate: 0.5,
    });
    expect(summary.positionConsistency).toBe(0.75);
    // answers: first, second, first, first, second, first: 4 of 6 chose first
    expect(summary.firstSlotRate).toBeCloseTo(4 / 6, 12);
    expect(summary.ratings).toBeNull();
  });

  it('matches the orders whatever order they arrive in', () => {
    const [one, two] = bothOrders('c1', 'a', 'b', 'second', 'first');
    const [three, four] = bothOrders('c2', 'a', 'b', 'first', 'second');
    const summary = fold([two!, three!, one!, four!]);
    expect(summary.byPair[0]).toMatchObject({ wins: 1, losses: 1, judged: 2 });
    expect(summary.unmatched).toBe(0);
  });

  it('keeps a pair with an order in error out of the counts, and counts it', () => {
    const summary = fold([
      ...bothOrders('c1', 'a', 'b', 'first', null),
      ...bothOrders('c2', 'a', 'b', 'first', 'second'),
    ]);
    expect(summary.byPair[0]).toMatchObject({ judged: 1, wins: 1, errors: 1 });
    expect(summary.errorPairs).toBe(1);
  });

  it('ranks three systems by Bradley-Terry with intervals that hold the rating', () => {
    const results: JudgeResult[] = [];
    for (let i = 0; i < 12; i++) {
      results.push(
        ...bothOrders(
          `c${i}`,
          'a',
          'b',
          i % 4 === 0 ? 'second' : 'first',
          i % 4 === 0 ? 'first' : 'second',
          3,
        ),
        ...bothOrders(`c${i}`, 'a', 'c', 'first', 'second', 3),
        ...bothOrders(
          `c${i}`,
          'b',
          'c',
          i % 3 === 0 ? 'tie' : 'first',
          i % 3 === 0 ? 'tie' : 'second',
          3,
        ),
      );
    }
    const summary = fold(results);
    expect(summary.cases).toBe(12);
    expect(summary.ratings?.map((entry) => entry.system)).toEqual(['a', 'b', 'c']);
    const mean = summary.ratings!.reduce((sum, entry) => sum + entry.rating, 0) / 3;
    expect(mean).toBeCloseTo(1000, 9);
    for (const entry of summary.ratings!) {
      expect(entry.ratingCi![0]).toBeLessThanOrEqual(entry.rating);
      expect(entry.ratingCi![1]).toBeGreaterThanOrEqual(entry.rating);
    }
  });
});

describe('a judge that prefers the first slot on a known share of cases', () => {
  let server: ChatServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reports that share as its first-slot rate and the matching position consistency', async () => {
    const cases = 20;
    const biased = 6;
    // the better output is "good"; on cases 0..5 the model answers "first" whatever it sees
    server = await startChatServer((request) => {
      const messages = request.body.messages as { role: string; content: string }[];
      const shown = JSON.parse(messages[1]!.content.split('\n')[2]!) as {
        case_id: string;
        first: string;
      };
      const index = Number(shown.case_id.slice(1));
      const winner = index < biased || shown.first === 'good' ? 'first' : 'second';
      return { content: JSON.stringify({ winner, explanation: null, evidence: [] }) };
    });
    const judge = createModelJudge({
      provider: createOpenAIProvider({ baseURL: server.baseURL, model: 'm', apiKey: null }),
      name: 'prefer',
      judgeVersion: '1',
      rubric: 'Prefer the good answer.',
      rubricVersion: '1',
      maxAttempts: 1,
    });
    const contexts = Array.from({ length: cases }, (_, index) =>
      contextsOf(
        `{"case_id":"c${index}","input":"q","candidates":{"strong":"good","weak":"poor"}}`,
      ),
    ).flat();
    const results = await firstValueFrom(
      judgeMany(contexts, judge, { concurrency: 4 }).pipe(toArray()),
    );
    const summary = pairwiseAccumulator({ seed: 3, resamples: 500 });
    for (const result of results) summary.add(result);
    const report = summary.summary();
    expect(results.every((result) => result.status === 'passed')).toBe(true);
    expect(server.requests[0]?.body.response_format).toMatchObject({
      json_schema: { name: 'arena_pairwise_result' },
    });
    // unbiased cases answer first once, second once; biased ones first twice
    expect(report.firstSlotRate).toBe((cases + biased) / (2 * cases));
    expect(report.positionConsistency).toBe((cases - biased) / cases);
    expect(report.byPair[0]).toMatchObject({
      systems: ['strong', 'weak'],
      wins: cases - biased,
      inconsistent: biased,
      winRate: (cases - biased + biased / 2) / cases,
    });
  });
});
