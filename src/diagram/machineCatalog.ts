import type { AnyStateMachine } from 'xstate';
import { evaluationTerminationMachine } from '../machines/evaluationTermination.js';
import { judgeMachine } from '../machines/judge.js';
import { judgePanelMachine } from '../machines/judgePanel.js';
import { metaTurnMachine } from '../machines/metaTurn.js';
import { simulationControllerMachine } from '../machines/simulationController.js';
import { sweepMachine } from '../machines/sweep.js';
import { UnknownMachineError } from './errors.js';

/** The names `arena diagram` takes, one per machine. */
export type MachineName =
  | 'controller'
  | 'meta-turn'
  | 'evaluation-termination'
  | 'judge'
  | 'panel'
  | 'sweep';

/**
 * Each drawable machine by its name, in the order the docs show them.
 *
 * @example
 * ```ts
 * [...machinesByName.keys()]; // ['controller', 'meta-turn', 'evaluation-termination', 'judge', 'panel', 'sweep']
 * ```
 */
export const machinesByName: ReadonlyMap<MachineName, AnyStateMachine> = new Map<
  MachineName,
  AnyStateMachine
>([
  ['controller', simulationControllerMachine],
  ['meta-turn', metaTurnMachine],
  ['evaluation-termination', evaluationTerminationMachine],
  ['judge', judgeMachine],
  ['panel', judgePanelMachine],
  ['sweep', sweepMachine],
]);

/**
 * The machine a name stands for.
 *
 * @throws {UnknownMachineError} naming the machines there are.
 * @example
 * ```ts
 * machineNamed('judge').id; // 'judge'
 * machineNamed('ctrl');
 * // UnknownMachineError: unknown machine 'ctrl': expected one of controller, meta-turn,
 * //   evaluation-termination, judge, panel, sweep
 * ```
 */
export function machineNamed(name: string): AnyStateMachine {
  const machine = machinesByName.get(name as MachineName);
  if (machine === undefined) throw new UnknownMachineError(name, [...machinesByName.keys()]);
  return machine;
}
