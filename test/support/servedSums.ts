import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReceivedRequest } from './chatServer.js';
import { repoRoot } from './cli.js';
import { passFailVerdict } from './judgeFleet.js';

const example = (file: string) => path.join(repoRoot, 'examples/judge', file);

/**
 * What a model judging examples/judge/sums.jsonl answers: passed when the
 * candidate says the expected sum. The verdict depends on the case alone.
 */
export function sumVerdict(request: ReceivedRequest): { passed: boolean; content: string } {
  const text = (request.body.messages as { content: string }[]).at(-1)!.content;
  const candidate = /"candidate_output":"(\d+)"/.exec(text)![1];
  const expected = /"expected_output":"(\d+)"/.exec(text)![1];
  const passed = candidate === expected;
  return { passed, content: passFailVerdict(passed) };
}

/** examples/judge/sequential.yaml in `folder` (beside a copy of its replay file), edited. */
export function editedSequentialConfig(folder: string, edit: (yaml: string) => string): string {
  copyFileSync(example('sums-replay.jsonl'), path.join(folder, 'sums-replay.jsonl'));
  const config = path.join(folder, 'sequential.yaml');
  writeFileSync(config, edit(readFileSync(example('sequential.yaml'), 'utf8')));
  return config;
}

/** examples/judge/sequential.yaml with its judge on the model at `baseURL` and `min_pass_rate` at `bar`. */
export function servedSequentialConfig(folder: string, baseURL: string, bar: number): string {
  return editedSequentialConfig(folder, (yaml) =>
    yaml
      .replace(
        /recorded:\n(?: {4}.*\n)+/,
        `served:\n    provider: openai\n    model: llama3.1:8b\n    base_url: ${baseURL}\n`,
      )
      .replace('model: recorded', 'model: served')
      .replace('min_pass_rate: 0.8', `min_pass_rate: ${bar}`),
  );
}

/** The `sequential` object of `arena judge --json`'s summary (its last stdout line). */
export interface SequentialJson {
  decision: 'pass' | 'fail';
  judged: number;
  decidedAt: number;
  total: number;
  wealth: number;
  seed: number;
  confidenceSequence: [number, number];
}

export function sequentialOf(stdout: string): SequentialJson {
  const last = stdout.trim().split('\n').at(-1)!;
  return (JSON.parse(last) as { sequential: SequentialJson }).sequential;
}
