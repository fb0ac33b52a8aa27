// Writes examples/judge/sums.jsonl (1000 cases) and examples/judge/sums-replay.jsonl
// (the recorded verdicts of a judge on them): the data of docs/judge-sequential-gate.md.
// Deterministic: node scripts/make-sequential-example.mjs
import { writeFileSync } from 'node:fs';

let state = 20261203;
const next = () => {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 4294967296;
};
const cases = [];
const replies = [];
for (let i = 1; i <= 1000; i++) {
  const id = `sum-${String(i).padStart(4, '0')}`;
  const a = Math.floor(next() * 90) + 10;
  const b = Math.floor(next() * 90) + 10;
  const right = next() >= 0.07;
  const answer = right ? a + b : a + b + 1 + Math.floor(next() * 9);
  cases.push({
    case_id: id,
    input: { question: `What is ${a} + ${b}?` },
    candidate_output: String(answer),
    expected_output: String(a + b),
  });
  const verdict = right
    ? {
        status: 'passed',
        score: 1,
        label: 'correct',
        explanation: 'Matches.',
        evidence: [String(answer)],
      }
    : {
        status: 'failed',
        score: 0,
        label: 'incorrect',
        explanation: `Expected ${a + b}.`,
        evidence: [String(answer)],
      };
  replies.push({ case_id: id, content: JSON.stringify(verdict) });
}
const lines = (rows) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
writeFileSync(new URL('../examples/judge/sums.jsonl', import.meta.url), lines(cases));
writeFileSync(new URL('../examples/judge/sums-replay.jsonl', import.meta.url), lines(replies));
