// Judge a few answers with arena's model judge against an OpenAI-compatible server.
// The example starts its own tiny server on 127.0.0.1 (node:http) that grades by
// comparing the candidate with the expected answer; point base_url at Ollama, vLLM
// or llama.cpp instead to judge with a real model.
//   node examples/embed/judge.mjs   (after npm ci, which builds arena)

import { createServer } from 'node:http';
import { judgeFromConfig, judgeMany, parseJudgeConfig } from 'arena-runtime';
import { toArray } from 'rxjs';

/** The grader behind the server: reads the candidate block of the prompt, answers as a judge model. */
function grade(prompt) {
  const candidate = JSON.parse(prompt.split('\n')[2]);
  if (candidate.expected_output === null) return { status: 'skipped', score: null, label: null };
  const said = String(candidate.candidate_output).toLowerCase();
  const correct = said.includes(String(candidate.expected_output).toLowerCase());
  return {
    status: correct ? 'passed' : 'failed',
    score: correct ? 1 : 0,
    label: correct ? 'correct' : 'incorrect',
    explanation: `expected ${JSON.stringify(candidate.expected_output)}`,
    evidence: [String(candidate.candidate_output)],
  };
}

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const { model, messages } = JSON.parse(body);
    const verdict = grade(messages.find((message) => message.role === 'user').content);
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-local',
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: JSON.stringify(verdict) },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      }),
    );
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const config = parseJudgeConfig({
  judge: 'strict',
  rubric: {
    version: '2026-01',
    text: 'Pass an answer that states the expected answer; label it "correct" or "incorrect".',
  },
  models: {
    local: {
      provider: 'openai',
      provider_name: 'local',
      model: 'grader-1',
      base_url: `http://127.0.0.1:${server.address().port}/v1`,
      max_output_tokens: 400,
    },
  },
  judges: { strict: { model: 'local', judge_version: '1', timeout_seconds: 10, max_attempts: 2 } },
});
const judge = await judgeFromConfig(config);

const subject = (caseId, question, candidateOutput, expectedOutput) => ({
  evaluationRunId: 'embed-example',
  caseId,
  subjectId: `${caseId}/candidate`,
  input: { question },
  candidateOutput,
  ...(expectedOutput === undefined ? {} : { expectedOutput }),
  observation: { model: 'qwen2.5:0.5b', provider: 'ollama' },
});
const cases = [
  subject('arith-1', 'What is 2 + 2?', '4', '4'),
  subject('arith-2', 'What is 7 * 6?', '36', '42'),
  subject('capital-1', 'What is the capital of Australia?', 'Canberra, not Sydney.', 'Canberra'),
  subject('open-1', 'Name a prime number.', '7'),
];

judgeMany(cases, judge, { concurrency: 2 })
  .pipe(toArray())
  .subscribe({
    next: (results) => {
      for (const result of results.sort((a, b) => a.caseId.localeCompare(b.caseId))) {
        const score = result.score === null ? '' : ` score ${result.score}`;
        console.log(`${result.caseId}: ${result.status}${score} (${result.label ?? 'no label'})`);
      }
      const passed = results.filter((result) => result.status === 'passed').length;
      const tokens = results.reduce((sum, result) => sum + (result.usage?.totalTokens ?? 0), 0);
      console.log(`${passed} of ${results.length} passed; ${tokens} tokens`);
    },
    error: (error) => {
      console.error(error);
      process.exitCode = 1;
      server.close();
    },
    complete: () => server.close(),
  });
