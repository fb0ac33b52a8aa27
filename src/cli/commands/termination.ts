import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { ArenaError } from '../../domain/shared/errors.js';
import type { CheckpointDecision } from '../../domain/termination/checkpoint.js';
import { applyCheckpoint } from '../../domain/termination/checkpoint.js';
import type { TerminationConfig } from '../../domain/termination/config.js';
import { parseTerminationConfig } from '../../domain/termination/config.js';
import { validatePhaseConfiguration } from '../../domain/termination/phase.js';
import type { TerminationReason, TerminationState } from '../../domain/termination/state.js';
import { createTerminationState } from '../../domain/termination/state.js';
import { CliError } from '../errors.js';

/** What one line of a checkpoint log led to. */
export type ReplayStep =
  | { readonly line: number; readonly decision: CheckpointDecision }
  | {
      readonly line: number;
      readonly rejected: { readonly name: string; readonly code: string; readonly message: string };
    };

/** A whole replay: every step, and the final reason with the line that set it. */
export interface ReplayResult {
  readonly steps: readonly ReplayStep[];
  readonly reason: TerminationReason | null;
  readonly reasonLine: number | null;
}

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
    .action((rulesPath: string, checkpointsPath: string, options: { json?: boolean }) => {
      const config = loadRules(rulesPath);
      const checkpoints = loadCheckpoints(checkpointsPath);
      const result = replayCheckpoints(config, checkpoints);
      process.stdout.write(options.json ? formatJsonLines(result) : formatTable(config, result));
    });
}

/**
 * Read and validate a rules file.
 *
 * @throws CliError (exit code 2) with one line: `<path>: <what is wrong>`.
 * @example
 * ```ts
 * loadRules('examples/termination/rules.yaml').agentNames; // ['PPO', 'SAC']
 * ```
 */
export function loadRules(rulesPath: string): TerminationConfig {
  const document = parseYamlFile(rulesPath);
  const source =
    isRecord(document) && isRecord(document.run_config) ? document.run_config : document;
  const condition = isRecord(source) && isRecord(source.condition) ? source.condition : null;
  const params = condition !== null && isRecord(condition.params) ? condition.params : source;
  if (!isRecord(params) || !('agents' in params)) {
    throw new CliError(
      `${rulesPath}: expected an "agents:" mapping (or condition.params.agents), found none`,
    );
  }
  try {
    const config = parseTerminationConfig({ agents: params.agents });
    if (isRecord(document) && document.phase !== undefined && document.phase !== null) {
      validatePhaseConfiguration(document.phase as Record<string, unknown>);
    }
    return config;
  } catch (error) {
    if (error instanceof ArenaError) throw new CliError(`${rulesPath}: ${error.message}`);
    throw error;
  }
}

/**
 * Read a checkpoint log: one JSON object per non-blank line.
 *
 * @throws CliError (exit code 2) naming the file and line of bad JSON.
 * @example
 * ```ts
 * loadCheckpoints('examples/termination/success.jsonl')[0];
 * // { line: 1, checkpoint: { outcomes: [ ... ] } }
 * ```
 */
export function loadCheckpoints(
  checkpointsPath: string,
): { readonly line: number; readonly checkpoint: unknown }[] {
  const text = readText(checkpointsPath);
  const checkpoints: { line: number; checkpoint: unknown }[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    if (content.trim() === '') return;
    try {
      checkpoints.push({ line: index + 1, checkpoint: JSON.parse(content) });
    } catch (error) {
      throw new CliError(
        `${checkpointsPath}:${index + 1}: invalid JSON: ${(error as Error).message}`,
      );
    }
  });
  return checkpoints;
}

/**
 * Apply every checkpoint in order, like the machine: a rejected checkpoint is
 * recorded with its error and changes nothing; the replay goes on.
 *
 * @example
 * ```ts
 * replayCheckpoints(config, loadCheckpoints('success.jsonl')).reason; // 'success'
 * ```
 */
export function replayCheckpoints(
  config: TerminationConfig,
  checkpoints: readonly { readonly line: number; readonly checkpoint: unknown }[],
): ReplayResult {
  let state: TerminationState = createTerminationState(config);
  let reasonLine: number | null = null;
  const steps: ReplayStep[] = [];
  for (const { line, checkpoint } of checkpoints) {
    const outcomes = isRecord(checkpoint) ? checkpoint.outcomes : checkpoint;
    try {
      const result = applyCheckpoint(state, outcomes as unknown[]);
      if (state.terminationReason === null && result.state.terminationReason !== null) {
        reasonLine = line;
      }
      state = result.state;
      steps.push({ line, decision: result.decision });
    } catch (error) {
      if (!(error instanceof ArenaError)) throw error;
      steps.push({
        line,
        rejected: { name: error.name, code: error.code, message: error.message },
      });
    }
  }
  return { steps, reason: state.terminationReason, reasonLine };
}

