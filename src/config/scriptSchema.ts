import { z } from 'zod';
import { expecting } from './zodIssues.js';

const name = z
  .string({ error: expecting('a name (a non-empty string)') })
  .min(1, { error: expecting('a name (a non-empty string)') });

/** One turn group as written in YAML: `{ agents: [...], environments: [...] }`. */
export const turnGroupSchema = z
  .strictObject(
    {
      agents: z
        .array(name, { error: expecting('a list of agent names') })
        .default([])
        .describe('Agents that act in this turn, by name.'),
      environments: z
        .array(name, { error: expecting('a list of environment UIDs') })
        .default([])
        .describe('Environments these agents act on; they step after the agents act.'),
    },
    { error: expecting('a turn group mapping with agents and environments') },
  )
  .describe('A turn group: its agents act, then its environments step.');

const LOOP_EXPECTED = 'a non-empty list of turn groups';

function turnGroups(description: string) {
  return z.array(turnGroupSchema, { error: expecting(description) });
}

const loop = turnGroups(LOOP_EXPECTED)
  .min(1, { error: expecting(LOOP_EXPECTED) })
  .describe('Required. Turn groups run in order on every step of an episode.');
const episodeStart = turnGroups('a list of turn groups').describe(
  'Non-empty selects the meta profile: its one agent makes the definition decision.',
);
const episodeEnd = turnGroups('a list of turn groups').describe(
  'Turn groups after an episode; must be empty in the meta profile.',
);
const scriptError = expecting('a script mapping with episode_start, loop and episode_end');

/** The zod schema of `simulation.params.script` as written in YAML. */
export const lifecycleScriptSchema = z.strictObject(
  { episode_start: episodeStart.default([]), loop, episode_end: episodeEnd.default([]) },
  { error: scriptError },
);

/**
 * The script of a later phase: every key optional and without a default,
 * because a later phase overrides only what it declares.
 */
export const partialLifecycleScriptSchema = z.strictObject(
  {
    episode_start: episodeStart.optional(),
    loop: loop.optional(),
    episode_end: episodeEnd.optional(),
  },
  { error: scriptError },
);
