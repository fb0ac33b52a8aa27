import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinComponents } from '../../../src/builtins/index.js';
import type { RunFileError } from '../../../src/config/runFileError.js';
import { validateRunFile, validateRunFileText } from '../../../src/config/runFileValidation.js';
import { hostingCapacityText } from '../../support/badRunFiles.js';
import { repoRoot } from '../../support/cli.js';
import { runFileProblems } from '../../support/configRejections.js';

const examples = path.join(repoRoot, 'examples');
const options = { sourcePath: 'run.yaml', baseDir: examples, builtins: builtinComponents };

const problems = (text: string) => runFileProblems(text, options);

describe('validateRunFile', () => {
  it.each([
    'hosting-capacity.yaml',
    'two-feeders.yaml',
    'cap-free-plateau.yaml',
    'custom-environment.yaml',
  ])('accepts the shipped example %s', async (name) => {
    const spec = await validateRunFile(path.join(examples, name), { builtins: builtinComponents });
    expect(spec.phases.length).toBeGreaterThan(0);
  });

  it("checks a user module's params against the paramsSchema it exports", async () => {
    const text = readFileSync(path.join(examples, 'custom-environment.yaml'), 'utf8').replace(
      'params: { target: 5, capacity: 10, inflow: 1 }',
      'params: { target: -5, capacity: 10, inflow: 1, capcity: 3 }',
    );
    expect(await problems(text)).toEqual([
      'schedule[0].train.environments[0].environment.params.target: Too small: expected number to be >0',
      'schedule[0].train.environments[0].environment.params.capcity: unknown key; did you mean "capacity"? (expected one of: target, capacity, inflow)',
    ]);
  });

  it('asks each environment for its proposal: a bus off the feeder is named at its place', async () => {
    const text = hostingCapacityText.replace('6: [[PV, 2.2]]', '9: [[PV, 2.2]]');
    const [problem, ...rest] = await problems(text);
    expect(rest).toEqual([]);
    expect(problem).toMatch(
      /^schedule\[0\]\.explore_1\.environments\[0\]\.environment\.params\.scenario\.der_params\.midasmv\.mapping\[9\]: bus 9 is not on the feeder/,
    );
  });

  it('needs exactly one proposing environment in a meta phase', async () => {
    const text = hostingCapacityText
      .replace('include: ["^/der_params/midasmv/mapping/"]', 'include: ["^nothing$"]')
      .replace(/ {16}selector_manifest:[\s\S]*?high: 13\.2\n/, '');
    expect(await problems(text)).toEqual([
      'schedule[0].explore_1.environments: the meta profile (a non-empty episode_start) needs exactly one environment that proposes a non-empty definition; none does',
    ]);
  });

  it('rejects params given to a condition that takes none', async () => {
    const text = hostingCapacityText.replace(
      /run_config:[\s\S]*$/,
      'run_config:\n  condition: { name: arena:MaxEpisodesTerminationCondition, params: { episodes: 3 } }\n',
    );
    expect(await problems(text)).toEqual(['run_config.condition.params.episodes: unknown key']);
  });

  it('rejects a rule for an agent a training phase does not have, which no checkpoint could complete', async () => {
    const text = hostingCapacityText.replace(/^ {8}operator:$/m, '        operatr:');
    expect(await problems(text)).toEqual([
      'run_config.condition.params.agents.operatr: no agent "operatr" in training phases schedule[0].explore_1, schedule[1].explore_2, schedule[2].explore_3, schedule[3].explore_4, schedule[4].explore_5, schedule[5].tune (its agents: planner, operator), so its checkpoints could never be complete; did you mean "operator"?',
    ]);
  });

  it('gives every problem its line and column, in document order', async () => {
    const text = hostingCapacityText
      .replace('patience: 4', 'patience: 3.5')
      .replace('params: { population: 6 }', 'params: { populaton: 6 }');
    const error = (await validateRunFileText(text, options).catch(
      (caught) => caught,
    )) as RunFileError;
    const lines = text.split('\n');
    const lineOf = (needle: string) => lines.findIndex((line) => line.includes(needle)) + 1;
    expect(error.issues.map((issue) => issue.location?.line)).toEqual([
      lineOf('populaton'),
      lineOf('patience: 3.5'),
    ]);
  });
});
