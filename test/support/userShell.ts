/**
 * Each test file runs arena as a user's shell does, not as the npm that may
 * have started vitest (`npm test`, `npx vitest`): npm's marks on its children
 * are cleared, so a command arena prints reads `arena …` wherever the suite was
 * started from. A test that means npx sets them itself (see
 * `test/e2e/printedCommands.test.ts`).
 */
export const packageManagerMarks = [
  'npm_command',
  'npm_lifecycle_event',
  'npm_lifecycle_script',
  'npm_execpath',
  'npm_config_user_agent',
] as const;

for (const name of packageManagerMarks) delete process.env[name];
