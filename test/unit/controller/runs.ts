/** Run files for controller tests, built from a few knobs. */
export interface LineRunOptions {
  episodes?: number | null;
  evaluateEvery?: number;
  maxSteps?: number;
  horizon?: number;
  metrics?: (number | null)[];
  condition?: 'evaluation' | 'none';
  success?: boolean;
  plateau?: boolean;
  meta?: boolean;
  /** The repeated meta loop: rerun the meta turn every this many episodes. */
  metaEvery?: number;
  metaLearning?: 'carry_over' | 'reset';
  /** The designer's brain params (default `{ action: 0.25 }`). */
  designer?: string;
  testPhase?: boolean;
  seed?: number;
}

export function lineRunFile(options: LineRunOptions = {}): string {
  const episodes = options.episodes === undefined ? 10 : options.episodes;
  const metrics = JSON.stringify(options.metrics ?? [0.1, 0.5, 0.9, 0.95, 0.95, 0.95]);
  const meta = options.meta ?? false;
  const rules: string[] = [];
  if (options.success ?? true) {
    rules.push(
      '          success: { metric: objective, threshold: 0.8, direction: greater_equal, consecutive: 2, min_evaluations: 2 }',
    );
  }
  if (options.plateau ?? false) {
    rules.push(
      '          plateau: { metric: objective, direction: maximize, min_delta: 0.01, patience: 2, min_evaluations: 2, window: 1 }',
    );
  }
  const condition =
    (options.condition ?? 'evaluation') === 'evaluation'
      ? [
          'run_config:',
          '  condition:',
          '    name: arena:AgentEvaluationObjectiveTerminationCondition',
          '    params:',
          '      agents:',
          '        operator:',
          ...rules,
        ].join('\n')
      : '';
  const loopSettings = [
    ...(options.metaEvery !== undefined ? [`every: ${options.metaEvery}`] : []),
    ...(options.metaLearning !== undefined ? [`learning: ${options.metaLearning}`] : []),
  ]
    .map((setting) => `, ${setting}`)
    .join('');
  const script = meta
    ? [
        '          script:',
        `            episode_start: [ { agents: [designer], environments: [line]${loopSettings} } ]`,
        '            loop: [ { agents: [operator], environments: [line] } ]',
        '            episode_end: []',
      ].join('\n')
    : '          script: { loop: [ { agents: [operator], environments: [line] } ] }';
  return [
    'uid: line-run',
    `seed: ${options.seed ?? 7}`,
    'version: 1',
    'schedule:',
    '  - train:',
    '      environments:',
    '        - environment:',
    '            uid: line',
    '            name: arena:LineEnvironment',
    '            params:',
    `              horizon: ${options.horizon ?? 0}`,
    '              scenario: { target: 1.5, gain: 2, label: fixed }',
    '      agents:',
    '        - name: operator',
    `          brain: { name: arena:ScriptedBrain, params: { action: 0.5, metrics: ${metrics} } }`,
    ...(meta
      ? [
          '        - name: designer',
          `          brain: { name: arena:ScriptedBrain, params: ${options.designer ?? '{ action: 0.25 }'} }`,
        ]
      : []),
    '      simulation:',
    '        name: arena:ScriptedSimulationController',
    '        params:',
    script,
    '      phase_config:',
    '        mode: train',
    '        worker: 1',
    `        episodes: ${episodes === null ? 'null' : episodes}`,
    `        evaluate_every: ${options.evaluateEvery ?? 2}`,
    `        max_steps: ${options.maxSteps ?? 4}`,
    ...(options.testPhase ? ['  - test:', '      phase_config: { mode: test, episodes: 2 }'] : []),
    condition,
    '',
  ].join('\n');
}
