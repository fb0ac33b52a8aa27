// Drive the termination machine with XState's pure `transition`: no actor, no side effects.
// A seeded random walk, fuzz-style, checks two promises of the machine on every step.
//   node examples/embed/pure-transitions.mjs   (after npm ci, which builds arena)

import { evaluationTerminationMachine as machine } from 'arena-runtime';
import { initialTransition, transition } from 'xstate';

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

/** A small seeded generator, so every walk is the same on every machine. */
function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** The next event of a walk: mostly the next checkpoint, sometimes a replay, a gap or a cancel. */
function nextEvent(random, episode, previous) {
  const roll = random();
  if (roll < 0.15 && previous) return previous;
  if (roll < 0.3) return checkpoint(episode + 1, random());
  if (roll < 0.35) return { type: 'cancel' };
  return checkpoint(episode, 0.5 + random() / 2);
}

const emitted = (actions, type) =>
  actions.filter((action) => action.type === 'xstate.emit' && action.params.event.type === type);

const walks = 500;
const endings = {};
let steps = 0;
let rejected = 0;
for (let seed = 1; seed <= walks; seed++) {
  const random = mulberry32(seed);
  let [snapshot] = initialTransition(machine, input);
  let episode = 0;
  let previous = null;
  for (let step = 0; step < 12 && snapshot.status === 'active'; step++) {
    const event = nextEvent(random, episode, previous);
    const [next, actions] = transition(machine, snapshot, event);
    steps++;
    // Pure: the same event on the same snapshot gives the same snapshot.
    const [again] = transition(machine, snapshot, event);
    if (JSON.stringify(again.context) !== JSON.stringify(next.context)) {
      throw new Error(`seed ${seed}: transition is not deterministic`);
    }
    // A rejected checkpoint changes nothing.
    if (emitted(actions, 'checkpoint.rejected').length > 0) {
      rejected++;
      if (JSON.stringify(next.context) !== JSON.stringify(snapshot.context)) {
        throw new Error(`seed ${seed}: a rejected checkpoint changed the state`);
      }
    } else if (event.type === 'evaluation.checkpoint' && event !== previous) {
      episode++;
    }
    previous = event.type === 'evaluation.checkpoint' ? event : previous;
    snapshot = next;
  }
  endings[snapshot.value] = (endings[snapshot.value] ?? 0) + 1;
}

console.log(`${walks} walks, ${steps} transitions, ${rejected} checkpoints rejected`);
console.log('every transition deterministic, every rejection left the state unchanged');
for (const [state, count] of Object.entries(endings).sort()) console.log(`  ${state}: ${count}`);
