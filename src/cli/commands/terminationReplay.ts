import { open } from 'node:fs/promises';
import { ArenaError } from '../../domain/shared/errors.js';
import type { CheckpointDecision } from '../../domain/termination/checkpoint.js';
import { applyCheckpoint } from '../../domain/termination/checkpoint.js';
import type { TerminationConfig } from '../../domain/termination/config.js';
import type { TerminationReason, TerminationState } from '../../domain/termination/state.js';
import { createTerminationState } from '../../domain/termination/state.js';
import { cannotReadFile } from '../../ports/runtime/unreadableFile.js';
import { CliError } from '../errors.js';
import { fileLines, isFileSystemError } from '../fileLines.js';

/** What one line of a checkpoint log led to. */
export type ReplayStep =
  | { readonly line: number; readonly decision: CheckpointDecision }
  | {
      readonly line: number;
      readonly rejected: { readonly name: string; readonly code: string; readonly message: string };
    };

/** One checkpoint of a log and the 1-based line it was on. */
export interface LoggedCheckpoint {
  readonly line: number;
  readonly checkpoint: unknown;
}

/**
 * Read a checkpoint log one line at a time (one JSON object per non-blank
 * line), so a log of any length needs memory for one line only.
 *
 * @throws CliError (exit code 2) naming the file, and the line of bad JSON.
 * @example
 * ```ts
 * for await (const { line, checkpoint } of readCheckpoints('examples/termination/success.jsonl')) {
 *   console.log(line); // 1, 2, ...
 * }
 * ```
 */
export async function* readCheckpoints(checkpointsPath: string): AsyncGenerator<LoggedCheckpoint> {
  const file = await open(checkpointsPath).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(cannotReadFile(checkpointsPath, error));
  });
  let line = 0;
  try {
    for await (const content of fileLines(file)) {
      line += 1;
      if (content.trim() === '') continue;
      let checkpoint: unknown;
      try {
        checkpoint = JSON.parse(content);
      } catch (error) {
        throw new CliError(`${checkpointsPath}:${line}: invalid JSON: ${(error as Error).message}`);
      }
      yield { line, checkpoint };
    }
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    throw new CliError(cannotReadFile(checkpointsPath, error));
  } finally {
    await file.close();
  }
}

/**
 * Checkpoints applied in order, like the machine: a rejected checkpoint is
 * recorded with its error and changes nothing; the replay goes on. Holds the
 * termination state only, never the steps.
 *
 * @example
 * ```ts
 * const replay = new CheckpointReplay(config);
 * replay.apply(1, { outcomes: [...] }); // { line: 1, decision: { control: 'CONTINUE', ... } }
 * replay.reason; // null until a rule fires
 * ```
 */
export class CheckpointReplay {
  private state: TerminationState;
  private firstReasonLine: number | null = null;
  private applied = 0;

  constructor(config: TerminationConfig) {
    this.state = createTerminationState(config);
  }

  /** The reason the replay has reached, if any. */
  get reason(): TerminationReason | null {
    return this.state.terminationReason;
  }

  /** The line that set {@link reason}. */
  get reasonLine(): number | null {
    return this.firstReasonLine;
  }

  /** How many checkpoints were applied or rejected. */
  get checkpoints(): number {
    return this.applied;
  }

  /** Apply the checkpoint of one line (`{ outcomes: [...] }` or the bare list). */
  apply(line: number, checkpoint: unknown): ReplayStep {
    this.applied += 1;
    const outcomes = isRecord(checkpoint) ? checkpoint.outcomes : checkpoint;
    try {
      const result = applyCheckpoint(this.state, outcomes as unknown[]);
      if (this.state.terminationReason === null && result.state.terminationReason !== null) {
        this.firstReasonLine = line;
      }
      this.state = result.state;
      return { line, decision: result.decision };
    } catch (error) {
      if (!(error instanceof ArenaError)) throw error;
      return { line, rejected: { name: error.name, code: error.code, message: error.message } };
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
