import type { AgentInterface, Brain, Muscle, Objective, TurnContext } from '../ports/agent.js';
import type { Environment, Readings } from '../ports/environment.js';

/** One agent on one environment, wired by hand with no controller. */
export interface DirectLoopParts {
  readonly environment: Environment;
  readonly brain: Brain;
  readonly muscle: Muscle;
  readonly objective: Objective;
  /** The agent's interface, as `setup` received it. */
  readonly agentInterface: AgentInterface;
}

/**
 * Run one episode of an already started environment with a set-up brain:
 * act, clip through the muscle, step, score with the objective, and (outside
 * evaluation) let the brain observe; then `endEpisode` with the return. The
 * baseline against which the controller's overhead is measured, and the loop
 * the learning tests use.
 *
 * @returns the episode return (sum of the objective) and the number of steps.
 * @example
 * ```ts
 * const start = await environment.start(params);
 * const agentInterface = { sensors: start.sensors, actuators: start.actuators, readings: start.readings };
 * brain.setup(agentInterface);
 * await runDirectEpisode(parts, start.readings, { mode: 'train', evaluation: false, phase: 'p', episode: 0, step: 0 });
 * // { episodeReturn: -12.7, steps: 96 }
 * ```
 */
export async function runDirectEpisode(
  parts: DirectLoopParts,
  initialReadings: Readings,
  context: Omit<TurnContext, 'step'>,
): Promise<{ episodeReturn: number; steps: number }> {
  const { environment, brain, muscle, objective, agentInterface } = parts;
  const learning = !context.evaluation && context.mode === 'train';
  let readings = initialReadings;
  let episodeReturn = 0;
  for (let step = 0; ; step++) {
    const turn: TurnContext = { ...context, step };
    const proposal = await brain.act(readings, turn);
    const actions = await muscle.act(proposal, agentInterface, turn);
    const result = await environment.step(actions);
    const score = await objective.evaluate(result.rewards);
    episodeReturn += score;
    if (learning) {
      await brain.observe(
        {
          readings: result.readings,
          actions,
          rewards: result.rewards,
          objective: score,
          done: result.done,
        },
        turn,
      );
    }
    readings = result.readings;
    if (result.done) {
      await brain.endEpisode(
        { rewards: result.rewards, episodeReturn, done: true },
        { ...context, step: step + 1 },
      );
      return { episodeReturn, steps: step + 1 };
    }
  }
}
