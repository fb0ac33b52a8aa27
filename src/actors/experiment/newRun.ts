import path from 'node:path';
import { hashFiles, userModuleFiles } from '../../config/moduleFingerprints.js';
import type { RunSpec } from '../../config/runSpec.js';
import { sha256Hex } from '../../domain/shared/canonicalJson.js';
import type { NewRun } from '../../ports/store/store.js';

/**
 * What the store records of a new run of `spec`: its run file (the text, the
 * absolute path and the sha256) and the sha256 of every user module it names,
 * so a later resume can tell that they are still the same.
 *
 * @example
 * ```ts
 * store.createRun(await newRunOf(spec, text)); // { runId: 'grid-…', status: 'running', ... }
 * ```
 */
export async function newRunOf(
  spec: RunSpec,
  runFileText: string = spec.sourceText,
): Promise<NewRun> {
  const modules = await hashFiles(userModuleFiles(spec));
  return {
    uid: spec.uid,
    seed: spec.seed,
    runFile: runFileText,
    runFilePath: path.resolve(spec.sourcePath),
    runFileSha256: sha256Hex(runFileText),
    modules: modules.flatMap(({ file, sha256 }) => (sha256 === null ? [] : [{ file, sha256 }])),
  };
}
