import { hashFiles } from '../../config/moduleFingerprints.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { ModuleFingerprint } from '../../ports/store/store.js';

/**
 * A resume would load user modules that are not the ones the run started
 * with, so it could not give the records of an uninterrupted run.
 *
 * @example
 * ```ts
 * // ModulesChangedError: run 'custom-20261201T090000-3fa2' cannot be resumed exactly: these modules
 * // changed since it started: /experiments/my-env.js (resume with --force to go on anyway; the resume
 * // records that it was forced)
 * ```
 */
export class ModulesChangedError extends ArenaError {
  readonly runId: string;
  /** Absolute paths of the changed (or removed) module files. */
  readonly files: readonly string[];
  constructor(runId: string, files: readonly string[]) {
    super(
      'MODULES_CHANGED',
      `run '${runId}' cannot be resumed exactly: these modules changed since it started: ${files.join(', ')} (resume with --force to go on anyway; the resume records that it was forced)`,
    );
    this.runId = runId;
    this.files = files;
  }
}

/**
 * The module files whose content is not what the run started with: changed,
 * or gone.
 *
 * @example
 * ```ts
 * await changedModules(store.getRun(runId).modules ?? []); // ['/experiments/my-env.js']
 * ```
 */
export async function changedModules(modules: readonly ModuleFingerprint[]): Promise<string[]> {
  const now = await hashFiles(modules.map((module) => module.file));
  return now
    .filter((current, index) => current.sha256 !== modules[index]?.sha256)
    .map((current) => current.file);
}
