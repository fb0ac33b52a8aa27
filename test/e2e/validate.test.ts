import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';

const fixture = (name: string) => path.join(repoRoot, 'test/fixtures/runs', name);

describe('arena validate', () => {
  it('prints a one-line summary and exits 0 for a valid run file', async () => {
    const run = await runArena(['validate', fixture('meta-two-phases.yaml')]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok: hosting-capacity, 2 phases (train, test), profile meta\n');
    expect(run.code).toBe(0);
  });

  it('prints every problem, one per line with its YAML path, and exits 2', async () => {
    const run = await runArena(['validate', fixture('many-errors.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`arena: ${fixture('many-errors.yaml')}: invalid run file, 8 problems:`);
    expect(lines.slice(1).map((line) => line.trim().split(':')[0])).toEqual([
      'seed',
      'colour',
      'schedule[0].train.environments[0].environment.name',
      'schedule[0].train.agents[1].name',
      'schedule[0].train.simulation.params.script.loop',
      'schedule[0].train.phase_config.episdoes',
      'schedule[0].train.phase_config.max_steps',
      'schedule[1].test.phase_config.mode',
    ]);
    expect(lines).toContain(
      '  schedule[0].train.simulation.params.script.loop: expected a non-empty list of turn groups, got an empty list (line 18, column 19)',
    );
  });

  it('resolves components: reports a missing module and an unknown built-in', async () => {
    const run = await runArena(['validate', fixture('missing-components.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid run file, 2 problems:');
    expect(run.stderr).toContain(
      `  schedule[0].train.environments[0].environment: module file not found: ${fixture('my-env.js')} (./my-env.js relative to ${fixture('')}) (line 7, column 24)`,
    );
    expect(run.stderr).toContain(
      '  schedule[0].train.agents[0].brain: unknown built-in "arena:NoSuchBrain" (known built-ins: ',
    );
  });

  it('summarises phases whose profiles differ per phase', async () => {
    const run = await runArena(['validate', fixture('generic-then-meta.yaml')]);
    expect(run.stdout).toBe(
      'ok: mixed-profiles, 2 phases (warmup, meta), profile warmup: generic, meta: meta\n',
    );
    expect(run.code).toBe(0);
  });

  it('exits 2 and says so for a file that does not exist', async () => {
    const run = await runArena(['validate', fixture('absent.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot read the run file (no such file)');
  });
});

describe('arena schema', () => {
  it('prints the run file JSON Schema as valid JSON', async () => {
    const run = await runArena(['schema']);
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout) as {
      $schema: string;
      title: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, { type?: string; items?: unknown[] }>;
    };
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.title).toBe('arena run file');
    expect(schema.required).toEqual(['uid', 'seed', 'version', 'schedule']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.seed?.type).toBe('integer');
    expect(schema.properties.schedule?.type).toBe('array');
    expect(schema.properties.schedule?.items).toHaveLength(1);
  });
});
