import { Observable } from 'rxjs';
import type { RunSpec } from '../../config/runSpec.js';
import type { RunEvent } from './runEvents.js';
import { type RunExperimentOptions, runExperiment } from './runExperiment.js';

/**
 * A run as a cold RxJS Observable of its events: subscribing starts it, every
 * `RunEvent` arrives as it happens, and it completes after `run.finished`
 * (whose `summary` is the closing summary). Unsubscribing cancels the run, as
 * Ctrl-C does: the controller stops at once and the store records the run as
 * cancelled, ready for a resume. A run that cannot start (a leased run, bad
 * rules) errors the Observable.
 *
 * @example
 * ```ts
 * const events$ = runExperiment$(spec, { store, builtins: builtinComponents });
 * events$.pipe(filter((event) => event.type === 'checkpoint.completed')).subscribe(console.log);
 * const last = await lastValueFrom(events$); // { type: 'run.finished', summary: { status: 'succeeded', ... } }
 * ```
 */
export function runExperiment$(
  spec: RunSpec,
  options: Omit<RunExperimentOptions, 'onEvent'>,
): Observable<RunEvent> {
  return new Observable<RunEvent>((subscriber) => {
    const cancel = new AbortController();
    const signal =
      options.signal === undefined
        ? cancel.signal
        : AbortSignal.any([options.signal, cancel.signal]);
    runExperiment(spec, { ...options, signal, onEvent: (event) => subscriber.next(event) }).then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    return () => cancel.abort();
  });
}
