import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadJudgeAgent } from '../../../src/actors/judging/judgeAgentModule.js';
import { judgeFromConfig } from '../../../src/actors/judging/judgeFromConfig.js';
import { loadJudgeConfig, parseJudgeConfig } from '../../../src/config/judgeConfig.js';
import { JudgeConfigurationError } from '../../../src/domain/judge/errors.js';
import { fixedClock } from '../../../src/ports/runtime/clock.js';
import { scratchFolder } from '../../support/scratch.js';
import { subject } from './fixtures.js';

const exampleConfig = path.resolve('examples/judge/agent.yaml');
const clock = fixedClock(new Date('2026-01-01T00:00:00Z'));

/** A folder holding `agents.js`, with a judge config whose agent is `module`. */
function configWith(
  module: string,
  judge: Record<string, unknown> = {},
  agent: Record<string, unknown> = {},
) {
  const baseDir = scratchFolder('arena-judge-agent-');
  writeFileSync(
    path.join(baseDir, 'agents.js'),
    `
const base = (name, extra = {}) => ({
  name, model: null, persistState: false, conversationHistory: [],
  tools: { look: { metadata: { read_only: true } }, remove: { metadata: {} } },
  async generate(message, options) {
    this.conversationHistory.push('turn');
    this.seen = { tools: options.allowedToolNames, rounds: options.maxToolRounds };
    return { content: JSON.stringify({ status: 'passed', score: 1, label: 'ok', explanation: null, evidence: [] }) };
  },
  ...extra,
});
export const made = [];
export const makeAgent = (params) => {
  const agent = base(params.name ?? 'factory-agent');
  made.push(agent);
  return agent;
};
export class ClassAgent { constructor(params) { Object.assign(this, base(params.name)); } }
export const persisting = () => base('keeper', { persistState: true });
export const notAnAgent = () => ({ name: '', tools: [] });
export const throwing = () => { throw new Error('no licence'); };
export const answer = 42;
`,
  );
  const config = parseJudgeConfig({
    rubric: { version: '1', text: 'Be strict.' },
    agents: { helper: { module, params: { name: 'helper' }, ...agent } },
    judges: { review: { agent: 'helper', ...judge } },
  });
  return { config, baseDir };
}

describe('agent judges from a judge config', () => {
  it('runs the shipped example agent offline: passed, failed and skipped by its rules', async () => {
    const { config, baseDir } = loadJudgeConfig(exampleConfig);
    const judge = await judgeFromConfig(config, { baseDir, clock });
    expect(judge.settings.name).toBe('review');
    const passed = await judge.evaluate(
      subject({ candidateOutput: 'Canberra, not Sydney.', expectedOutput: 'Canberra' }),
    );
    const failed = await judge.evaluate(subject({ candidateOutput: '420', expectedOutput: '42' }));
    const skipped = await judge.evaluate(subject({ expectedOutput: null }));
    expect([passed.status, failed.status, skipped.status]).toEqual(['passed', 'failed', 'skipped']);
    expect(passed).toMatchObject({ score: 1, label: 'correct', model: null });
  });

  it('passes params to the agent, constructs classes, calls factories, and restores history', async () => {
    for (const module of ['./agents.js:makeAgent', './agents.js:ClassAgent']) {
      const { config, baseDir } = configWith(module);
      const agent = await loadJudgeAgent(config, 'helper', { baseDir });
      expect(agent.name).toBe('helper');
      const judge = await judgeFromConfig(config, { baseDir, clock });
      expect((await judge.evaluate(subject())).status).toBe('passed');
      expect(agent.conversationHistory).toEqual([]);
    }
  });

  it('rejects the agent judging itself, by agent name', async () => {
    const { config, baseDir } = configWith('./agents.js:makeAgent');
    const judge = await judgeFromConfig(config, { baseDir, clock });
    const result = await judge.evaluate(
      subject({ observation: { model: null, provider: null, agentName: 'helper' } }),
    );
    expect(result).toMatchObject({ status: 'error', errorType: 'SelfEvaluationRejected' });
  });

  it('gives the agent only the allowed tools and the configured tool rounds', async () => {
    const { config, baseDir } = configWith(
      './agents.js:makeAgent',
      { allowed_tools: ['look'], tool_policy: 'read_only' },
      { max_tool_rounds: 3 },
    );
    const judge = await judgeFromConfig(config, { baseDir, clock });
    await judge.evaluate(subject());
    const module = await import(pathToFileURL(path.join(baseDir, 'agents.js')).href);
    expect(module.made).toHaveLength(1);
    expect(module.made[0].seen).toEqual({ tools: ['look'], rounds: 3 });
  });

  it('keeps every tool check: unknown tools, unsafe tools under the policy, persisting agents', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ allowed_tools: ['grep'] }, {}, 'unknown tools: grep'],
      [
        { allowed_tools: ['remove'] },
        {},
        'tools are not evaluation-safe under evaluation_safe: remove',
      ],
    ];
    for (const [judgeProfile, agentProfile, message] of cases) {
      const { config, baseDir } = configWith('./agents.js:makeAgent', judgeProfile, agentProfile);
      await expect(judgeFromConfig(config, { baseDir })).rejects.toThrow(
        `judges.review (agent helper): ${message}`,
      );
    }
    const { config, baseDir } = configWith('./agents.js:persisting');
    await expect(judgeFromConfig(config, { baseDir })).rejects.toThrow(
      'judges.review (agent helper): evaluator agents must not persist ephemeral conversation history',
    );
  });

  it('names the YAML path of a module that does not make a judge agent', async () => {
    const cases: [string, RegExp][] = [
      ['./missing.js:Agent', /^agents\.helper\.module: module file not found: /],
      [
        './agents.js:Nope',
        /^agents\.helper\.module: module .* has no export "Nope" \(its exports: /,
      ],
      ['arena:Reviewer', /^agents\.helper\.module: unknown built-in "arena:Reviewer"/],
      [
        './agents.js:notAnAgent',
        /^agents\.helper\.module \(\.\/agents\.js:notAnAgent\): is not a judge agent: name must be a non-empty string; tools must be an object of tools by name; persistState must be a boolean; conversationHistory must be an array; generate must be a function$/,
      ],
      ['./agents.js:throwing', /^agents\.helper\.module \(.*\): failed to construct: no licence$/],
      ['./agents.js:answer', /: expected a class or a factory function, got number$/],
    ];
    for (const [module, message] of cases) {
      const { config, baseDir } = configWith(module);
      const attempt = judgeFromConfig(config, { baseDir });
      await expect(attempt).rejects.toThrow(JudgeConfigurationError);
      await expect(attempt).rejects.toThrow(message);
    }
  });

  it('names the agent that has no module', async () => {
    const config = parseJudgeConfig({
      rubric: { version: '1', text: 'r' },
      agents: { helper: { max_tool_rounds: 2 } },
      judges: { review: { agent: 'helper' }, other: { agent: 'ghost' } },
      judge: 'review',
    });
    await expect(judgeFromConfig(config, { baseDir: '.' })).rejects.toThrow(
      'agents.helper.module: missing; add agents.helper.module: ./file.js:ExportName',
    );
    await expect(judgeFromConfig(config, { baseDir: '.', name: 'other' })).rejects.toThrow(
      'agents.ghost: not declared; add agents.ghost.module: ./file.js:ExportName',
    );
  });

  it('still builds model judges', async () => {
    const { config, baseDir } = loadJudgeConfig(path.resolve('examples/judge/replay.yaml'));
    const judge = await judgeFromConfig(config, { baseDir });
    expect(judge.model).toBe('llama3.1:8b');
  });
});