/**
 * JSON lines: one `{ line, decision }` or `{ line, rejected }` per checkpoint,
 * then `{ final: { reason, line } }`.
 *
 * @example
 * ```ts
 * formatJsonLines(result).split('\n').at(-2); // '{"final":{"reason":"success","line":6}}'
 * ```
 */
export function formatJsonLines(result: ReplayResult): string {
  const lines = result.steps.map((step) => JSON.stringify(step));
  lines.push(JSON.stringify({ final: { reason: result.reason, line: result.reasonLine } }));
  return `${lines.join('\n')}\n`;
}

const headings = [
  'line',
  'agent',
  'evaluation',
  'status',
  'metric',
  'smoothed',
  'streak',
  'patience',
  'best',
  'decision',
];

/**
 * An aligned plain-text table (the same on a TTY and in a pipe): one row per
 * agent per checkpoint, one row per rejected checkpoint, then the final reason.
 *
 * @example
 * ```ts
 * formatTable(config, replayCheckpoints(config, loadCheckpoints('plateau.jsonl')));
 * // line  agent  evaluation  status     metric  smoothed  streak  patience  best   decision
 * // 1     PPO    ppo-0 #0    accepted   0.41    -         0/2     0/3       -      CONTINUE
 * // ...
 * // 4     rejected: ConflictingDuplicateError: agent "PPO": evaluation "ppo-2" was …
 * // final reason: plateau (line 8)
 * ```
 */
export function formatTable(config: TerminationConfig, result: ReplayResult): string {
  const rows: string[][] = [];
  const notes = new Map<number, { line: number; text: string }[]>();
  const addNote = (beforeRow: number, line: number, text: string): void => {
    notes.set(beforeRow, [...(notes.get(beforeRow) ?? []), { line, text }]);
  };
  for (const step of result.steps) {
    if ('rejected' in step) {
      addNote(rows.length, step.line, `rejected: ${step.rejected.name}: ${step.rejected.message}`);
      continue;
    }
    const { decision } = step;
    const verdict =
      decision.reason === null ? decision.control : `${decision.control} ${decision.reason}`;
    if (decision.report.checkpoint === 'afterTermination') {
      addNote(rows.length, step.line, `not applied: already terminated; ${verdict}`);
      continue;
    }
    for (const agent of decision.report.agents) {
      const rules = config.agents[agent.agentName];
      rows.push([
        String(step.line),
        agent.agentName,
        agent.evaluationId === null
          ? '-'
          : `${agent.evaluationId} #${agent.evaluationEpisode ?? '?'}`,
        agent.status,
        formatNumber(agent.successValue),
        formatNumber(agent.smoothedValue),
        rules?.success ? `${agent.successStreak}/${rules.success.consecutive}` : '-',
        rules?.plateau ? `${agent.plateauPatience}/${rules.plateau.patience}` : '-',
        formatNumber(agent.bestMetric),
        verdict,
      ]);
    }
  }
  const widths = headings.map((heading, column) =>
    Math.max(heading.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const renderNotes = (beforeRow: number): void => {
    for (const note of notes.get(beforeRow) ?? []) {
      out.push(`${String(note.line).padEnd(widths[0] ?? 0)}  ${note.text}`);
    }
  };
  const out = [render(headings)];
  rows.forEach((row, index) => {
    renderNotes(index);
    out.push(render(row));
  });
  renderNotes(rows.length);
  out.push(
    result.reason === null
      ? `final reason: none (still active after ${result.steps.length} checkpoints)`
      : `final reason: ${result.reason} (line ${result.reasonLine})`,
  );
  return `${out.join('\n')}\n`;
}

function formatNumber(value: number | null): string {
  if (value === null) return '-';
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

function parseYamlFile(filePath: string): unknown {
  const text = readText(filePath);
  try {
    return parseYaml(text);
  } catch (error) {
    const message = ((error as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    throw new CliError(`${filePath}: invalid YAML: ${message}`);
  }
}

function readText(filePath: string): string {
  try {
    return readFileSync(filePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CliError(`${filePath}: cannot read the file (${code})`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
