import type { Command } from 'commander';
import { type ConfigIssue, formatYamlPath, type PathSegment } from '../../config/configIssue.js';
import { describeIssues } from '../../config/runFileError.js';
import { locateRunFileIssues } from '../../config/validateRunFile.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { TerminationConfig } from '../../domain/termination/config.js';
import {
  parseTerminationConfig,
  terminationConfigIssues,
} from '../../domain/termination/config.js';
import { validatePhaseConfiguration } from '../../domain/termination/phase.js';
import { CliError } from '../errors.js';
import { readYamlInput } from '../inputFiles.js';
import { LineWriter } from '../lineWriter.js';
import { CheckpointReplay, readCheckpoints } from './terminationReplay.js';
import { ColumnWidths, finalLine, tableEntries } from './terminationTable.js';

/**
 * Register `arena termination replay <rules.yaml> <checkpoints.jsonl> [--json]`.
 *
 * The rules file holds the seed's `agents:` mapping, either at the top
 * (`agents: {...}`) or in the run file's condition shape
 * (`condition: { params: { agents } }`, optionally under `run_config:`), and an
 * optional `phase:` that is validated like a run file's `phase_config`.
 *
 * @example
 * ```sh
 * arena termination replay examples/termination/rules.yaml examples/termination/success.jsonl
 * # line  agent  evaluation  status     metric  smoothed  streak  patience  best   decision
 * # 1     PPO    ppo-0 #0    accepted   0.41    -         0/2     0/3       -      CONTINUE
 * # ...
 * # final reason: success (line 6)
 * ```
 */
export function registerTerminationCommand(program: Command): void {
  const termination = program
    .command('termination')
    .description('evaluation-aware termination: try rules on recorded evaluations');
  termination
    .command('replay')
    .description('replay a checkpoint log (JSON lines of {"outcomes": [...]}) against a rule set')
    .argument('<rules>', 'YAML or JSON file with the agents: rules (and optional phase:)')
    .argument('<checkpoints>', 'JSON lines file, one evaluation checkpoint per line')
    .option('--json', 'print one JSON object per checkpoint and a final one')
    .action(async (rulesPath: string, checkpointsPath: string, options: { json?: boolean }) => {
      const config = loadRules(rulesPath);
      const out = new LineWriter(process.stdout);
      await (options.json
        ? replayAsJsonLines(config, checkpointsPath, out)
        : replayAsTable(config, checkpointsPath, out));
      await out.flush();
    });
}

/**
 * Read and validate a rules file: every problem at once, each with its YAML
 * path, line and column, as `arena validate` lists a run file's.
 *
 * @throws CliError (exit code 2): `<path>: invalid rules file, N problems:`,
 * then one indented line per problem.
 * @example
 * ```ts
 * loadRules('examples/termination/rules.yaml').agentNames; // ['PPO', 'SAC']
 * loadRules('bad.yaml');
 * // throws CliError('bad.yaml: invalid rules file, 1 problem:\n  agents.SAC.success.threshold: missing; it must be a finite number (line 3, column 14)')
 * ```
 */
export function loadRules(rulesPath: string): TerminationConfig {
  const { text, value: document } = readYamlInput(rulesPath);
  const at = rulesPlaceOf(document);
  const params = valueAt(document, at);
  if (!isRecord(params) || !('agents' in params)) {
    throw new CliError(
      `${rulesPath}: expected an "agents:" mapping (or condition.params.agents), found none`,
    );
  }
  const rules = { agents: params.agents };
  const issues: ConfigIssue[] = terminationConfigIssues(rules).map((issue) => ({
    path: formatYamlPath([...at, ...issue.path]),
    message: issue.detail,
    location: null,
  }));
  if (isRecord(document) && document.phase !== undefined && document.phase !== null) {
    try {
      validatePhaseConfiguration(document.phase as Record<string, unknown>);
    } catch (error) {
      if (!ArenaError.is(error)) throw error;
      // `phase.episodes must be ...`: the field as the path, the rest as the message.
      const field = /^phase(\.[a-z_]+)? (.*)$/s.exec(error.message);
      issues.push({
        path: `phase${field?.[1] ?? ''}`,
        message: field === null ? error.message : field[2]!,
        location: null,
      });
    }
  }
  if (issues.length > 0) {
    throw new CliError(
      describeIssues(rulesPath, 'invalid rules file', locateRunFileIssues(text, issues)),
    );
  }
  return parseTerminationConfig(rules);
}

/**
 * Where a rules file keeps the mapping that holds `agents`: the top, or the
 * run file's condition shape (`condition.params`, optionally under `run_config`).
 */
function rulesPlaceOf(document: unknown): PathSegment[] {
  const at: PathSegment[] = [];
  const source =
    isRecord(document) && isRecord(document.run_config) ? document.run_config : document;
  if (source !== document) at.push('run_config');
  const condition = isRecord(source) && isRecord(source.condition) ? source.condition : null;
  if (condition !== null && isRecord(condition.params)) at.push('condition', 'params');
  return at;
}

function valueAt(document: unknown, at: readonly PathSegment[]): unknown {
  let value = document;
  for (const segment of at) value = (value as Record<string, unknown>)[segment as string];
  return value;
}

/**
 * JSON lines, written as the log is read: one `{ line, decision }` or
 * `{ line, rejected }` per checkpoint, then `{ final: { reason, line } }`.
 * Lines before a line of bad JSON are already printed when it stops.
 *
 * @example
 * ```ts
 * await replayAsJsonLines(config, 'success.jsonl', out);
 * // ... {"final":{"reason":"success","line":6}}
 * ```
 */
export async function replayAsJsonLines(
  config: TerminationConfig,
  checkpointsPath: string,
  out: LineWriter,
): Promise<void> {
  const replay = new CheckpointReplay(config);
  for await (const { line, checkpoint } of readCheckpoints(checkpointsPath)) {
    await out.line(JSON.stringify(replay.apply(line, checkpoint)));
  }
  await out.line(JSON.stringify({ final: { reason: replay.reason, line: replay.reasonLine } }));
}

/**
 * An aligned plain-text table (the same on a TTY and in a pipe): one row per
 * agent per checkpoint, one note per rejected checkpoint, then the final
 * reason. The log is replayed twice, first for the column widths, so memory
 * does not grow with its length.
 *
 * @example
 * ```ts
 * await replayAsTable(config, 'plateau.jsonl', out);
 * // line  agent  evaluation  status     metric  smoothed  streak  patience  best   decision
 * // 1     PPO    ppo-0 #0    accepted   0.41    -         0/2     0/3       -      CONTINUE
 * // ...
 * // 4     rejected: ConflictingDuplicateError: agent "PPO": evaluation "ppo-2" was …
 * // final reason: plateau (line 8)
 * ```
 */
export async function replayAsTable(
  config: TerminationConfig,
  checkpointsPath: string,
  out: LineWriter,
): Promise<void> {
  const widths = new ColumnWidths();
  const measuring = new CheckpointReplay(config);
  for await (const { line, checkpoint } of readCheckpoints(checkpointsPath)) {
    for (const entry of tableEntries(config, measuring.apply(line, checkpoint))) {
      if (entry.kind === 'row') widths.add(entry.cells);
    }
  }
  const replay = new CheckpointReplay(config);
  await out.line(widths.header());
  for await (const { line, checkpoint } of readCheckpoints(checkpointsPath)) {
    for (const entry of tableEntries(config, replay.apply(line, checkpoint))) {
      await out.line(widths.entry(entry));
    }
  }
  await out.line(finalLine(replay));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
