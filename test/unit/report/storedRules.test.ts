import { describe, expect, it } from 'vitest';
import { storedRules } from '../../../src/report/storedRules.js';
import { lineRunFile } from '../controller/runs.js';

describe('storedRules', () => {
  it('reads the success threshold from the stored run file', () => {
    const { rules, note } = storedRules(lineRunFile({ plateau: true }), 'line.yaml');
    expect(note).toBeNull();
    expect(rules?.agents.operator?.success).toEqual({
      metric: 'objective',
      threshold: 0.8,
      direction: 'greater_equal',
      consecutive: 2,
      minEvaluations: 2,
    });
    expect(rules?.agents.operator?.plateau?.patience).toBe(2);
  });

  it('says why when the stored run file does not parse', () => {
    const { rules, note } = storedRules('uid: [unclosed', 'old.yaml');
    expect(rules).toBeNull();
    expect(note).toMatch(/^the stored run file old\.yaml does not parse: old\.yaml: /);
  });

  it('says so when the run has no evaluation rules', () => {
    expect(storedRules(lineRunFile({ condition: 'none' }), 'line.yaml')).toEqual({
      rules: null,
      note: 'the run has no evaluation-aware termination rules (run_config.condition.params.agents)',
    });
  });
});
