import fc from 'fast-check';
import { stringify } from 'yaml';
import { successRule } from './terminationRules.js';

/** A random valid run: 1-2 environments, 1-2 agents, 1-3 turn groups, optional meta turn. */
export interface RandomRun {
  seed: number;
  environments: number;
  agents: number;
  groups: { agents: number[]; environments: number[] }[];
  episodes: number;
  maxSteps: number;
  evaluateEvery: number;
  evaluationRules: boolean;
  meta: boolean;
  /** With `meta`: the repeated meta loop's period (absent or `null`: one-shot). */
  metaEvery?: number | null;
  testPhase: boolean;
}

const subset = (size: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: size - 1 }), { minLength: 1, maxLength: size });

export const randomRun: fc.Arbitrary<RandomRun> = fc
  .record({ environments: fc.integer({ min: 1, max: 2 }), agents: fc.integer({ min: 1, max: 2 }) })
  .chain(({ environments, agents }) =>
    fc.record({
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      environments: fc.constant(environments),
      agents: fc.constant(agents),
      groups: fc.array(fc.record({ agents: subset(agents), environments: subset(environments) }), {
        minLength: 1,
        maxLength: 3,
      }),
      episodes: fc.integer({ min: 1, max: 4 }),
      maxSteps: fc.integer({ min: 1, max: 4 }),
      evaluateEvery: fc.integer({ min: 1, max: 3 }),
      evaluationRules: fc.boolean(),
      meta: fc.boolean(),
      testPhase: fc.boolean(),
    }),
  );

export function runFileOf(run: RandomRun): string {
  const environments = Array.from({ length: run.environments }, (_, index) => ({
    environment: {
      uid: `env${index}`,
      name: 'arena:LineEnvironment',
      params: {
        noise: 0.1,
        // only env0 proposes a definition, so the meta profile has exactly one
        ...(index === 0 ? { scenario: { target: 1 + index, gain: 2 } } : {}),
      },
    },
  }));
  const agentName = (index: number) => `agent${index}`;
  const agents = Array.from({ length: run.agents }, (_, index) => ({
    name: agentName(index),
    brain: { name: 'arena:ScriptedBrain', params: { action: 'random', metrics: [0.1, 0.4, 0.9] } },
  }));
  let script: Record<string, unknown>;
  if (run.meta) {
    agents.push({
      name: 'designer',
      brain: { name: 'arena:ScriptedBrain', params: { action: 'random', metrics: [0] } },
    });
    script = {
      episode_start: [
        {
          agents: ['designer'],
          environments: ['env0'],
          ...(run.metaEvery != null ? { every: run.metaEvery } : {}),
        },
      ],
      loop: [{ agents: [agentName(0)], environments: ['env0'] }],
      episode_end: [],
    };
  } else {
    script = {
      loop: run.groups.map((group) => ({
        agents: group.agents.map(agentName),
        environments: group.environments.map((index) => `env${index}`),
      })),
    };
  }
  const loopAgents = run.meta
    ? [agentName(0)]
    : [...new Set(run.groups.flatMap((group) => group.agents.map(agentName)))];
  const document: Record<string, unknown> = {
    uid: 'random-run',
    seed: run.seed,
    version: 1,
    schedule: [
      {
        train: {
          environments,
          agents,
          simulation: { name: 'arena:ScriptedSimulationController', params: { script } },
          phase_config: {
            mode: 'train',
            worker: 1,
            episodes: run.episodes,
            evaluate_every: run.evaluateEvery,
            max_steps: run.maxSteps,
          },
        },
      },
      ...(run.testPhase ? [{ test: { phase_config: { mode: 'test', episodes: 1 } } }] : []),
    ],
  };
  if (run.evaluationRules) {
    document.run_config = {
      condition: {
        name: 'arena:AgentEvaluationObjectiveTerminationCondition',
        params: {
          agents: Object.fromEntries(
            loopAgents.map((name) => [
              name,
              { success: successRule({ consecutive: 1, min_evaluations: 1 }) },
            ]),
          ),
        },
      },
    };
  }
  return stringify(document);
}
