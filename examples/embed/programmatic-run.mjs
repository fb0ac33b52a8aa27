// Run an experiment from your own code, with an environment written in the app.
//   node examples/embed/programmatic-run.mjs   (after npm ci, which builds arena)

import { builtinComponents, createMemoryStore, parseRunFile, runExperiment$ } from 'arena-runtime';
import { filter, last, map, tap } from 'rxjs';

/** A heater in a room: the agent sets the power, the reward is minus the distance to 21 °C. */
class Room {
  constructor({ uid }) {
    this.uid = uid;
  }
  proposeDefinition() {
    return null;
  }
  start() {
    return this.reset();
  }
  reset() {
    this.temperature = 15;
    return {
      sensors: [{ uid: `${this.uid}.temperature`, space: { type: 'Box', low: -20, high: 50 } }],
      actuators: [{ uid: `${this.uid}.power`, space: { type: 'Box', low: 0, high: 1 } }],
      readings: this.readings(),
    };
  }
  step(actions) {
    const power = Math.min(1, Math.max(0, actions[`${this.uid}.power`] ?? 0));
    this.temperature += 4 * power - 0.1 * (this.temperature - 10);
    return {
      readings: this.readings(),
      rewards: { [`${this.uid}.reward.comfort`]: -Math.abs(this.temperature - 21) },
      done: false,
    };
  }
  close() {}
  readings() {
    return { [`${this.uid}.temperature`]: this.temperature };
  }
}

// The run file names the class as `code:Room`; runExperiment$ is given it below.
const runFile = `
uid: room
seed: 7
version: 1
schedule:
  - train:
      environments:
        - environment: { uid: room, name: code:Room }
      agents:
        - name: thermostat
          brain: { name: arena:CrossEntropyBrain, params: { population: 6 } }
      simulation:
        name: arena:ScriptedSimulationController
        params:
          script:
            loop:
              - agents: [thermostat]
                environments: [room]
      phase_config: { mode: train, worker: 1, episodes: 40, evaluate_every: 4, max_steps: 30 }
run_config:
  condition:
    name: arena:AgentEvaluationObjectiveTerminationCondition
    params:
      agents:
        thermostat:
          success: { metric: objective, threshold: -40, direction: greater_equal, consecutive: 2, min_evaluations: 2 }
`;

const spec = parseRunFile(runFile, { sourcePath: 'room.yaml' });
const events$ = runExperiment$(spec, {
  store: createMemoryStore(),
  builtins: builtinComponents,
  components: { Room },
});

events$
  .pipe(
    tap((event) => {
      if (event.type === 'checkpoint.completed') {
        const { index, outcomes, status } = event.verdict;
        const objective = outcomes[0].metrics.objective;
        console.log(`checkpoint ${index}: objective ${objective.toFixed(2)} (${status})`);
      }
    }),
    filter((event) => event.type === 'run.finished'),
    map((event) => event.summary),
    last(),
  )
  .subscribe((summary) => {
    const [phase] = summary.phases;
    console.log(`run ${summary.status}: phase ${phase.name} ended by ${phase.reason}`);
    console.log(
      `${phase.episodes} training episodes, ${phase.evaluationEpisodes} evaluation episodes`,
    );
  });
