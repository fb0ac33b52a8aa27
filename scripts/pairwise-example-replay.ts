// Writes examples/judge/pairwise-replay.jsonl: the recorded answers of the
// pairwise example's judge, keyed by the prompt hash of each order of each pair.
// Run by hand after changing the example's rubric or cases:
//   npx tsx scripts/pairwise-example-replay.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { loadJudgeConfig } from '../src/config/judgeConfig.js';
import { parsePairwiseCaseLine } from '../src/domain/judge/pairwiseCases.js';
import { subjectPromptSha256 } from '../src/domain/judge/pairwisePrompt.js';

/** The judge's answer for case, first system, second system. */
const answers: Record<string, 'first' | 'second' | 'tie'> = {
  'arith alpha beta': 'first',
  'arith beta alpha': 'first',
  'arith alpha gamma': 'first',
  'arith gamma alpha': 'second',
  'arith beta gamma': 'first',
  'arith gamma beta': 'second',
  'capital alpha beta': 'first',
  'capital beta alpha': 'second',
  'capital alpha gamma': 'tie',
  'capital gamma alpha': 'tie',
  'capital beta gamma': 'second',
  'capital gamma beta': 'first',
  'boiling alpha beta': 'first',
  'boiling beta alpha': 'second',
  'boiling alpha gamma': 'first',
  'boiling gamma alpha': 'second',
  'boiling beta gamma': 'first',
  'boiling gamma beta': 'first',
  'planet alpha beta': 'tie',
  'planet beta alpha': 'first',
  'planet alpha gamma': 'first',
  'planet gamma alpha': 'second',
  'planet beta gamma': 'first',
  'planet gamma beta': 'second',
};

const { config } = loadJudgeConfig('examples/judge/pairwise.yaml');
const lines: string[] = [];
readFileSync('examples/judge/pairwise-cases.jsonl', 'utf8')
  .split('\n')
  .forEach((text, index) => {
    const outcome = parsePairwiseCaseLine(text, index + 1, 'example');
    if (outcome.kind !== 'pairwise') return;
    for (const context of outcome.contexts) {
      const pair = context.pairwise!;
      const winner = answers[`${context.caseId} ${pair.first} ${pair.second}`];
      if (winner === undefined)
        throw new Error(`no answer for ${context.caseId} ${context.subjectId}`);
      const chosen =
        winner === 'tie' ? 'Both are equally good.' : `The ${winner} output answers plainly.`;
      const evidence = winner === 'second' ? pair.secondOutput : pair.firstOutput;
      lines.push(
        JSON.stringify({
          prompt_sha256: subjectPromptSha256(config.rubric.text, context),
          content: JSON.stringify({ winner, explanation: chosen, evidence: [evidence] }),
          usage: { input_tokens: 240, output_tokens: 30, total_tokens: 270 },
        }),
      );
    }
  });
writeFileSync('examples/judge/pairwise-replay.jsonl', `${lines.join('\n')}\n`);
console.log(`wrote ${lines.length} recorded answers`);
