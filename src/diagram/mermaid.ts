import type { AnyStateMachine } from 'xstate';
import { type DiagramState, type DiagramTransition, machineGraph } from './machineGraph.js';
import { mermaidStateIds } from './mermaidIds.js';

const indentUnit = '  ';

/**
 * The Mermaid `stateDiagram-v2` of a machine, generated from its definition:
 * nested states as composite states, `[*] -->` for each initial state,
 * `--> [*]` for each final state, transitions labelled with their event and
 * `[guard]`, and, inside each state, the actors it invokes and its targetless
 * transitions (`event / actions`). A transition on the machine itself (such as
 * a root-level `cancel`) is drawn from every top-level state that is not final.
 * The same machine always gives the same text, so it can be committed and
 * compared.
 *
 * @example
 * ```ts
 * const door = createMachine({
 *   id: 'door',
 *   initial: 'closed',
 *   states: {
 *     closed: { on: { open: { guard: 'hasKey', target: 'opening' }, knock: { actions: 'log' } } },
 *     opening: { invoke: { src: 'openDoor', onDone: 'open' } },
 *     open: { type: 'final' },
 *   },
 * });
 * console.log(toMermaid(door));
 * // stateDiagram-v2
 * //   [*] --> closed
 * //   closed : closed
 * //   closed : on knock / log
 * //   opening : opening
 * //   opening : invokes openDoor
 * //   open
 * //   open --> [*]
 * //   closed --> opening : open [hasKey]
 * //   opening --> open : openDoor done
 * ```
 */
export function toMermaid(machine: AnyStateMachine): string {
  return mermaidFromGraph(machineGraph(machine));
}

/**
 * The Mermaid `stateDiagram-v2` text of a graph read by `machineGraph` (see
 * {@link toMermaid}).
 *
 * @example
 * ```ts
 * mermaidFromGraph(machineGraph(judgeMachine)).split('\n')[0]; // 'stateDiagram-v2'
 * ```
 */
export function mermaidFromGraph(root: DiagramState): string {
  const ids = mermaidStateIds(root);
  const drawing: Drawing = {
    idOf: (path) => (path === '' ? ids.get(machineEntryPath(root))! : ids.get(path)!),
    machineNotes: stateNotes(root),
  };
  const lines = ['stateDiagram-v2'];
  writeChildren(root, 1, drawing, lines);
  for (const state of allStates(root)) {
    const sources = state === root ? topLevelSources(root) : [state];
    for (const transition of state.transitions) {
      for (const target of transition.targets) {
        for (const source of sources) {
          const edge = `${drawing.idOf(source.path)} --> ${drawing.idOf(target)}`;
          lines.push(`${indentUnit}${edge} : ${transitionLabel(transition)}`);
        }
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What every part of one drawing needs: state ids, and the machine's own targetless transitions. */
interface Drawing {
  /** The Mermaid id of a state path; the machine itself (`''`) is drawn as the state it enters. */
  readonly idOf: (path: string) => string;
  /** What the machine itself invokes and its targetless transitions, written in every top-level state that can move. */
  readonly machineNotes: readonly string[];
}

function writeChildren(
  state: DiagramState,
  depth: number,
  drawing: Drawing,
  lines: string[],
): void {
  const indent = indentUnit.repeat(depth);
  if (state.initial !== null) {
    const initialPath = state.path === '' ? state.initial : `${state.path}.${state.initial}`;
    lines.push(`${indent}[*] --> ${drawing.idOf(initialPath)}`);
  }
  state.children.forEach((child, index) => {
    if (state.kind === 'parallel' && index > 0) lines.push(`${indent}--`);
    const notes = stateNotes(child);
    if (state.path === '' && child.kind !== 'final') notes.push(...drawing.machineNotes);
    writeState(child, notes, depth, drawing, lines);
  });
}

function writeState(
  state: DiagramState,
  notes: readonly string[],
  depth: number,
  drawing: Drawing,
  lines: string[],
): void {
  const indent = indentUnit.repeat(depth);
  const id = drawing.idOf(state.path);
  const label = mermaidText(state.key);
  if (state.children.length > 0) {
    if (id !== state.key) lines.push(`${indent}state "${label}" as ${id}`);
    lines.push(`${indent}state ${id} {`);
    writeChildren(state, depth + 1, drawing, lines);
    lines.push(`${indent}}`);
    if (notes.length > 0) {
      // Mermaid gives a composite state a label only: what it does goes in a note beside it.
      lines.push(`${indent}note right of ${id}`);
      for (const note of notes) lines.push(`${indent}${indentUnit}${note}`);
      lines.push(`${indent}end note`);
    }
  } else if (notes.length > 0) {
    // Mermaid shows a state's first description line as its title.
    lines.push(`${indent}${id} : ${label}`);
    for (const note of notes) lines.push(`${indent}${id} : ${note}`);
  } else if (id !== state.key) {
    lines.push(`${indent}state "${label}" as ${id}`);
  } else {
    lines.push(`${indent}${id}`);
  }
  if (state.kind === 'final') lines.push(`${indent}${id} --> [*]`);
}

/** The lines written inside a state: what it invokes and its targetless transitions. */
function stateNotes(state: DiagramState): string[] {
  const invokes = state.invokes.map((source) => `invokes ${mermaidText(source)}`);
  const internal = state.transitions
    .filter((transition) => transition.targets.length === 0)
    .map((transition) => {
      const actions = transition.actions.length === 0 ? '' : ` / ${transition.actions.join(', ')}`;
      return `on ${mermaidText(`${guardedEvent(transition)}${actions}`)}`;
    });
  return [...invokes, ...internal];
}

function transitionLabel(transition: DiagramTransition): string {
  return mermaidText(guardedEvent(transition));
}

function guardedEvent(transition: DiagramTransition): string {
  return transition.guard === null ? transition.event : `${transition.event} [${transition.guard}]`;
}

/** Mermaid reads `:`, `;`, `#`, quotes and braces as syntax: keep names to a plain set. */
function mermaidText(text: string): string {
  return text.replace(/[^A-Za-z0-9 _.,()[\]/*!=-]/g, '_');
}

function allStates(root: DiagramState): DiagramState[] {
  return [root, ...root.children.flatMap(allStates)];
}

/** The state a transition to the machine itself enters: its initial state, or its first child. */
function machineEntryPath(root: DiagramState): string {
  return root.initial ?? root.children[0]?.key ?? '';
}

/** A transition on the machine itself applies in every top-level state that can still move. */
function topLevelSources(root: DiagramState): DiagramState[] {
  return root.children.filter((child) => child.kind !== 'final');
}
