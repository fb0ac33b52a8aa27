import type { LeaseOwner, RunStore } from '../../../ports/store/store.js';

/** Why a run whose workers died while running it is failed, as its error ends. */
export const workerDiedReason = 'the worker died while running it';

/**
 * What a worker may do with a delivery, by the store's count: run it (its
 * number claimed and committed), or give the run up, because its latest
 * delivery was never settled (its worker died while running it) and it had
 * `maxDeliveries` already.
 */
export type DeliveryClaim =
  | { readonly kind: 'claimed'; readonly delivery: number }
  | { readonly kind: 'workerDied'; readonly deliveries: number };

/**
 * Claim a delivery of a run in the store before it starts or resumes, so a
 * run that kills its worker is counted all the same (JetStream's count of
 * a message is no help: the worker that would read it is gone). A run whose
 * latest delivery was never settled and that reached `maxDeliveries` is not
 * started again, and not counted again.
 *
 * @example
 * ```ts
 * claimRunDelivery(store, runId, workerLeaseOwner('w1'), 3); // { kind: 'claimed', delivery: 1 }
 * // ... three deliveries whose worker was SIGKILLed while running the run, then:
 * claimRunDelivery(store, runId, workerLeaseOwner('w2'), 3); // { kind: 'workerDied', deliveries: 3 }
 * ```
 */
export function claimRunDelivery(
  store: RunStore,
  runId: string,
  owner: LeaseOwner,
  maxDeliveries: number,
): DeliveryClaim {
  const count = store.deliveryCount(runId);
  if (count.claimed >= maxDeliveries && count.claimed > count.settled) {
    return { kind: 'workerDied', deliveries: count.claimed };
  }
  return { kind: 'claimed', delivery: store.claimDelivery(runId, owner) };
}
