import { describe, expect, it } from 'vitest';
import { parseLifecycleScript, type ScriptError } from '../../../src/config/script.js';
import { scriptRejections } from '../../support/configRejections.js';

const context = {
  agents: ['meta', 'operator', 'helper'],
  environments: ['grid', 'market'],
  yamlPath: 'schedule[0].train.simulation.params.script',
};
const group = (agents: string[], environments: string[] = ['grid']) => ({ agents, environments });

const rejections = (raw: unknown) => scriptRejections(raw, context);

describe('parseLifecycleScript: generic profile', () => {
  it('selects the generic profile when episode_start is empty or absent', () => {
    const script = parseLifecycleScript(
      {
        loop: [group(['operator', 'helper'], ['grid', 'market'])],
        episode_end: [group(['helper'])],
      },
      context,
    );
    expect(script).toEqual({
      profile: 'generic',
      episodeStart: [],
      loop: [{ agents: ['operator', 'helper'], environments: ['grid', 'market'] }],
      episodeEnd: [{ agents: ['helper'], environments: ['grid'] }],
      metaAgent: null,
      operatingAgent: null,
    });
  });

  it('allows a turn group that only steps an environment', () => {
    const script = parseLifecycleScript({ loop: [{ environments: ['market'] }] }, context);
    expect(script.loop).toEqual([{ agents: [], environments: ['market'] }]);
  });

  it('requires loop', () => {
    expect(rejections({ episode_end: [] })).toEqual([
      [`${context.yamlPath}.loop`, 'required: expected a non-empty list of turn groups'],
    ]);
  });

  it('rejects an empty loop', () => {
    expect(rejections({ loop: [] })).toEqual([
      [`${context.yamlPath}.loop`, 'expected a non-empty list of turn groups, got an empty list'],
    ]);
  });

  it('rejects a script that is not a mapping', () => {
    expect(rejections(['loop'])).toEqual([
      [
        context.yamlPath,
        'expected a script mapping with episode_start, loop and episode_end, got a list',
      ],
    ]);
  });

  it('rejects unknown keys in the script and in turn groups', () => {
    expect(
      rejections({ loop: [{ agents: ['operator'], envs: ['grid'] }], episode_begin: [] }),
    ).toEqual([
      [`${context.yamlPath}.loop[0].envs`, 'unknown key (expected one of: agents, environments)'],
      [
        `${context.yamlPath}.episode_begin`,
        'unknown key (expected one of: episode_start, loop, episode_end)',
      ],
    ]);
  });

  it('rejects undeclared agents and environments, naming the declared ones', () => {
    expect(rejections({ loop: [group(['operater'], ['gird'])] })).toEqual([
      [
        `${context.yamlPath}.loop[0].agents[0]`,
        'unknown agent "operater" (expected a declared agent: meta, operator, helper)',
      ],
      [
        `${context.yamlPath}.loop[0].environments[0]`,
        'unknown environment "gird" (expected a declared environment: grid, market)',
      ],
    ]);
  });

  it('rejects a name twice in one turn group', () => {
    expect(rejections({ loop: [group(['operator', 'operator'])] })).toEqual([
      [
        `${context.yamlPath}.loop[0].agents[1]`,
        'agent "operator" appears twice in this turn group',
      ],
    ]);
  });

  it('rejects an empty turn group', () => {
    expect(rejections({ loop: [{}] })).toEqual([
      [
        `${context.yamlPath}.loop[0]`,
        'expected a turn group naming at least one agent or environment',
      ],
    ]);
  });

  it('rejects a name that is not a string', () => {
    expect(rejections({ loop: [{ agents: [7] }] })).toEqual([
      [
        `${context.yamlPath}.loop[0].agents[0]`,
        'expected a name (a non-empty string), got number 7',
      ],
    ]);
  });
});

