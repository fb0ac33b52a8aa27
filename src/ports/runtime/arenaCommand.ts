/**
 * How the user reaches the `arena` command from their shell, read from the
 * variables a package manager sets for what it runs: `npx arena` under npm
 * (`npx arena …`, `npm exec`, or an npm script such as `npm start`), `pnpm exec
 * arena`, `yarn arena` or `bunx arena` under those, and `arena` otherwise (on
 * PATH, e.g. installed globally). Every command arena prints for the user to
 * run next (`see it with: …`, `resume it with: …`) starts with it, so it runs
 * as printed where the user typed the first one: a project's local `arena` is
 * not on the shell's PATH, only on the one npm gives its children.
 *
 * npm marks its children with `npm_config_user_agent` (`npm/11.1.0 node/v20…`),
 * `npm_command` (`exec`, `run-script`, `start`, `test`…), `npm_lifecycle_event`
 * (`npx`, or the script's name) and `npm_execpath`; any one of them, not empty,
 * is enough, and the user agent names the manager. An empty value counts as
 * unset, so a test (or a user) can clear them.
 *
 * @example
 * ```ts
 * arenaCommand('show r1', {}); // 'arena show r1'
 * arenaCommand('show r1', { npm_command: 'exec', npm_lifecycle_event: 'npx' }); // 'npx arena show r1'
 * arenaCommand('show r1', { npm_config_user_agent: 'pnpm/9.1.0 npm/? node/v20.19.0' }); // 'pnpm exec arena show r1'
 * ```
 */
export function arenaCommand(words: string, environment: NodeJS.ProcessEnv = process.env): string {
  return `${arenaInvocation(environment)} ${words}`;
}

/**
 * The words that start an `arena` command for this user: `arena`, `npx arena`,
 * `pnpm exec arena`, `yarn arena` or `bunx arena` (see {@link arenaCommand}).
 *
 * @example
 * ```ts
 * arenaInvocation({ npm_lifecycle_event: 'start' }); // 'npx arena' (run by `npm start`)
 * arenaInvocation({ npm_config_user_agent: 'yarn/4.5.0 npm/? node/v20.19.0' }); // 'yarn arena'
 * arenaInvocation({ PATH: '/usr/bin' }); // 'arena'
 * ```
 */
export function arenaInvocation(environment: NodeJS.ProcessEnv = process.env): string {
  const set = (name: string) => (environment[name] ?? '').trim() !== '';
  const manager = (environment.npm_config_user_agent ?? '').trim().split('/')[0] ?? '';
  const viaPackageManager =
    manager !== '' || set('npm_command') || set('npm_lifecycle_event') || set('npm_execpath');
  if (!viaPackageManager) return 'arena';
  switch (manager) {
    case 'pnpm':
      return 'pnpm exec arena';
    case 'yarn':
      return 'yarn arena';
    case 'bun':
      return 'bunx arena';
    default:
      return 'npx arena';
  }
}
