/**
 * What `arena judge --json` without `--out` prints on stdout: the result
 * lines, then the summary object as the last line.
 *
 * @example
 * ```ts
 * const { results, summary } = judgeStdout(run.stdout);
 * summary.failedGates; // []
 * ```
 */
export function judgeStdout(stdout: string): {
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON read by each test as it needs
  results: any[];
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON read by each test as it needs
  summary: any;
} {
  const parsed = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  return { results: parsed.slice(0, -1), summary: parsed.at(-1) };
}