describe('parseLifecycleScript: meta profile', () => {
  it('selects the meta profile from a non-empty episode_start and names both agents', () => {
    const script = parseLifecycleScript(
      { episode_start: [group(['meta'])], loop: [group(['operator'])], episode_end: [] },
      context,
    );
    expect(script.profile).toBe('meta');
    expect(script.metaAgent).toBe('meta');
    expect(script.operatingAgent).toBe('operator');
  });

  it('counts one agent named in several loop groups as one operating agent', () => {
    const script = parseLifecycleScript(
      {
        episode_start: [group(['meta'])],
        loop: [group(['operator']), group(['operator'], ['market'])],
      },
      context,
    );
    expect(script.operatingAgent).toBe('operator');
  });

  it('rejects two meta agents in episode_start', () => {
    expect(
      rejections({ episode_start: [group(['meta', 'helper'])], loop: [group(['operator'])] }),
    ).toEqual([
      [
        `${context.yamlPath}.episode_start`,
        'expected exactly one agent in episode_start, the meta agent, because a non-empty episode_start selects the meta profile; found 2: meta, helper',
      ],
    ]);
  });

  it('rejects an episode_start group without an agent', () => {
    expect(
      rejections({ episode_start: [{ environments: ['grid'] }], loop: [group(['operator'])] }),
    ).toEqual([
      [
        `${context.yamlPath}.episode_start`,
        'expected exactly one agent in episode_start, the meta agent, because a non-empty episode_start selects the meta profile; found none',
      ],
    ]);
  });

  it('rejects two operating agents in loop', () => {
    expect(
      rejections({
        episode_start: [group(['meta'])],
        loop: [group(['operator']), group(['helper'])],
      }),
    ).toEqual([
      [
        `${context.yamlPath}.loop`,
        'expected exactly one agent in loop, the operating agent, because a non-empty episode_start selects the meta profile; found 2: operator, helper',
      ],
    ]);
  });

  it('rejects a loop without an agent', () => {
    expect(
      rejections({ episode_start: [group(['meta'])], loop: [{ environments: ['grid'] }] }),
    ).toEqual([
      [
        `${context.yamlPath}.loop`,
        'expected exactly one agent in loop, the operating agent, because a non-empty episode_start selects the meta profile; found none',
      ],
    ]);
  });

  it('rejects the same agent as meta and operating agent', () => {
    expect(rejections({ episode_start: [group(['meta'])], loop: [group(['meta'])] })).toEqual([
      [
        `${context.yamlPath}.loop`,
        'the meta agent "meta" is also the operating agent: expected two distinct agents in episode_start and loop',
      ],
    ]);
  });

  it('rejects a non-empty episode_end', () => {
    expect(
      rejections({
        episode_start: [group(['meta'])],
        loop: [group(['operator'])],
        episode_end: [group(['helper'])],
      }),
    ).toEqual([
      [
        `${context.yamlPath}.episode_end`,
        'expected an empty episode_end: the meta profile (a non-empty episode_start) runs no end-of-episode turns',
      ],
    ]);
  });

  it('reports every meta-profile violation at once', () => {
    const paths = rejections({
      episode_start: [group(['meta', 'helper'])],
      loop: [group([])],
      episode_end: [group(['helper'])],
    }).map(([path]) => path);
    expect(paths).toEqual([
      `${context.yamlPath}.episode_start`,
      `${context.yamlPath}.loop`,
      `${context.yamlPath}.episode_end`,
    ]);
  });

  it('has code SCRIPT and a message listing the issues under the script path', () => {
    try {
      parseLifecycleScript({ loop: [] }, context);
      expect.unreachable();
    } catch (error) {
      const scriptError = error as ScriptError;
      expect(scriptError.code).toBe('SCRIPT');
      expect(scriptError.name).toBe('ScriptError');
      expect(scriptError.message).toBe(
        `${context.yamlPath}: invalid lifecycle script, 1 problem:\n  ${context.yamlPath}.loop: expected a non-empty list of turn groups, got an empty list`,
      );
    }
  });
});
