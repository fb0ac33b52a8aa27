import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { RunSummary } from '../../src/actors/experiment/runSummary.js';
import { repoRoot, runArena } from '../support/cli.js';
import { scratchFolder } from '../support/scratch.js';

const examples = path.join(repoRoot, 'examples');

function workDir(): string {
  return scratchFolder('arena-examples-');
}

async function runJson(file: string): Promise<RunSummary> {
  const result = await runArena(['run', file, '--json'], { cwd: workDir() });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as RunSummary;
}

describe('the shipped examples', () => {
  it('validates every example run file', async () => {
    for (const name of [
      'hosting-capacity.yaml',
      'hosting-capacity-loop.yaml',
      'two-feeders.yaml',
      'cap-free-plateau.yaml',
      'custom-environment.yaml',
    ]) {
      const result = await runArena(['validate', path.join(examples, name)]);
      expect({ name, code: result.code, stderr: result.stderr }).toEqual({
        name,
        code: 0,
        stderr: '',
      });
    }
  });

  it('runs the npm start study on a smaller budget: the evaluation rules end its training phases', async () => {
    // Three exploring phases instead of five, no tuning phase, the same rules.
    const document = parse(readFileSync(path.join(examples, 'hosting-capacity.yaml'), 'utf8')) as {
      schedule: Record<string, unknown>[];
    };
    document.schedule = document.schedule.filter((phase) => {
      const [name] = Object.keys(phase);
      return ['explore_1', 'explore_2', 'explore_3', 'test'].includes(name ?? '');
    });
    const file = path.join(workDir(), 'hosting-capacity-small.yaml');
    writeFileSync(file, stringify(document));
    const summary = await runJson(file);
    expect(summary.status).toBe('succeeded');
    const training = summary.phases.filter((phase) => phase.mode === 'train');
    expect(training.map((phase) => phase.name)).toEqual(['explore_1', 'explore_2', 'explore_3']);
    for (const phase of training) expect(['success', 'plateau']).toContain(phase.reason);
    // the planner tried three PV sizes, one per start request, and each came from the bounds
    const sizes = summary.phases.map(
      (phase) => phase.metaDecision?.candidate['midas.definition.pv_bus_6_peak_mw'],
    );
    expect(sizes.slice(0, 3)).toEqual([2.2, 4.4, expect.closeTo(6.6, 9)]);
  });

  it('runs the study as one phase with the repeated meta loop: the planner tries each PV size, then keeps the peak', async () => {
    const summary = await runJson(path.join(examples, 'hosting-capacity-loop.yaml'));
    expect(summary.status).toBe('succeeded');
    expect(summary.phases).toHaveLength(1);
    const loop = summary.phases[0]?.metaLoop ?? [];
    const sizes = loop.map((decision) => decision.candidate['midas.definition.pv_bus_6_peak_mw']);
    // a decision every 20 training episodes (25 with their evaluation episodes)
    expect(loop.map((decision) => decision.firstEpisode)).toEqual(
      loop.map((_, index) => 1 + 25 * index),
    );
    expect(sizes.slice(0, 5)).toEqual([
      2.2,
      4.4,
      expect.closeTo(6.6, 9),
      8.8,
      expect.closeTo(11, 9),
    ]);
    // the five-phase study's answer: returns peak at 4.4-6.6 MW; the planner keeps 4.4
    for (const size of sizes.slice(5)) expect(size).toBe(4.4);
    const best = loop
      .slice(0, 5)
      .reduce((held, decision) =>
        (decision.evaluationMeanReturn ?? -Infinity) > (held.evaluationMeanReturn ?? -Infinity)
          ? decision
          : held,
      );
    expect(best.candidate['midas.definition.pv_bus_6_peak_mw']).toBe(4.4);
    expect(summary.phases[0]?.reason).toBe('success');
  });

  it('runs two agents in turn groups without a meta turn; the learner beats the random baseline', async () => {
    const summary = await runJson(path.join(examples, 'two-feeders.yaml'));
    const test = summary.phases.find((phase) => phase.name === 'test');
    expect(summary.phases.every((phase) => phase.metaDecision === null)).toBe(true);
    expect(test?.meanReturnsByAgent.north_operator).toBeGreaterThan(
      test?.meanReturnsByAgent.south_operator ?? Number.POSITIVE_INFINITY,
    );
  });

  it('stops a cap-free training phase by plateau', async () => {
    const summary = await runJson(path.join(examples, 'cap-free-plateau.yaml'));
    expect(summary.phases[0]?.reason).toBe('plateau');
  });

  it('runs a user-written environment module', async () => {
    const summary = await runJson(path.join(examples, 'custom-environment.yaml'));
    expect(['success', 'plateau']).toContain(summary.phases[0]?.reason);
  });

  it('runs examples/my-env.js copied next to a run file in a folder with no packages, and checks its params as in the checkout', async () => {
    // a user's own folder: no node_modules, nothing to import but what the file holds
    const folder = workDir();
    for (const file of ['my-env.js', 'custom-environment.yaml', 'tank-typo.yaml']) {
      copyFileSync(path.join(examples, file), path.join(folder, file));
    }
    const copied = await runArena(['run', 'custom-environment.yaml', '--json'], { cwd: folder });
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    const inCheckout = await runJson(path.join(examples, 'custom-environment.yaml'));
    const { phases } = JSON.parse(copied.stdout) as RunSummary;
    expect(phases).toEqual(inCheckout.phases);
    const mistakes = await runArena(['validate', 'tank-typo.yaml'], { cwd: folder });
    const inRepo = await runArena(['validate', 'examples/tank-typo.yaml']);
    expect(mistakes.code).toBe(2);
    expect(mistakes.stderr).toBe(
      inRepo.stderr.replaceAll('examples/tank-typo.yaml', 'tank-typo.yaml'),
    );
    expect(mistakes.stderr).toContain('params.capcity: unknown key; did you mean "capacity"?');
  });
});
