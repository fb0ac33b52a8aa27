import { ArenaError } from '../domain/shared/errors.js';

/** The relay could not start (the port is taken, the host unknown...). */
export class InspectorRelayError extends ArenaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INSPECTOR_RELAY', message, options);
  }
}

/** An inspector relay or replay option is out of range; the message names it. */
export class InspectorOptionError extends ArenaError {
  constructor(message: string) {
    super('INSPECTOR_OPTION', message);
  }
}
