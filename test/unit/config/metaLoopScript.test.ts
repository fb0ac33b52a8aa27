import { describe, expect, it } from 'vitest';
import { builtinComponents } from '../../../src/builtins/index.js';
import { parseRunFile } from '../../../src/config/runFile.js';
import { RunFileError } from '../../../src/config/runFileError.js';
import { parseLifecycleScript } from '../../../src/config/script.js';
import { hostingCapacityText } from '../../support/badRunFiles.js';
import { runFileProblems, scriptRejections } from '../../support/configRejections.js';

const context = {
  agents: ['meta', 'operator'],
  environments: ['grid'],
  yamlPath: 'schedule[0].train.simulation.params.script',
};
const loop = [{ agents: ['operator'], environments: ['grid'] }];

const rejections = (raw: unknown) => scriptRejections(raw, context);

describe('the repeated meta loop in the script', () => {
  it('opts in with every on the episode_start group; learning defaults to carry_over', () => {
    const script = parseLifecycleScript(
      { episode_start: [{ agents: ['meta'], environments: ['grid'], every: 10 }], loop },
      context,
    );
    expect(script).toMatchObject({ profile: 'meta', metaEvery: 10, metaLearning: 'carry_over' });
  });

  it('takes learning: reset', () => {
    const script = parseLifecycleScript(
      {
        episode_start: [{ agents: ['meta'], environments: ['grid'], every: 3, learning: 'reset' }],
        loop,
      },
      context,
    );
    expect(script).toMatchObject({ metaEvery: 3, metaLearning: 'reset' });
  });

  it('leaves the one-shot script without any loop key', () => {
    const script = parseLifecycleScript(
      { episode_start: [{ agents: ['meta'], environments: ['grid'] }], loop },
      context,
    );
    expect(Object.keys(script)).not.toContain('metaEvery');
    expect(Object.keys(script)).not.toContain('metaLearning');
  });

  it.each([
    [0, 'expected a whole number of episodes (1 or more), got number 0'],
    [2.5, 'expected a whole number of episodes (1 or more), got number 2.5'],
    ['10', 'expected a whole number of episodes (1 or more), got string "10"'],
  ])('rejects every: %j, naming its path', (every, message) => {
    expect(
      rejections({ episode_start: [{ agents: ['meta'], environments: ['grid'], every }], loop }),
    ).toEqual([[`${context.yamlPath}.episode_start[0].every`, message]]);
  });

  it('rejects an unknown learning setting', () => {
    expect(
      rejections({
        episode_start: [{ agents: ['meta'], environments: ['grid'], every: 2, learning: 'keep' }],
        loop,
      }),
    ).toEqual([
      [
        `${context.yamlPath}.episode_start[0].learning`,
        'expected carry_over or reset, got string "keep"',
      ],
    ]);
  });

  it('rejects learning without every', () => {
    expect(
      rejections({
        episode_start: [{ agents: ['meta'], environments: ['grid'], learning: 'reset' }],
        loop,
      }),
    ).toEqual([
      [
        `${context.yamlPath}.episode_start[0].learning`,
        'learning applies to the repeated meta loop only: expected every (a number of episodes) beside it',
      ],
    ]);
  });

  it('rejects every written on two episode_start groups', () => {
    expect(
      rejections({
        episode_start: [
          { agents: ['meta'], environments: ['grid'], every: 2 },
          { agents: ['meta'], environments: [], every: 3 },
        ],
        loop,
      }),
    ).toEqual([
      [
        `${context.yamlPath}.episode_start[1].every`,
        'expected every and learning once, on one episode_start group; episode_start[0] already declares them',
      ],
    ]);
  });

  it('rejects every in a loop group: only episode_start decides', () => {
    const [issue] = rejections({
      episode_start: [{ agents: ['meta'], environments: ['grid'] }],
      loop: [{ agents: ['operator'], environments: ['grid'], every: 2 }],
    });
    expect(issue?.[0]).toBe(`${context.yamlPath}.loop[0].every`);
    expect(issue?.[1]).toMatch(/^unknown key/);
  });

  it('is checked by arena validate (validateRunFile) with the YAML path of the run file', async () => {
    const text = hostingCapacityText.replace(
      'environments: [midas]\n            loop:',
      'environments: [midas]\n                every: 0\n            loop:',
    );
    expect(text).toContain('every: 0');
    expect(
      await runFileProblems(text, { sourcePath: 'run.yaml', builtins: builtinComponents }),
    ).toEqual([
      'schedule[0].explore_1.simulation.params.script.episode_start[0].every: expected a whole number of episodes (1 or more), got number 0',
    ]);
  });

  it('is rejected by arena run (parseRunFile) with the same issue as by arena validate', () => {
    const text = hostingCapacityText.replace(
      'environments: [midas]\n            loop:',
      'environments: [midas]\n                every: 0\n            loop:',
    );
    const error = (() => {
      try {
        parseRunFile(text, { sourcePath: 'run.yaml' });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(RunFileError);
    expect((error as RunFileError).issues.map((issue) => issue.path)).toEqual([
      'schedule[0].explore_1.simulation.params.script.episode_start[0].every',
    ]);
  });
});
