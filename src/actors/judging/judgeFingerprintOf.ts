import { type JudgeConfig, selectedPanelName, selectJudgeName } from '../../config/judgeConfig.js';
import {
  type FingerprintEvaluator,
  type JudgeFingerprint,
  judgeFingerprint,
  promptTemplatePart,
  responseFormatPart,
} from '../../domain/judge/fingerprint.js';
import type { JsonValue } from '../../domain/shared/json.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from './judges.js';

/**
 * The fingerprint of the judge `arena judge` would use from `config` (the
 * named one, else `config.judge`, else the only one; a panel's is made of its
 * rule and its members' fingerprints). Read from the config alone, without
 * building a provider: no key is read, and no URL is part of it.
 *
 * @example
 * ```ts
 * const { config } = loadJudgeConfig('examples/judge/replay.yaml');
 * judgeFingerprintOf(config).label; // 'strict@…' (12 hex)
 * ```
 */
export function judgeFingerprintOf(config: JudgeConfig, name?: string): JudgeFingerprint {
  const panelName = selectedPanelName(config, name);
  if (panelName !== undefined) {
    const panel = config.panels[panelName]!;
    const members: Record<string, string> = {};
    for (const member of panel.members) members[member] = judgeFingerprintOf(config, member).digest;
    return judgeFingerprint(panelName, {
      evaluator: null,
      rubric: { version: config.rubric.version, text: config.rubric.text },
      judgeVersion: panel.judge_version,
      promptTemplate: promptTemplatePart(),
      responseFormat: responseFormatPart(),
      temperature: null,
      outputCap: null,
      panel: {
        rule: panel.rule,
        minVotes: panel.min_votes ?? null,
        threshold: panel.threshold ?? null,
        members,
      },
    });
  }
  const judgeName = selectJudgeName(config, name);
  const profile = config.judges[judgeName]!;
  const model = profile.model === undefined ? undefined : config.models[profile.model];
  let evaluator: FingerprintEvaluator | null = null;
  if (model !== undefined) {
    evaluator = {
      kind: 'model',
      provider: { adapter: model.provider, name: model.provider_name ?? model.provider },
      model: model.model,
    };
  } else if (profile.agent !== undefined) {
    const agent = config.agents[profile.agent];
    evaluator = {
      kind: 'agent',
      agent: profile.agent,
      module: agent?.module ?? null,
      params: (agent?.params ?? {}) as JsonValue,
      allowedTools: profile.allowed_tools,
      toolPolicy: profile.tool_policy,
      maxToolRounds: agent?.max_tool_rounds ?? null,
    };
  }
  return judgeFingerprint(judgeName, {
    evaluator,
    rubric: { version: config.rubric.version, text: config.rubric.text },
    judgeVersion: profile.judge_version,
    promptTemplate: promptTemplatePart(profile.mode),
    responseFormat: responseFormatPart(profile.mode),
    // a model judge always asks for temperature 0 (createModelJudge); an agent sets its own
    temperature: model !== undefined ? 0 : null,
    outputCap: model !== undefined ? (model.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS) : null,
    panel: null,
  });
}
