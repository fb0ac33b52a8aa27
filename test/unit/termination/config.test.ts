import { describe, expect, it } from 'vitest';
import {
  configurationFingerprint,
  parseTerminationConfig,
  TerminationConfigError,
  terminationConfigIssues,
} from '../../../src/domain/termination/index.js';
import { plateauRule, successRule } from '../../support/terminationRules.js';

function messageOf(raw: unknown): string {
  try {
    parseTerminationConfig(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(TerminationConfigError);
    expect((error as TerminationConfigError).code).toBe('TERMINATION_CONFIG');
    expect((error as TerminationConfigError).name).toBe('TerminationConfigError');
    return (error as Error).message;
  }
  throw new Error('expected parseTerminationConfig to throw');
}

describe('parseTerminationConfig', () => {
  it('parses the seed example into camelCase rules, agents sorted', () => {
    const config = parseTerminationConfig({
      agents: {
        SAC: { success: successRule(), plateau: plateauRule() },
        A2C: { success: successRule(), plateau: plateauRule() },
      },
    });
    expect(config.agentNames).toEqual(['A2C', 'SAC']);
    expect(config.agents.SAC).toEqual({
      success: {
        metric: 'objective',
        threshold: 0.8,
        direction: 'greater_equal',
        consecutive: 2,
        minEvaluations: 3,
      },
      plateau: {
        metric: 'objective',
        direction: 'maximize',
        minDelta: 0.01,
        patience: 2,
        minEvaluations: 3,
        window: 1,
      },
    });
  });

  it('accepts the agents mapping itself and an agent with only one category', () => {
    const config = parseTerminationConfig({ SAC: { plateau: plateauRule() } });
    expect(config.agents.SAC?.success).toBeNull();
  });

  it('rejects booleans where integers are expected, naming agent and field', () => {
    expect(messageOf({ agents: { SAC: { success: successRule({ consecutive: true }) } } })).toBe(
      'agent "SAC": success.consecutive must be a positive integer (booleans are not integers), got true',
    );
  });

  it.each([
    [{ consecutive: 0 }, 'success.consecutive must be a positive integer, got 0'],
    [{ consecutive: 1.5 }, 'success.consecutive must be a positive integer, got 1.5'],
    [{ min_evaluations: -1 }, 'success.min_evaluations must be a positive integer, got -1'],
    [
      { threshold: Number.POSITIVE_INFINITY },
      'success.threshold must be a finite number, got Infinity',
    ],
    [{ threshold: '0.8' }, 'success.threshold must be a finite number, got "0.8"'],
    [
      { direction: 'maximize' },
      'success.direction must be greater_equal or less_equal, got "maximize"',
    ],
    [{ metric: '' }, 'success.metric must be a non-empty string, got ""'],
  ])('rejects success rule %j', (override, expected) => {
    expect(messageOf({ agents: { SAC: { success: successRule(override) } } })).toBe(
      `agent "SAC": ${expected}`,
    );
  });

  it.each([
    [{ min_delta: -0.1 }, 'plateau.min_delta must be a non-negative finite number, got -0.1'],
    [{ min_delta: Number.NaN }, 'plateau.min_delta must be a non-negative finite number, got NaN'],
    [
      { patience: false },
      'plateau.patience must be a positive integer (booleans are not integers), got false',
    ],
    [{ window: 0 }, 'plateau.window must be a positive integer, got 0'],
    [
      { direction: 'greater_equal' },
      'plateau.direction must be maximize or minimize, got "greater_equal"',
    ],
  ])('rejects plateau rule %j', (override, expected) => {
    expect(messageOf({ agents: { SAC: { plateau: plateauRule(override) } } })).toBe(
      `agent "SAC": ${expected}`,
    );
  });

  it('requires the exact key set of each rule', () => {
    const { min_evaluations: _dropped, ...missing } = successRule();
    expect(messageOf({ agents: { SAC: { success: missing } } })).toBe(
      'agent "SAC": success.min_evaluations is missing; it must be a positive integer',
    );
    expect(messageOf({ agents: { SAC: { plateau: plateauRule({ extra: 1 }) } } })).toBe(
      'agent "SAC": plateau has unknown key "extra"; expected exactly metric, direction, min_delta, patience, min_evaluations, window',
    );
  });

  it('rejects unknown rule names and agents without rules', () => {
    expect(messageOf({ agents: { SAC: { succes: successRule() } } })).toBe(
      'agent "SAC": unknown rule "succes" (did you mean "success"?); expected success and/or plateau',
    );
    expect(messageOf({ agents: { SAC: {} } })).toBe(
      'agent "SAC": needs a success and/or plateau rule',
    );
    expect(messageOf({ agents: { SAC: 3 } })).toBe('agent "SAC": rules must be a mapping, got 3');
    expect(messageOf({ agents: { SAC: { success: [] } } })).toBe(
      'agent "SAC": success must be a mapping, got a list',
    );
  });

  it('rejects an empty or missing agents mapping', () => {
    expect(messageOf({ agents: {} })).toBe(
      'agents must be a non-empty mapping of agent name to rules, got a mapping',
    );
    expect(messageOf(null)).toBe(
      'agents must be a non-empty mapping of agent name to rules, got null',
    );
    expect(messageOf({ agents: [] })).toBe(
      'agents must be a non-empty mapping of agent name to rules, got a list',
    );
  });

  it('requires a category configured for one agent to be configured for all', () => {
    expect(
      messageOf({
        agents: {
          A: { success: successRule(), plateau: plateauRule() },
          B: { success: successRule() },
        },
      }),
    ).toBe(
      'agent "B": plateau is missing; a plateau rule must be configured for every agent or no agent',
    );
  });

  it('gives equal fingerprints to equal rules written in a different key order', () => {
    const a = parseTerminationConfig({
      agents: { A: { success: successRule() }, B: { success: successRule() } },
    });
    const reordered = Object.fromEntries(Object.entries(successRule()).reverse());
    const b = parseTerminationConfig({
      agents: { B: { success: reordered }, A: { success: reordered } },
    });
    expect(configurationFingerprint(a)).toBe(configurationFingerprint(b));
    const c = parseTerminationConfig({
      agents: { A: { success: successRule({ threshold: 0.9 }) }, B: { success: successRule() } },
    });
    expect(configurationFingerprint(c)).not.toBe(configurationFingerprint(a));
  });
});

describe('terminationConfigIssues', () => {
  it('names an unknown key with the key it most likely meant', () => {
    const { min_evaluations: _dropped, ...rule } = successRule();
    const issues = terminationConfigIssues({
      agents: { SAC: { success: { ...rule, min_evaluation: 3 } } },
    });
    expect(issues.map((issue) => [issue.path, issue.detail])).toEqual([
      [['agents', 'SAC', 'success', 'min_evaluations'], 'missing; it must be a positive integer'],
      [
        ['agents', 'SAC', 'success', 'min_evaluation'],
        'unknown key; did you mean "min_evaluations"? (expected exactly metric, threshold, direction, consecutive, min_evaluations)',
      ],
    ]);
  });

  it('lists every problem of every agent at once', () => {
    const issues = terminationConfigIssues({
      A: { plateau: plateauRule({ patience: 3.5, window: 0 }) },
      B: { succes: successRule() },
      C: { plateau: plateauRule() },
    });
    expect(issues.map((issue) => issue.path.join('.'))).toEqual([
      'A.plateau.patience',
      'A.plateau.window',
      'B.succes',
      'B',
    ]);
    expect(issues[3]?.detail).toBe(
      'plateau is missing; a plateau rule must be configured for every agent or no agent',
    );
    expect(issues[0]?.detail).toBe('must be a positive integer, got 3.5');
    expect(messageOf({ A: { plateau: plateauRule({ patience: 3.5 }) }, B: 3 })).toBe(
      'agent "A": plateau.patience must be a positive integer, got 3.5; agent "B": rules must be a mapping, got 3',
    );
  });

  it('names every agent that misses a category the others configure', () => {
    const issues = terminationConfigIssues({
      agents: {
        A: { success: successRule(), plateau: plateauRule() },
        B: { success: successRule() },
        C: { success: successRule() },
      },
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      ['agents', 'B'],
      ['agents', 'C'],
    ]);
  });

  it('finds nothing wrong with rules parseTerminationConfig accepts', () => {
    expect(terminationConfigIssues({ agents: { SAC: { success: successRule() } } })).toEqual([]);
  });
});
