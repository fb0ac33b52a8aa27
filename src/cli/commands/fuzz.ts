import type { Command } from 'commander';
import { parseRunFile } from '../../config/runFile.js';
import type { PhaseSpec } from '../../config/runSpec.js';
import { ArenaError } from '../../domain/shared/errors.js';
import type { PhaseConfiguration } from '../../domain/termination/phase.js';
import { validatePhaseConfiguration } from '../../domain/termination/phase.js';
import type { FuzzedReason, MetricRange } from '../../fuzz/index.js';
import {
  FUZZ_DEFAULTS,
  formatFuzzReport,
  fuzzTermination,
  parseMetricRange,
} from '../../fuzz/index.js';
import { CliError, ExitCode } from '../errors.js';
import { readYamlInput } from '../inputFiles.js';
import { loadRules } from './termination.js';

interface FuzzTerminationCommandOptions {
  metric: string[];
  runs?: string;
  seed?: string;
  require: string[];
  maxEvaluations?: string;
  phase?: string;
  json?: boolean;
}

const fuzzedReasons: readonly FuzzedReason[] = ['success', 'plateau', 'max_episodes'];

/**
 * Register `arena fuzz termination <rules.yaml>`: fuzz a rule set with
 * fast-check before a run. `--metric objective=0:1` sets a metric's range for
 * every agent, `--metric SAC.objective=0:2` for agent SAC only. Exit code 1
 * when a `--require`d reason is unreachable or an invariant does not hold on
 * the rules, 2 on bad input (such as an agent that is not in the rules, or a
 * metric no rule of that agent reads). Given a run file, the phase (its
 * `episodes` cap and `evaluate_every`) is read from the schedule's train
 * phases; when they differ, `--phase <name>` picks one.
 *
 * @example
 * ```sh
 * arena fuzz termination examples/termination/rules.yaml --metric objective=0:1 --require success
 * # arena fuzz termination examples/termination/rules.yaml
 * # seed 42, 200 runs per search, sequences of up to 50 evaluations
 * # metric ranges: objective 0:1
 * #
 * # terminal reasons
 * #   success       reachable in 3 evaluations (minimal: the rules need at least 3 evaluations)
 * #                   PPO.objective  0, 0.8, 0.8
 * #                   SAC.objective  0, 0.8, 0.8
 * # ...
 * # required reasons reachable: success
 * ```
 */
export function registerFuzzCommand(program: Command): void {
  const fuzz = program
    .command('fuzz')
    .description('fuzz lifecycle rules with fast-check before spending compute');
  fuzz
    .command('termination')
    .description(
      'fuzz an evaluation termination rule set: reachable reasons, fewest evaluations, shortest examples, runs forever, invariants',
    )
    .argument(
      '<rules>',
      'YAML or JSON file with the agents: rules (and optional phase:), or a run file (rules from run_config.condition, phase from its schedule)',
    )
    .option(
      '--metric <[agent.]name=low:high>',
      "the range of a metric the rules read, or with agent. of one agent's metric, overriding the metric's range for that agent (repeatable; default 0:1, widened to twice a success threshold outside it)",
      collect,
      [],
    )
    .option(
      '--runs <n>',
      `fast-check runs per search and per invariant, 1 to 1000000 (default ${FUZZ_DEFAULTS.runs})`,
    )
    .option(
      '--seed <n>',
      `fast-check seed, -2147483647 to 2147483647 (default ${FUZZ_DEFAULTS.seed})`,
    )
    .option(
      '--require <reason>',
      'exit 1 unless this reason is reachable: success, plateau or max_episodes (repeatable)',
      collect,
      [],
    )
    .option(
      '--max-evaluations <n>',
      `the longest metric sequence searched, 1 to 100000 (default ${FUZZ_DEFAULTS.maxEvaluations})`,
    )
    .option(
      '--phase <name>',
      'with a run file: the train phase whose episodes cap and evaluate_every to use (needed only when the train phases differ)',
    )
    .option('--json', 'print the report as JSON')
    .action((rulesPath: string, options: FuzzTerminationCommandOptions) => {
      process.exitCode = fuzzTerminationCommand(rulesPath, options);
    });
}

function fuzzTerminationCommand(rulesPath: string, options: FuzzTerminationCommandOptions): number {
  const config = loadRules(rulesPath);
  const { phase, origin } = loadPhase(rulesPath, options.phase);
  try {
    const report = fuzzTermination(config, {
      ranges: options.metric.map((text): MetricRange => parseMetricRange(text)),
      runs: integerOption('--runs', options.runs, FUZZ_DEFAULTS.runs, fuzzMost.runs),
      seed: integerOption('--seed', options.seed, FUZZ_DEFAULTS.seed, fuzzMost.seed),
      maxEvaluations: integerOption(
        '--max-evaluations',
        options.maxEvaluations,
        FUZZ_DEFAULTS.maxEvaluations,
        fuzzMost.maxEvaluations,
      ),
      phase,
      phaseOrigin: origin,
      require: options.require.map(requiredReason),
    });
    process.stdout.write(
      options.json ? `${JSON.stringify(report, null, 2)}\n` : formatFuzzReport(report, rulesPath),
    );
    const failed =
      report.unreachableRequired.length > 0 || report.invariants.some((finding) => !finding.held);
    return failed ? ExitCode.failed : ExitCode.ok;
  } catch (error) {
    if (error instanceof ArenaError && !(error instanceof CliError)) {
      throw new CliError(error.message);
    }
    throw error;
  }
}

