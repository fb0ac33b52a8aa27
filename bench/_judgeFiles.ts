import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** A cases file of `count` arithmetic questions in `folder`, one JSON line a case. */
export function casesFile(folder: string, count: number): string {
  const file = path.join(folder, `cases-${count}.jsonl`);
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    lines.push(
      JSON.stringify({
        case_id: `case-${index}`,
        input: { question: `What is ${index} + 1?` },
        candidate_output: String(index + 1),
        observation: { model: 'target', provider: 'openai' },
      }),
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** A judge config with one judge on the chat server at `baseURL`, and `extraLines` (e.g. gates). */
export function configFile(folder: string, baseURL: string, extraLines: string[] = []): string {
  const file = path.join(folder, 'judge.yaml');
  writeFileSync(
    file,
    [
      'rubric: { version: "1", text: "Score it." }',
      `models: { bench: { provider: openai, model: bench-model, base_url: "${baseURL}" } }`,
      'judges: { bench: { model: bench, timeout_seconds: 30, max_attempts: 2 } }',
      ...extraLines,
      '',
    ].join('\n'),
  );
  return file;
}

/** `_judgeServer.ts` in a process of its own, answering after `latencyMs`. */
export async function startJudgeServer(
  latencyMs: number,
): Promise<{ baseURL: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '_judgeServer.ts'), String(latencyMs)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { baseURL: chunk.toString('utf8').split('\n')[0]!, child };
}
