import { didYouMean } from '../domain/shared/suggest.js';
import type { SweepSpec } from '../domain/sweep/types.js';
import type { ConfigIssue } from './configIssue.js';
import type { RunSpec } from './runSpec.js';

/** What every built-in brain reports at an evaluation checkpoint (its evaluation ledger). */
const BUILTIN_METRICS = ['objective', 'episodes'] as const;

/**
 * What is wrong with a sweep's objectives against the run file its trials
 * run: an agent the run file has no phase for, or a metric the agent cannot
 * report. An agent's metrics are known when every brain it has is built in
 * (they report `objective` and `episodes`), plus any metric the run file's
 * termination rules name for it; a brain of the user's own reports what it
 * likes, so only its agent is checked. Each issue names the objective's YAML
 * path in the sweep file, with a did-you-mean.
 *
 * @example
 * ```ts
 * objectiveIssues(spec, runSpec);
 * // [{ path: 'objective.agent', message: "no agent 'operater' in cap-free-plateau.yaml; did you mean \"operator\"? (agents: operator)", location: null }]
 * ```
 */
export function objectiveIssues(spec: SweepSpec, run: RunSpec, runFileName: string): ConfigIssue[] {
  const agents = agentMetrics(run);
  const names = [...agents.keys()];
  const issues: ConfigIssue[] = [];
  spec.objectives.forEach((objective, index) => {
    const source = spec.objectiveSources?.[index];
    for (const agent of Object.keys(objective.weights)) {
      const known = agents.get(agent);
      if (known === undefined) {
        issues.push({
          path: source?.agents[agent] ?? `objectives[${index}]`,
          message: `no agent '${agent}' in ${runFileName}${didYouMean(agent, names)} (agents: ${names.join(', ')})`,
          location: null,
        });
      } else if (known.metrics !== null && !known.metrics.has(objective.metric)) {
        const reported = [...known.metrics];
        issues.push({
          path: source?.metric ?? `objectives[${index}]`,
          message: `agent '${agent}' does not report '${objective.metric}'${didYouMean(objective.metric, reported)} (it reports: ${reported.join(', ')})`,
          location: null,
        });
      }
    }
  });
  return issues;
}

/** Each agent of the run file and the metrics it reports, `null` when a brain of its own may report any. */
function agentMetrics(run: RunSpec): Map<string, { metrics: Set<string> | null }> {
  const agents = new Map<string, { metrics: Set<string> | null }>();
  for (const phase of run.phases) {
    for (const agent of phase.agents) {
      const entry = agents.get(agent.name) ?? { metrics: new Set<string>() };
      if (!agent.brain.name.startsWith('arena:')) entry.metrics = null;
      else for (const metric of BUILTIN_METRICS) entry.metrics?.add(metric);
      agents.set(agent.name, entry);
    }
  }
  const conditions = [
    ...run.phases.flatMap((phase) => phase.simulation.conditions),
    ...(run.runCondition === null ? [] : [run.runCondition]),
  ];
  for (const condition of conditions) {
    const rules = condition.params.agents;
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) continue;
    for (const [name, agentRules] of Object.entries(rules)) {
      if (typeof agentRules !== 'object' || agentRules === null) continue;
      for (const rule of Object.values(agentRules as Record<string, unknown>)) {
        const metric = (rule as { metric?: unknown } | null)?.metric;
        if (typeof metric === 'string') agents.get(name)?.metrics?.add(metric);
      }
    }
  }
  return agents;
}
