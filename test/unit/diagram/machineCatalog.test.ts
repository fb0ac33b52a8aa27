import { describe, expect, it } from 'vitest';
import { UnknownMachineError } from '../../../src/diagram/errors.js';
import { machineNamed } from '../../../src/diagram/machineCatalog.js';
import { evaluationTerminationMachine } from '../../../src/machines/evaluationTermination.js';
import { judgeMachine } from '../../../src/machines/judge.js';
import { judgePanelMachine } from '../../../src/machines/judgePanel.js';
import { metaTurnMachine } from '../../../src/machines/metaTurn.js';
import { simulationControllerMachine } from '../../../src/machines/simulationController.js';

describe('machineNamed', () => {
  it('finds each of the five machines by its CLI name', () => {
    expect(machineNamed('controller')).toBe(simulationControllerMachine);
    expect(machineNamed('meta-turn')).toBe(metaTurnMachine);
    expect(machineNamed('evaluation-termination')).toBe(evaluationTerminationMachine);
    expect(machineNamed('judge')).toBe(judgeMachine);
    expect(machineNamed('panel')).toBe(judgePanelMachine);
  });

  it('names the machines there are when the name is unknown', () => {
    expect(() => machineNamed('ctrl')).toThrow(
      new UnknownMachineError('ctrl', [
        'controller',
        'meta-turn',
        'evaluation-termination',
        'judge',
        'panel',
        'sweep',
      ]),
    );
    try {
      machineNamed('ctrl');
    } catch (error) {
      expect(error).toBeInstanceOf(UnknownMachineError);
      expect((error as UnknownMachineError).code).toBe('UNKNOWN_MACHINE');
      expect((error as Error).message).toBe(
        "unknown machine 'ctrl': expected one of controller, meta-turn, evaluation-termination, judge, panel, sweep",
      );
    }
  });
});
