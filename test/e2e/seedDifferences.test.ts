import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JudgeResponseError } from '../../src/domain/judge/index.js';
import { parseJudgePayload } from '../../src/domain/judge/payload.js';
import { repoRoot, runArena } from '../support/cli.js';

// The differences from the seeds that docs/differences.md lists:
// each test pins arena's choice.

let folder: string;
const study = readFileSync(path.join(repoRoot, 'examples/hosting-capacity.yaml'), 'utf8');

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-seed-differences-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** `arena validate` on the study with one change. */
async function validateChanged(name: string, from: string, to: string) {
  const changed = study.replace(from, to);
  expect(changed).not.toBe(study);
  const file = path.join(folder, name);
  writeFileSync(file, changed);
  return { file, ...(await runArena(['validate', file])) };
}

describe('deliberate differences from the seeds', () => {
  it('rejects a scenario holding .inf or .nan whole, naming its params path (it travels as JSON)', async () => {
    for (const value of ['.inf', '-.inf', '.nan']) {
      const { file, code, stdout, stderr } = await validateChanged(
        'non-finite.yaml',
        '                step_size: 900',
        `                step_size: 900\n                limit: ${value}`,
      );
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `arena: ${file}: invalid run file, 1 problem:\n  schedule[0].explore_1.environments[0].environment.params.scenario: expected plain data (strings, finite numbers, booleans, null, lists and mappings) (line 28, column 17)\n`,
      );
    }
  });

  it('rejects a threshold given as a numeric string or a boolean, naming the field', async () => {
    for (const [value, shown] of [
      ['"33"', '"33"'],
      ['true', 'true'],
    ]) {
      const { file, code, stderr } = await validateChanged(
        'threshold.yaml',
        'threshold: 33',
        `threshold: ${value}`,
      );
      expect(code).toBe(2);
      expect(stderr).toBe(
        `arena: ${file}: invalid run file, 1 problem:\n  run_config.condition.params.agents.operator.success.threshold: must be a finite number, got ${shown} (line 81, column 24)\n`,
      );
    }
  });

  it('takes 2.0 for an integer field as the number 2', async () => {
    const { code, stdout, stderr } = await validateChanged(
      'float-integers.yaml',
      'consecutive: 2\n',
      'consecutive: 2.0\n',
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok: hosting-capacity, 7 phases/);
  });

  it('rejects a judge score given as a numeric string or a boolean', () => {
    for (const [score, received] of [
      ['"0.8"', 'a string of 3 characters'],
      ['true', 'true'],
    ]) {
      expect(() => parseJudgePayload(`{"status":"passed","score":${score},"label":"ok"}`)).toThrow(
        new JudgeResponseError(
          `judge response failed validation: score: expected a finite number or null, got ${received}`,
        ),
      );
    }
  });
});
