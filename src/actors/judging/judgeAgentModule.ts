import path from 'node:path';
import {
  ComponentResolutionError,
  resolveComponent,
  userModuleOf,
} from '../../config/components.js';
import type { JudgeConfig } from '../../config/judgeConfig.js';
import { requireAllowedModules } from '../../config/moduleRoots.js';
import type { ComponentRef } from '../../config/runSpec.js';
import { JudgeConfigurationError } from '../../domain/judge/errors.js';
import type { JsonObject } from '../../domain/shared/json.js';
import type { JudgeAgent } from '../../ports/judgeAgent.js';
import { ComponentContractError, instantiate } from '../experiment/components.js';

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The members a judge agent must have, and what each must be. */
const JUDGE_AGENT_MEMBERS = [
  ['name', 'a non-empty string', (value: unknown) => typeof value === 'string' && value !== ''],
  ['tools', 'an object of tools by name', isObject],
  ['persistState', 'a boolean', (value: unknown) => typeof value === 'boolean'],
  ['conversationHistory', 'an array', Array.isArray],
  ['generate', 'a function', (value: unknown) => typeof value === 'function'],
] as const;

/**
 * Make the agent a judge config names under `agents.<name>.module`, the way run
 * files name components: `./path.js:ExportName`, resolved relative to
 * `baseDir` (the config file's folder); a class is constructed with
 * `new X(params)`, a function is called as `X(params)`. The result must have
 * the `JudgeAgent` members.
 *
 * With `moduleRoots`, a module outside those folders (by real path) is
 * refused before it is imported.
 *
 * @throws JudgeConfigurationError naming the YAML path: an agent with no
 * module, a module that does not resolve, a factory that throws, or a value
 * that is not a judge agent.
 * @throws ModuleNotAllowedError for a module outside `moduleRoots`.
 * @example
 * ```ts
 * const agent = await loadJudgeAgent(config, 'reviewer', { baseDir: 'examples/judge' });
 * agent.name; // 'reviewer'
 * await loadJudgeAgent(config, 'missing', { baseDir: 'examples/judge' });
 * // throws JudgeConfigurationError('agents.missing: not declared; add agents.missing.module: ./file.js:ExportName')
 * ```
 */
export async function loadJudgeAgent(
  config: JudgeConfig,
  agentName: string,
  { baseDir, moduleRoots }: { baseDir: string; moduleRoots?: readonly string[] },
): Promise<JudgeAgent> {
  const profile = config.agents[agentName];
  if (!profile?.module) {
    const missing = profile
      ? `agents.${agentName}.module: missing`
      : `agents.${agentName}: not declared`;
    throw new JudgeConfigurationError(
      `${missing}; add agents.${agentName}.module: ./file.js:ExportName`,
    );
  }
  const ref: ComponentRef = {
    name: profile.module,
    params: profile.params as JsonObject,
    yamlPath: `agents.${agentName}.module`,
  };
  const named = userModuleOf(profile.module);
  if (moduleRoots !== undefined && named !== null) {
    await requireAllowedModules([path.resolve(baseDir, named.modulePath)], moduleRoots);
  }
  try {
    const exported = await resolveComponent(ref, { baseDir, builtins: new Map() });
    return requireJudgeAgent(instantiate(exported, ref.params, ref), ref);
  } catch (error) {
    if (error instanceof ComponentResolutionError || error instanceof ComponentContractError) {
      throw new JudgeConfigurationError(error.message, { cause: error });
    }
    throw error;
  }
}

function requireJudgeAgent(value: unknown, ref: ComponentRef): JudgeAgent {
  if (typeof value !== 'object' || value === null) {
    const got = value === null ? 'null' : typeof value;
    throw new ComponentContractError(ref, `is not a judge agent: got ${got}`);
  }
  const agent = value as Record<string, unknown>;
  const wrong = JUDGE_AGENT_MEMBERS.filter(([member, , isValid]) => !isValid(agent[member])).map(
    ([member, expected]) => `${member} must be ${expected}`,
  );
  if (wrong.length > 0) {
    throw new ComponentContractError(ref, `is not a judge agent: ${wrong.join('; ')}`);
  }
  return value as JudgeAgent;
}
