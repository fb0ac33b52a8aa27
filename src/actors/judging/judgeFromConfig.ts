import { type JudgeConfig, selectedPanelName, selectJudgeName } from '../../config/judgeConfig.js';
import { JudgeConfigurationError } from '../../domain/judge/errors.js';
import { panelFromConfig } from './judgePanel.js';
import {
  agentJudgeFromConfig,
  type FromConfigOptions,
  type Judge,
  modelJudgeFromConfig,
} from './judges.js';

/**
 * The judge of a judge config's profile `name` (default: the config's `judge`,
 * or its only judge): a model judge for a profile with `model`, an agent judge
 * for a profile with `agent`, whose agent is made from `agents.<agent>.module`
 * relative to `baseDir` (see `loadJudgeAgent`). Every agent-judge check applies:
 * unknown or unsafe tools, persisting agents, tool rounds. A name of `panels`
 * gives a panel (see `panelFromConfig`), each member built this way.
 *
 * @throws JudgeConfigurationError naming the YAML path of what is wrong, e.g.
 * `judges.review (agent reviewer): unknown tools: shell`.
 * @example
 * ```ts
 * const { config, baseDir } = loadJudgeConfig('examples/judge/agent.yaml');
 * const judge = await judgeFromConfig(config, { baseDir });
 * judge.settings.name; // 'review'
 * ```
 */
export async function judgeFromConfig(
  config: JudgeConfig,
  options: FromConfigOptions & { name?: string } = {},
): Promise<Judge> {
  const panel = selectedPanelName(config, options.name);
  if (panel !== undefined) {
    const member = (name: string) => judgeFromConfig(config, { ...options, name });
    return panelFromConfig(config, panel, member, options);
  }
  const name = selectJudgeName(config, options.name);
  const agentName = config.judges[name]?.agent;
  if (agentName === undefined) return modelJudgeFromConfig(config, { ...options, name });
  // Loaded only for an agent judge: a model judge never needs the component machinery.
  const { loadJudgeAgent } = await import('./judgeAgentModule.js');
  const agent = await loadJudgeAgent(config, agentName, {
    baseDir: options.baseDir ?? process.cwd(),
    ...(options.moduleRoots !== undefined ? { moduleRoots: options.moduleRoots } : {}),
  });
  try {
    return agentJudgeFromConfig(config, {
      name,
      registry: (requested) => (requested === agentName ? agent : undefined),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.inspect ? { inspect: options.inspect } : {}),
    });
  } catch (error) {
    if (!(error instanceof JudgeConfigurationError)) throw error;
    throw new JudgeConfigurationError(`judges.${name} (agent ${agentName}): ${error.message}`, {
      cause: error,
    });
  }
}
