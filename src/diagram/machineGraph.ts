import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { guardName, transitionEventLabel } from './transitionLabel.js';

/** The kind of a state node, as XState names it. */
export type DiagramStateKind = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

/** One transition of a state: the event that takes it, its guard, where it goes. */
export interface DiagramTransition {
  /** The XState event type (`start`, `xstate.done.actor.metaTurn`, `''` for `always`). */
  readonly eventType: string;
  /** What a person reads: `start`, `metaTurn done`, `after attemptTimeout`, `always`. */
  readonly event: string;
  /** The guard's name (`isMetaProfile`, `not(isReady)`), or `null` when unguarded. */
  readonly guard: string | null;
  /** Target state paths (`simulating.running`); empty for a targetless transition. */
  readonly targets: readonly string[];
  /** Names of the actions the transition runs. */
  readonly actions: readonly string[];
}

/** One state node of a machine, with its children in definition order. */
export interface DiagramState {
  /** The state's key within its parent (`running`); the machine id for the root. */
  readonly key: string;
  /** Dot-separated keys from the root (`simulating.running`); `''` for the root. */
  readonly path: string;
  readonly kind: DiagramStateKind;
  /** The key of the initial child of a compound state, otherwise `null`. */
  readonly initial: string | null;
  /** The `src` of every actor the state invokes (`runEpisode`). */
  readonly invokes: readonly string[];
  readonly transitions: readonly DiagramTransition[];
  readonly children: readonly DiagramState[];
}

/** One arrow a transition draws: from one source state to one target; `index` counts the owner's transitions. */
export type TransitionArrow = Readonly<{
  owner: DiagramState;
  transition: DiagramTransition;
  index: number;
  source: string;
  target: string;
}>;

/**
 * Every state of a graph below `root`, parents before children, in definition order.
 *
 * @example
 * ```ts
 * descendants(machineGraph(judgeMachine)).map((state) => state.path)[0]; // 'checkingSelfEvaluation'
 * ```
 */
export function descendants(state: DiagramState): DiagramState[] {
  return state.children.flatMap((child) => [child, ...descendants(child)]);
}

/**
 * Every arrow the transitions of a graph draw, in the order of the states
 * (`descendants`) and their transitions: a root transition leaves each
 * non-final child, and an empty target is the root's entry state.
 *
 * @example
 * ```ts
 * transitionArrows(machineGraph(judgeMachine))[0]?.source; // 'checkingSelfEvaluation'
 * ```
 */
export function transitionArrows(root: DiagramState): TransitionArrow[] {
  const entry = root.initial ?? root.children[0]?.key ?? '';
  const arrows: TransitionArrow[] = [];
  for (const owner of [root, ...descendants(root)]) {
    const sources =
      owner === root ? root.children.filter((child) => child.kind !== 'final') : [owner];
    owner.transitions.forEach((transition, index) => {
      for (const rawTarget of transition.targets) {
        const target = rawTarget === '' ? entry : rawTarget;
        for (const source of sources) {
          arrows.push({ owner, transition, index, source: source.path, target });
        }
      }
    });
  }
  return arrows;
}

/**
 * Read a machine's statechart into plain, deterministic data: every state in
 * definition order, its initial child, the actors it invokes and its
 * transitions (event, guard, targets, actions), taken from `machine.root`, so
 * the picture always follows the code.
 *
 * @example
 * ```ts
 * const door = createMachine({
 *   id: 'door',
 *   initial: 'closed',
 *   states: { closed: { on: { open: { guard: 'hasKey', target: 'open' } } }, open: { type: 'final' } },
 * });
 * const graph = machineGraph(door);
 * graph.children.map((state) => [state.key, state.kind]); // [['closed', 'atomic'], ['open', 'final']]
 * graph.children[0]?.transitions[0];
 * // { eventType: 'open', event: 'open', guard: 'hasKey', targets: ['open'], actions: [] }
 * ```
 */
export function machineGraph(machine: AnyStateMachine): DiagramState {
  return stateOf(machine.root, machine.root);
}

function stateOf(node: AnyStateNode, root: AnyStateNode): DiagramState {
  const children = Object.values(node.states as Record<string, AnyStateNode>);
  const initialTarget = children.length > 0 && node.type === 'compound' ? node.initial : null;
  return {
    key: node.key,
    path: pathOf(node, root),
    kind: node.type,
    initial: initialTarget?.target[0]?.key ?? null,
    invokes: node.invoke.map((invoke) => sourceName(invoke.src, invoke.id)),
    transitions: transitionsOf(node, root),
    children: children.map((child) => stateOf(child, root)),
  };
}

function transitionsOf(node: AnyStateNode, root: AnyStateNode): DiagramTransition[] {
  const onEvents = [...node.transitions.values()].flat();
  const always = node.always ?? [];
  return [...onEvents, ...always].map((transition) => ({
    eventType: transition.eventType,
    event: transitionEventLabel(node, transition),
    guard: transition.guard === undefined ? null : guardName(transition.guard),
    targets: (transition.target ?? []).map((target) => pathOf(target, root)),
    actions: actionNames(transition),
  }));
}

function pathOf(node: AnyStateNode, root: AnyStateNode): string {
  return node.path.slice(root.path.length).join('.');
}

function sourceName(src: unknown, id: string): string {
  return typeof src === 'string' ? src : id;
}

function actionNames(transition: AnyTransitionDefinition): string[] {
  return transition.actions.map((action) => {
    if (typeof action === 'string') return action;
    if (typeof action === 'object' && action !== null && 'type' in action) {
      return String(action.type);
    }
    if (typeof action === 'function') {
      const builtIn = (action as { type?: unknown }).type;
      if (typeof builtIn === 'string') return builtIn;
      return action.name === '' ? 'inline action' : action.name;
    }
    return 'inline action';
  });
}
