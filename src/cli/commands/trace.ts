import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import {
  buildTimeline,
  formatTimeline,
  parseTrace,
  TraceFormatError,
} from '../../actors/inspection/traceTimeline.js';
import { cannotReadFile } from '../../ports/runtime/unreadableFile.js';
import { CliError } from '../errors.js';

/**
 * Register `arena trace <file.jsonl> [--json]`: the readable timeline of a
 * trace that `arena run --trace` (or `createTraceRecorder`) wrote: per actor,
 * its state changes with the events that caused them and their time offsets,
 * and for each phase's controller the phase it runs.
 *
 * @example
 * ```sh
 * arena trace trace.jsonl
 * # x:0  machine simulationController  phase train  (root)
 * #   +2.1 ms      xstate.init            → idle
 * #   +2.3 ms      start                  idle → starting
 * # ...
 * # 9 actors, 41 events received, 57 state changes over 812.4 ms
 * ```
 */
export function registerTraceCommand(program: Command): void {
  program
    .command('trace')
    .description(
      'print the timeline of an inspection trace (arena run --trace): state changes per actor, each controller with its phase',
    )
    .argument('<trace>', 'the JSONL trace file')
    .option('--json', 'print the timelines as JSON')
    .action((tracePath: string, options: { json?: boolean }) => {
      let text: string;
      try {
        text = readFileSync(tracePath, 'utf8');
      } catch (error) {
        throw new CliError(cannotReadFile(tracePath, error));
      }
      let timelines: ReturnType<typeof buildTimeline>;
      try {
        timelines = buildTimeline(parseTrace(text, tracePath));
      } catch (error) {
        if (error instanceof TraceFormatError) throw new CliError(error.message);
        throw error;
      }
      process.stdout.write(
        options.json ? `${JSON.stringify(timelines, null, 2)}\n` : formatTimeline(timelines),
      );
    });
}