/** The phase to fuzz in, and where it came from (`null`: the rules file's own `phase:`). */
interface LoadedPhase {
  readonly phase: PhaseConfiguration | null;
  readonly origin: string | null;
}

/**
 * The phase the rules run in: a run file's train phases (after inheritance),
 * or a rules file's optional `phase:`, validated like a run file's phase_config.
 */
function loadPhase(rulesPath: string, phaseName: string | undefined): LoadedPhase {
  const { text, value: document } = readYamlInput(rulesPath);
  if (typeof document === 'object' && document !== null && 'schedule' in document) {
    return runFilePhase(rulesPath, text, phaseName);
  }
  if (phaseName !== undefined) {
    throw new CliError(
      `--phase ${phaseName}: ${rulesPath} is a rules file, not a run file with a schedule of phases`,
    );
  }
  if (typeof document !== 'object' || document === null || !('phase' in document)) {
    return { phase: null, origin: null };
  }
  const phase = (document as { phase: unknown }).phase;
  if (phase === null || phase === undefined) return { phase: null, origin: null };
  try {
    return { phase: validatePhaseConfiguration(phase as Record<string, unknown>), origin: null };
  } catch (error) {
    if (error instanceof ArenaError) throw new CliError(`${rulesPath}: ${error.message}`);
    throw error;
  }
}

/** The train phase of a run file the rules end, or the one `--phase` names. */
function runFilePhase(rulesPath: string, text: string, phaseName: string | undefined): LoadedPhase {
  let phases: readonly PhaseSpec[];
  try {
    phases = parseRunFile(text, { sourcePath: rulesPath }).phases;
  } catch (error) {
    if (error instanceof ArenaError)
      throw new CliError(error.message, ExitCode.badInput, { cause: error });
    throw error;
  }
  const training = phases.filter((phase) => phase.phaseConfig.mode === 'train');
  const capOf = (phase: PhaseSpec) =>
    `${phase.name}: episodes ${phase.phaseConfig.episodes ?? 'none'}, evaluate_every ${phase.phaseConfig.evaluateEvery ?? '-'}`;
  let chosen: readonly PhaseSpec[];
  if (phaseName !== undefined) {
    const named = phases.find((phase) => phase.name === phaseName);
    if (named === undefined || named.phaseConfig.mode !== 'train') {
      throw new CliError(
        `--phase ${phaseName}: expected one of the train phases of ${rulesPath}: ${training.map((phase) => phase.name).join(', ') || 'none'}`,
      );
    }
    chosen = [named];
  } else {
    if (training.length === 0) {
      throw new CliError(
        `${rulesPath}: the schedule has no train phase, so its termination rules never end a phase`,
      );
    }
    const caps = new Set(training.map((phase) => JSON.stringify(capKey(phase))));
    if (caps.size > 1) {
      throw new CliError(
        `${rulesPath}: the train phases differ in episodes or evaluate_every (${training.map(capOf).join('; ')}); choose one with --phase <name>`,
      );
    }
    chosen = training;
  }
  const [first] = chosen as [PhaseSpec, ...PhaseSpec[]];
  const names = chosen.map((phase) => phase.name);
  try {
    return {
      phase: validatePhaseConfiguration({
        mode: 'train',
        worker: first.phaseConfig.worker,
        episodes: first.phaseConfig.episodes,
        evaluate_every: first.phaseConfig.evaluateEvery,
      }),
      origin: `${names.length === 1 ? 'phase' : 'phases'} ${names.join(', ')} of ${rulesPath}`,
    };
  } catch (error) {
    if (error instanceof ArenaError) {
      throw new CliError(`${rulesPath}: ${first.yamlPath}.phase_config: ${error.message}`);
    }
    throw error;
  }
}

function capKey(phase: PhaseSpec): [number | null, number | null] {
  return [phase.phaseConfig.episodes, phase.phaseConfig.evaluateEvery];
}

/** The largest value of each numeric option (a search of 1e15 runs would never end; fast-check seeds are 32-bit). */
const fuzzMost = { runs: 1_000_000, seed: 0x7fffffff, maxEvaluations: 100_000 } as const;

function integerOption(
  option: string,
  raw: string | undefined,
  fallback: number,
  most: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) {
    throw new CliError(`${option} must be an integer, got ${JSON.stringify(raw)}`);
  }
  const value = Number(raw);
  if (Math.abs(value) > most) {
    throw new CliError(`${option} must be at most ${most}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function requiredReason(raw: string): FuzzedReason {
  const reason = fuzzedReasons.find((candidate) => candidate === raw);
  if (reason === undefined) {
    throw new CliError(`--require ${raw}: expected one of ${fuzzedReasons.join(', ')}`);
  }
  return reason;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
