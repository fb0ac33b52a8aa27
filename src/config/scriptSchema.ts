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
/** What the operating agent's learning state does at each repeated meta decision. */
export const META_LOOP_LEARNING = ['carry_over', 'reset'] as const;

/**
 * An `episode_start` turn group: a turn group that may also opt into the
 * repeated meta loop with `every` (and say what the operating agent's
 * learning does then with `learning`).
 */
export const episodeStartGroupSchema = turnGroupSchema
  .extend({
    every: z
      .int({ error: expecting('a whole number of episodes (1 or more)') })
      .min(1, { error: expecting('a whole number of episodes (1 or more)') })
      .optional()
      .describe(
        'Opt-in repeated meta loop: every this many episodes, at the episode barrier, the controller closes the world, reruns the meta turn and builds a new world from the new candidate. Without it the meta turn runs once per start request.',
      ),
    learning: z
      .enum(META_LOOP_LEARNING, { error: expecting('carry_over or reset') })
      .optional()
      .describe(
        "With every: the operating agent's learning state at each new decision. carry_over (default) keeps it; reset returns it to the state it had when the phase first set it up whenever the new candidate differs from the last one (an unchanged candidate keeps learning).",
      ),
  })
  .describe(
    'A turn group of episode_start: its agent makes the definition decision; every repeats it.',
  );

const episodeStart = z
  .array(episodeStartGroupSchema, { error: expecting('a list of turn groups') })
  .describe('Non-empty selects the meta profile: its one agent makes the definition decision.');
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
