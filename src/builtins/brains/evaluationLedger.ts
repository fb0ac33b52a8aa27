import type { EvaluationResult, TurnContext } from '../../ports/agent.js';

/**
 * Whether an episode runs the policy as it stands, without exploring or
 * learning: an evaluation episode, or any episode of a `test` phase.
 */
export function isEvaluating(context: TurnContext): boolean {
  return context.evaluation || context.mode === 'test';
}

/**
 * The returns of the evaluation episodes since `evaluateRollouts` last ran,
 * shared by the built-in brains.
 *
 * @example
 * ```ts
 * const ledger = new EvaluationLedger();
 * ledger.record(-3); ledger.record(-1);
 * ledger.drain(); // { metrics: { objective: -2, episodes: 2 } }
 * ledger.drain(); // { metrics: {} }
 * ```
 */
export class EvaluationLedger {
  private returns: number[] = [];

  record(episodeReturn: number): void {
    this.returns.push(episodeReturn);
  }

  /**
   * `objective` = the mean return and `episodes` = their count, then forget
   * them; no metrics when no evaluation episode ended since the last call.
   */
  drain(): EvaluationResult {
    const returns = this.returns;
    this.returns = [];
    if (returns.length === 0) return { metrics: {} };
    const total = returns.reduce((sum, value) => sum + value, 0);
    return { metrics: { objective: total / returns.length, episodes: returns.length } };
  }

  /** The pending returns, for `saveState`. */
  pending(): number[] {
    return [...this.returns];
  }

  /** Replace the pending returns, for `loadState`. */
  restore(returns: readonly number[]): void {
    this.returns = [...returns];
  }
}
