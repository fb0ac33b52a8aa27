import { ArenaError } from '../domain/shared/errors.js';

/**
 * A machine name that is not one of arena's machines.
 *
 * @example
 * ```ts
 * new UnknownMachineError('ctrl', ['controller', 'judge']).message;
 * // "unknown machine 'ctrl': expected one of controller, judge"
 * ```
 */
export class UnknownMachineError extends ArenaError {
  readonly machineName: string;

  constructor(machineName: string, knownNames: readonly string[]) {
    super(
      'UNKNOWN_MACHINE',
      `unknown machine '${machineName}': expected one of ${knownNames.join(', ')}`,
    );
    this.machineName = machineName;
  }
}
