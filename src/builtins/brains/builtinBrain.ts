import type { JsonValue } from '../../domain/shared/json.js';
import { createRng, type Rng } from '../../domain/shared/random.js';
import type {
  AgentInterface,
  Brain,
  EvaluationResult,
  TerminalUpdate,
  TurnContext,
} from '../../ports/agent.js';
import type { Readings } from '../../ports/environment.js';
import { EvaluationLedger, isEvaluating } from './evaluationLedger.js';

/**
 * What the built-in brains share: they learn nothing per step, and
 * `evaluateRollouts` reports the returns of the evaluation episodes since its
 * last call, kept in `ledger` (which `saveState` carries). A brain that learns
 * from training episodes overrides `endEpisode`.
 */
export abstract class BuiltinBrain implements Brain {
  protected readonly ledger = new EvaluationLedger();

  abstract setup(agentInterface: AgentInterface): void;
  abstract act(readings: Readings, context: TurnContext): Readings;
  abstract saveState(): JsonValue;
  abstract loadState(state: JsonValue): void;

  observe(): void {}

  endEpisode(update: TerminalUpdate, context: TurnContext): void {
    if (isEvaluating(context)) this.ledger.record(update.episodeReturn);
  }

  evaluateRollouts(): EvaluationResult {
    return this.ledger.drain();
  }
}

/**
 * A built-in brain whose randomness all comes from its seed: `rng`, which its
 * `saveState` carries as `rngState` and its `loadState` gives to `restoreRng`.
 */
export abstract class SeededBrain extends BuiltinBrain {
  protected rng: Rng;
  private readonly seed: number;

  constructor(seed: number) {
    super();
    this.seed = seed;
    this.rng = createRng(seed);
  }

  /** Go on exactly where the saved generator stopped. */
  protected restoreRng(rngState: number): void {
    this.rng = createRng(this.seed, rngState);
  }
}
