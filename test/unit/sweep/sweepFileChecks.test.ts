import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinComponents } from '../../../src/builtins/index.js';
import { parseSweepFile, type SweepFileError } from '../../../src/config/sweepFile.js';
import { prepareSweepTrials } from '../../../src/config/sweepTrials.js';

const examples = path.resolve(import.meta.dirname, '../../../examples');
const shipped = readFileSync(path.join(examples, 'sweep.yaml'), 'utf8');
const sweepPath = path.join(examples, 'sweep.yaml');

/** The problems a sweep file's text gets, as `path: message` lines, or [] when it is accepted. */
async function problemsOf(text: string, maxTrials?: number): Promise<string[]> {
  try {
    const spec = parseSweepFile(text, { path: sweepPath });
    await prepareSweepTrials(spec, sweepPath, {
      builtins: builtinComponents,
      ...(maxTrials !== undefined ? { maxTrials } : {}),
    });
    return [];
  } catch (error) {
    return (error as SweepFileError).issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
}

describe('sweep file checks', () => {
  it('accepts the shipped sweep', async () => {
    expect(await problemsOf(shipped)).toEqual([]);
  });

  it('names low and high for a NaN or infinite bound, not the whole parameter', async () => {
    const text = shipped
      .replace('values: [4, 8]', 'low: .nan\n    high: .inf')
      .replace('search: grid', 'search: { random: { trials: 3 } }');
    expect(await problemsOf(text)).toEqual([
      'parameters[1].low: expected a finite number, got number NaN',
      'parameters[1].high: expected a finite number, got number Infinity',
    ]);
  });

  it("says what a union such as search takes, in the file's own words", async () => {
    expect(await problemsOf(shipped.replace('search: grid', 'search: grd'))).toEqual([
      'search: expected grid or { random: { trials: N } }',
    ]);
  });

  it('counts the trials before expanding any: a grid over --max-trials is refused naming the count', async () => {
    const big = (count: number) => `[${Array.from({ length: count }, (_, i) => i).join(', ')}]`;
    const text = shipped.replace('values: [2, 4, 6, 8]', `values: ${big(1000)}`);
    expect(await problemsOf(text.replace('values: [4, 8]', `values: ${big(1000)}`))).toEqual([
      'parameters: the sweep makes 1000000 trials (1000 × 1000 values), more than --max-trials 10000: narrow it, or raise --max-trials',
    ]);
    expect(await problemsOf(shipped, 7)).toEqual([
      'parameters: the sweep makes 8 trials (4 × 2 values), more than --max-trials 7: narrow it, or raise --max-trials',
    ]);
    const random = shipped.replace('search: grid', 'search: { random: { trials: 1000000000 } }');
    expect(await problemsOf(random)).toEqual([
      'search.random.trials: the sweep makes 1000000000 trials, more than --max-trials 10000: narrow it, or raise --max-trials',
    ]);
  });

  it('checks an objective against the run file: its agent, and a metric its built-in brain reports', async () => {
    expect(await problemsOf(shipped.replace('agent: operator', 'agent: operater'))).toEqual([
      `objective.agent: no agent 'operater' in cap-free-plateau.yaml; did you mean "operator"? (agents: operator)`,
    ]);
    expect(await problemsOf(shipped.replace('metric: objective', 'metric: objectve'))).toEqual([
      `objective.metric: agent 'operator' does not report 'objectve'; did you mean "objective"? (it reports: objective, episodes)`,
    ]);
    const weighted = shipped.replace(
      /objective:\n {2}metric: objective\n {2}agent: operator\n {2}direction: maximize/,
      'objectives:\n  - { metric: objective, weights: { operator: 1, ghost: 2 }, direction: maximize }\n  - { metric: episodes, agent: operator, direction: minimize }',
    );
    expect(await problemsOf(weighted)).toEqual([
      `objectives[0].weights.ghost: no agent 'ghost' in cap-free-plateau.yaml (agents: operator)`,
    ]);
  });
});
