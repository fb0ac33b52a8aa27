/**
 * Writes examples/judge/compare/before.jsonl and after.jsonl: two `arena
 * judge --out` files over the same 40 questions, as a judge would grade a
 * model before and after a change that helps a little on most questions.
 * Seeded, so a rerun writes the same bytes:
 *
 *     npx tsx scripts/make-compare-examples.ts
 *
 * Each question has a difficulty both runs share (that is what pairing
 * removes); each run adds its own small noise, and "after" adds 0.05.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRng } from '../src/domain/shared/random.js';

const folder = path.resolve(import.meta.dirname, '../examples/judge/compare');
const rng = createRng(32);
const questions = Array.from({ length: 40 }, (_, index) => ({
  caseId: `q-${String(index + 1).padStart(2, '0')}`,
  ease: rng.uniform(0.15, 0.95),
}));

function resultsFile(run: string, lift: number, seconds: number): string {
  return questions
    .map(({ caseId, ease }, index) => {
      const score =
        Math.round(Math.min(1, Math.max(0, ease + lift + 0.04 * rng.normal())) * 100) / 100;
      const status = score >= 0.6 ? 'passed' : 'failed';
      return JSON.stringify({
        evaluationRunId: run,
        caseId,
        subjectId: caseId,
        judge: 'strict',
        judgeVersion: '1',
        promptSha256: '9d0f5b8e2c1a7f3e6b4d2c0a8e6f4b2d0c8a6e4f2b0d8c6a4e2f0b8d6c4a2e0f',
        rubricVersion: '2026-01',
        status,
        score,
        label: status === 'passed' ? 'correct' : 'incorrect',
        evidence: [],
        model: 'llama3.1:8b',
        usage: {
          inputTokens: 210,
          outputTokens: 40,
          reasoningTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          totalTokens: 250,
        },
        costUsd: 0,
        durationMs: 812,
        attemptCount: 1,
        errorType: null,
        detail: null,
        createdAt: `2026-12-01T10:${String(seconds + Math.floor(index / 20)).padStart(2, '0')}:${String((index * 3) % 60).padStart(2, '0')}.000Z`,
      });
    })
    .map((line) => `${line}\n`)
    .join('');
}

writeFileSync(path.join(folder, 'before.jsonl'), resultsFile('before', 0, 0));
writeFileSync(path.join(folder, 'after.jsonl'), resultsFile('after', 0.05, 30));
