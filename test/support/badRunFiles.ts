import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './cli.js';
import { scratchFolder } from './scratch.js';

/** One mistake written into the shipped hosting-capacity example, and where arena must point. */
export interface RunFileMistake {
  readonly name: string;
  /** Text of the example to replace (its first occurrence). */
  readonly from: string;
  readonly to: string;
  /** The part of `to` the reported line and column must point at. */
  readonly at: string;
  /** The YAML path the problem is reported at. */
  readonly path: string;
  /** A part of the message. */
  readonly says: string;
}

/** The mistakes of issue 10 that `arena validate` used to call ok. */
export const runFileMistakes: readonly RunFileMistake[] = [
  {
    name: 'a misspelt brain param',
    from: 'params: { population: 6 }',
    to: 'params: { populaton: 6 }',
    at: '6 }',
    path: 'schedule[0].explore_1.agents[1].brain.params.populaton',
    says: 'unknown key; did you mean "population"?',
  },
  {
    name: 'a brain param of the wrong type',
    from: 'params: { population: 6 }',
    to: 'params: { population: "six" }',
    at: '"six"',
    path: 'schedule[0].explore_1.agents[1].brain.params.population',
    says: 'expected number, got string "six"',
  },
  {
    name: 'a misspelt objective weight',
    from: 'weights: { pv_energy: 1 }',
    to: 'weights: { pv_enrgy: 1 }',
    at: '1 }',
    path: 'schedule[0].explore_1.agents[1].objective.params.weights.pv_enrgy',
    says: 'unknown key; did you mean "pv_energy"?',
  },
  {
    name: 'a misspelt termination rule key',
    from: 'consecutive: 2\n            min_evaluations: 3',
    to: 'consecutive: 2\n            min_evaluation: 3',
    at: '3',
    path: 'run_config.condition.params.agents.operator.success.min_evaluation',
    says: 'unknown key; did you mean "min_evaluations"?',
  },
  {
    name: 'a fractional patience',
    from: 'patience: 4',
    to: 'patience: 3.5',
    at: '3.5',
    path: 'run_config.condition.params.agents.operator.plateau.patience',
    says: 'must be a positive integer, got 3.5',
  },
  {
    name: 'an include regex that does not compile',
    from: 'include: ["^/der_params/midasmv/mapping/"]',
    to: 'include: ["^(/der_params/midasmv/mapping/"]',
    at: '"^(',
    path: 'schedule[0].explore_1.environments[0].environment.params.definition.include[0]',
    says: 'is not a valid regular expression (Invalid regular expression: /^(/der_params/midasmv/mapping//: Unterminated group)',
  },
];

/** The shipped example the mistakes are written into. */
export const hostingCapacityText = readFileSync(
  path.join(repoRoot, 'examples/hosting-capacity.yaml'),
  'utf8',
);

/** `text` with each mistake written in; throws when a mistake's `from` is not there. */
export function withMistakes(text: string, mistakes: readonly RunFileMistake[]): string {
  let result = text;
  for (const mistake of mistakes) {
    if (!result.includes(mistake.from)) throw new Error(`the example has no ${mistake.from}`);
    result = result.replace(mistake.from, mistake.to);
  }
  return result;
}

/** `(line L, column C)` of the mistake's `at` in `text`, as arena prints it. */
export function whereIn(text: string, mistake: RunFileMistake): string {
  const offset = text.indexOf(mistake.to) + mistake.to.indexOf(mistake.at);
  const before = text.slice(0, offset).split('\n');
  return `(line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})`;
}

/** A fresh folder holding `text` as `run.yaml`; returns the folder and the file. */
export function writeRunFile(text: string): { cwd: string; file: string } {
  const cwd = scratchFolder('arena-mistake-');
  const file = path.join(cwd, 'run.yaml');
  writeFileSync(file, text);
  return { cwd, file };
}

/** The shipped run files that carry a mistake on purpose, for the manual's `arena validate` transcripts. */
export const examplesWithMistakes: readonly string[] = ['tank-typo.yaml', 'bad-loop.yaml'];

/** The shipped sweep files: they name a run file, they are not one (`arena sweep`, not `arena run`). */
export const sweepExamples: readonly string[] = [
  'sweep.yaml',
  'sweep-random.yaml',
  'sweep-pareto.yaml',
];
