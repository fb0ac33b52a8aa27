// Embed arena's evaluation-aware termination machine in your own Node app.
//   node examples/embed/termination.mjs   (after npm ci, which builds arena)

import { evaluationTerminationMachine } from 'arena-runtime';
import { createActor } from 'xstate';

const actor = createActor(evaluationTerminationMachine, {
  input: {
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
  },
});
actor.on('flow', ({ control, reason }) =>
  console.log(`flow: ${control}${reason ? ` (${reason})` : ''}`),
);
actor.on('checkpoint.rejected', ({ error }) =>
  console.log(`rejected: ${error.name}: ${error.message}`),
);
actor.subscribe({ error: (error) => console.error(error) });
actor.start();

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

actor.send(checkpoint(0, 0.62));
actor.send(checkpoint(1, 0.83));
actor.send(checkpoint(1, 0.83)); // an exact duplicate: idempotent
actor.send(checkpoint(3, 0.9)); // a gap: rejected, nothing changes
actor.send(checkpoint(2, 0.85));
console.log(actor.getSnapshot().value, actor.getSnapshot().output);
