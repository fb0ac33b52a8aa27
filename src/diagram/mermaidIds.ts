import { type DiagramState, descendants } from './machineGraph.js';

/** Words Mermaid's state-diagram grammar reads as keywords, not as state names. */
const reservedWords = new Set(
  [
    'state',
    'note',
    'end',
    'direction',
    'classdef',
    'class',
    'style',
    'click',
    'as',
    'left',
    'right',
    'of',
    'hide',
    'scale',
    'acctitle',
    'accdescr',
    'default',
  ].map((word) => word.toLowerCase()),
);

const plainIdentifier = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * A Mermaid state id for every state path of a machine (the root excluded):
 * the state's own key when it is unique in the machine and a plain identifier
 * that is not a Mermaid keyword, otherwise the path joined with `_` (then the
 * diagram shows the key through `state "key" as id`). Mermaid ids are global,
 * so two `failed` states in different parents must not share one.
 *
 * @example
 * ```ts
 * mermaidStateIds(machineGraph(simulationControllerMachine)).get('simulating.running');
 * // 'running'
 * ```
 */
export function mermaidStateIds(root: DiagramState): Map<string, string> {
  const states = descendants(root);
  const keyCounts = new Map<string, number>();
  for (const state of states) keyCounts.set(state.key, (keyCounts.get(state.key) ?? 0) + 1);
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const state of states) {
    if (keyCounts.get(state.key) === 1 && isPlainId(state.key)) {
      ids.set(state.path, state.key);
      taken.add(state.key);
    }
  }
  for (const state of states) {
    if (ids.has(state.path)) continue;
    const base = `state_${state.path.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let id = base;
    for (let suffix = 2; taken.has(id); suffix += 1) id = `${base}_${suffix}`;
    ids.set(state.path, id);
    taken.add(id);
  }
  return ids;
}

function isPlainId(key: string): boolean {
  return plainIdentifier.test(key) && !reservedWords.has(key.toLowerCase());
}
