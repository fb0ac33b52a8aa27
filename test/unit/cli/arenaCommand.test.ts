import { describe, expect, it } from 'vitest';
import { arenaCommand, arenaInvocation } from '../../../src/ports/runtime/arenaCommand.js';

describe('the commands arena prints start the way the user reaches arena', () => {
  it('is plain arena in a shell that no package manager started', () => {
    expect(arenaCommand('show r1 --store sqlite:runs.db', { PATH: '/usr/bin' })).toBe(
      'arena show r1 --store sqlite:runs.db',
    );
  });

  it('is npx arena under npx, npm exec and npm scripts, whichever of npm marks is there', () => {
    // what npm 11 sets for `npx arena …` (and `npm exec arena`)
    const npx = {
      npm_command: 'exec',
      npm_lifecycle_event: 'npx',
      npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    };
    expect(arenaCommand('show r1', npx)).toBe('npx arena show r1');
    // `npm start`, or a project's script that runs arena: arena is on npm's PATH only
    expect(arenaInvocation({ npm_command: 'start', npm_lifecycle_event: 'start' })).toBe(
      'npx arena',
    );
    // one mark alone is enough (an older npm, or a wrapper that keeps only some)
    for (const [name, value] of Object.entries(npx)) {
      expect(arenaInvocation({ [name]: value }), name).toBe('npx arena');
    }
  });

  it('names the package manager the user agent names', () => {
    const agent = (manager: string) => ({
      npm_config_user_agent: `${manager} npm/? node/v20.20.2 linux x64`,
      npm_execpath: '/somewhere/bin/manager.js',
    });
    expect(arenaInvocation(agent('pnpm/9.15.0'))).toBe('pnpm exec arena');
    expect(arenaInvocation(agent('yarn/4.5.3'))).toBe('yarn arena');
    expect(arenaInvocation(agent('bun/1.1.38'))).toBe('bunx arena');
  });

  it('reads empty marks as unset', () => {
    expect(
      arenaInvocation({
        npm_command: '',
        npm_lifecycle_event: ' ',
        npm_execpath: '',
        npm_config_user_agent: '',
      }),
    ).toBe('arena');
  });
});
