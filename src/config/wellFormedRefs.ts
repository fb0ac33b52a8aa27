import { isPlainObject, type JsonObject } from '../domain/shared/json.js';
import { formatYamlPath, type PathSegment } from './configIssue.js';
import { componentRefSchema } from './runFileSchema.js';
import type { ComponentRef } from './runSpec.js';

/** The components of a run file that failed its schema, as far as each is well formed itself. */
export interface WellFormedRefs {
  /** Every well-formed component a phase declares (defaults aside), and the run condition. */
  readonly refs: readonly ComponentRef[];
  /** `run_config.condition`, when it is well formed. */
  readonly runCondition: ComponentRef | null;
}

const AGENT_ROLES = ['brain', 'muscle', 'objective'] as const;

/**
 * The component references of a run file whose shape is wrong elsewhere:
 * each `{ name, params }` that passes the component schema on its own, at
 * the YAML path where it is written. A misspelt phase key does not hide a
 * misspelt built-in or rule key: they are checked in the same pass.
 *
 * @example
 * ```ts
 * wellFormedRefs({ schedule: [{ train: { agents: [{ name: 'a', brain: { name: 'arena:Nope' } }], phase_confg: {} } }] });
 * // { refs: [{ name: 'arena:Nope', params: {}, yamlPath: 'schedule[0].train.agents[0].brain' }], runCondition: null }
 * ```
 */
export function wellFormedRefs(document: unknown): WellFormedRefs {
  const refs: ComponentRef[] = [];
  const add = (value: unknown, segments: readonly PathSegment[]): ComponentRef | null => {
    const parsed = componentRefSchema.safeParse(value);
    if (!parsed.success) return null;
    const ref = {
      name: parsed.data.name,
      params: parsed.data.params as JsonObject,
      yamlPath: formatYamlPath(segments),
    };
    refs.push(ref);
    return ref;
  };
  const root = isPlainObject(document) ? document : {};
  const schedule = Array.isArray(root.schedule) ? root.schedule : [];
  for (const [index, entry] of schedule.entries()) {
    if (!isPlainObject(entry)) continue;
    for (const [phaseName, body] of Object.entries(entry)) {
      if (!isPlainObject(body)) continue;
      const at: PathSegment[] = ['schedule', index, phaseName];
      for (const [position, item] of listOf(body.environments).entries()) {
        const environment = isPlainObject(item) ? item.environment : undefined;
        if (isPlainObject(environment)) {
          add({ name: environment.name, params: environment.params }, [
            ...at,
            'environments',
            position,
            'environment',
          ]);
        }
      }
      for (const [position, agent] of listOf(body.agents).entries()) {
        if (!isPlainObject(agent)) continue;
        for (const role of AGENT_ROLES) {
          if (agent[role] !== undefined) add(agent[role], [...at, 'agents', position, role]);
        }
      }
      const simulation = isPlainObject(body.simulation) ? body.simulation : {};
      for (const [position, condition] of listOf(simulation.conditions).entries()) {
        add(condition, [...at, 'simulation', 'conditions', position]);
      }
    }
  }
  const runConfig = isPlainObject(root.run_config) ? root.run_config : {};
  const runCondition =
    runConfig.condition === undefined
      ? null
      : add(runConfig.condition, ['run_config', 'condition']);
  return { refs, runCondition };
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
