import type { AnyStateNode, AnyTransitionDefinition } from 'xstate';

const doneActorPrefix = 'xstate.done.actor.';
const errorActorPrefix = 'xstate.error.actor.';
const doneStatePrefix = 'xstate.done.state.';

/**
 * What a person reads for the event of a transition: the event type itself,
 * except for XState's generated events, which name the actor or state they
 * come from (`metaTurn done`, `invokeProvider error`, `after attemptTimeout`,
 * `episodeBarrier done`) and `always` for an eventless transition.
 *
 * @example
 * ```ts
 * // running: { invoke: { src: 'runEpisode', onDone: 'episodeBarrier' } }
 * transitionEventLabel(runningNode, onDoneTransition); // 'runEpisode done'
 * transitionEventLabel(activeNode, cancelTransition); // 'cancel'
 * ```
 */
export function transitionEventLabel(
  node: AnyStateNode,
  transition: AnyTransitionDefinition,
): string {
  const eventType = transition.eventType;
  if (eventType === '') return 'always';
  if (eventType.startsWith(doneActorPrefix)) {
    return `${invokedSource(node, eventType.slice(doneActorPrefix.length))} done`;
  }
  if (eventType.startsWith(errorActorPrefix)) {
    return `${invokedSource(node, eventType.slice(errorActorPrefix.length))} error`;
  }
  if (eventType.startsWith(doneStatePrefix)) {
    const stateId = eventType.slice(doneStatePrefix.length);
    return `${stateId.split('.').at(-1) ?? stateId} done`;
  }
  const delayed = node.after.find((candidate) => candidate.eventType === eventType);
  if (delayed !== undefined) return `after ${delayName(delayed.delay)}`;
  return eventType;
}

/**
 * The name of a transition guard: a named guard's name, `not(a)`, `and(a, b)`,
 * `or(a, b)` and `stateIn(...)` for XState's higher-order guards, the function
 * name of an inline guard (`inline guard` when it has none).
 *
 * @example
 * ```ts
 * guardName('isMetaProfile'); // 'isMetaProfile'
 * guardName(not('attemptsExhausted')); // 'not(attemptsExhausted)'
 * guardName(and(['a', { type: 'b', params: { n: 1 } }])); // 'and(a, b)'
 * ```
 */
export function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  if (typeof guard === 'function') {
    const nested = (guard as { guards?: unknown }).guards;
    if (Array.isArray(nested)) return `${guard.name}(${nested.map(guardName).join(', ')})`;
    if (guard.name === 'stateIn') return 'stateIn(...)';
    return guard.name === '' ? 'inline guard' : guard.name;
  }
  return 'inline guard';
}

function invokedSource(node: AnyStateNode, invokeId: string): string {
  const invoke = node.invoke.find((candidate) => candidate.id === invokeId);
  if (invoke !== undefined && typeof invoke.src === 'string') return invoke.src;
  return invokeId;
}

function delayName(delay: unknown): string {
  if (typeof delay === 'number') return `${delay}ms`;
  if (typeof delay === 'string') return delay;
  return 'a computed delay';
}
