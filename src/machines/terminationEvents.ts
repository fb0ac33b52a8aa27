import { defer, EMPTY, Observable } from 'rxjs';
import { fromEventObservable } from 'xstate';
import type { CheckpointDecision } from '../domain/termination/checkpoint.js';
import type { FlowControl } from '../domain/termination/state.js';
import type { RejectedCheckpointError } from './evaluationTermination.js';
import type { ControllerEvent } from './simulationControllerTypes.js';

/** The termination child's emitted events, as controller events, via RxJS. */
export const terminationEvents = fromEventObservable<ControllerEvent, void>(({ system }) =>
  defer(() => {
    const child = system.get('termination') as
      | { on: (type: string, handler: (event: never) => void) => { unsubscribe(): void } }
      | undefined;
    if (child === undefined) return EMPTY;
    return new Observable<ControllerEvent>((subscriber) => {
      const subscriptions = [
        child.on('flow', (event: { control: FlowControl; reason: string | null }) =>
          subscriber.next({
            type: 'termination.flow',
            control: event.control,
            reason: event.reason,
          }),
        ),
        child.on('checkpoint.accepted', (event: { decision: CheckpointDecision }) =>
          subscriber.next({
            type: 'termination.checkpoint',
            status: 'accepted',
            decision: event.decision,
            error: null,
          }),
        ),
        child.on('checkpoint.ignored', (event: { reason: string }) =>
          subscriber.next({
            type: 'termination.checkpoint',
            status: 'ignored',
            decision: { reason: event.reason },
            error: null,
          }),
        ),
        child.on('checkpoint.rejected', (event: { error: RejectedCheckpointError }) =>
          subscriber.next({
            type: 'termination.checkpoint',
            status: 'rejected',
            decision: null,
            error: event.error,
          }),
        ),
      ];
      return () => {
        for (const subscription of subscriptions) subscription.unsubscribe();
      };
    });
  }),
);
