// Persist a termination actor, restore it in a new actor, and continue where it left off.
//   node examples/embed/persistence.mjs   (after npm ci, which builds arena)

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluationTerminationMachine } from 'arena-runtime';
import { createActor } from 'xstate';

const input = {
  agents: {
    SAC: {
      success: {
        metric: 'objective',
        threshold: 0.8,
        direction: 'greater_equal',
        consecutive: 2,
        min_evaluations: 3,
      },
    },
  },
};

const checkpoint = (episode, objective) => ({
  type: 'evaluation.checkpoint',
  outcomes: [
    {
      agentName: 'SAC',
      evaluationId: `eval-${episode}`,
      evaluationEpisode: episode,
      metrics: { objective },
    },
  ],
});

/** The agent's counters, as the termination state holds them. */
const describe = (actor) => {
  const { value, context } = actor.getSnapshot();
  const { validEvaluations, successStreak } = context.termination.agents.SAC;
  return `${value}: ${validEvaluations} valid evaluations, success streak ${successStreak}`;
};

// First process: two checkpoints, then the snapshot is saved as plain JSON.
const folder = mkdtempSync(path.join(tmpdir(), 'arena-embed-'));
const file = path.join(folder, 'termination.json');
const first = createActor(evaluationTerminationMachine, { input }).start();
first.send(checkpoint(0, 0.62));
first.send(checkpoint(1, 0.83));
console.log(`before saving  ${describe(first)}`);
writeFileSync(file, JSON.stringify(first.getPersistedSnapshot()));
first.stop();

// Second process: restore from the saved JSON and continue with the next episodes.
const restored = JSON.parse(readFileSync(file, 'utf8'));
const second = createActor(evaluationTerminationMachine, { input, snapshot: restored });
second.on('checkpoint.accepted', ({ decision }) => {
  const [{ evaluationId, status }] = decision.report.agents;
  console.log(
    `${evaluationId}: ${status}, ${decision.control}${decision.reason ? ` (${decision.reason})` : ''}`,
  );
});
second.start();
console.log(`after restore  ${describe(second)}`);
second.send(checkpoint(1, 0.83)); // replayed after the restart: an exact duplicate, ignored
second.send(checkpoint(2, 0.85));
console.log(`after episode 2  ${describe(second)}`);
console.log(second.getSnapshot().output);
rmSync(folder, { recursive: true, force: true });
