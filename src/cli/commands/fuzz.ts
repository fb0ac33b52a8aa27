import type { Command } from 'commander';
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
import { readYamlInputFile } from '../inputFiles.js';
import { loadRules } from './termination.js';

interface FuzzTerminationCommandOptions {
  metric: string[];
  runs?: string;
  seed?: string;
  require: string[];
  maxEvaluations?: string;
  json?: boolean;
}

const fuzzedReasons: readonly FuzzedReason[] = ['success', 'plateau', 'max_episodes'];

/**
 * Register `arena fuzz termination <rules.yaml>`: fuzz a rule set with
 * fast-check before a run. `--metric objective=0:1` sets a metric's range for
 * every agent, `--metric SAC.objective=0:2` for agent SAC only. Exit code 1
 * when a `--require`d reason is unreachable or an invariant does not hold on
 * the rules, 2 on bad input (such as an agent that is not in the rules, or a
 * metric no rule of that agent reads).
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
    .argument('<rules>', 'YAML or JSON file with the agents: rules (and optional phase:)')
    .option(
      '--metric <[agent.]name=low:high>',
      "the range of a metric the rules read, or with agent. of one agent's metric, overriding the metric's range for that agent (repeatable; default 0:1)",
      collect,
      [],
    )
    .option(
      '--runs <n>',
      `fast-check runs per search and per invariant (default ${FUZZ_DEFAULTS.runs})`,
    )
    .option('--seed <n>', `fast-check seed (default ${FUZZ_DEFAULTS.seed})`)
    .option(
      '--require <reason>',
      'exit 1 unless this reason is reachable: success, plateau or max_episodes (repeatable)',
      collect,
      [],
    )
    .option(
      '--max-evaluations <n>',
      `the longest metric sequence searched (default ${FUZZ_DEFAULTS.maxEvaluations})`,
    )
    .option('--json', 'print the report as JSON')
    .action((rulesPath: string, options: FuzzTerminationCommandOptions) => {
      process.exitCode = fuzzTerminationCommand(rulesPath, options);
    });
}

function fuzzTerminationCommand(rulesPath: string, options: FuzzTerminationCommandOptions): number {
  const config = loadRules(rulesPath);
  const phase = loadPhase(rulesPath);
  try {
    const report = fuzzTermination(config, {
      ranges: options.metric.map((text): MetricRange => parseMetricRange(text)),
      runs: integerOption('--runs', options.runs, FUZZ_DEFAULTS.runs),
      seed: integerOption('--seed', options.seed, FUZZ_DEFAULTS.seed),
      maxEvaluations: integerOption(
        '--max-evaluations',
        options.maxEvaluations,
        FUZZ_DEFAULTS.maxEvaluations,
      ),
      phase,
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

/** The rules file's optional `phase:`, validated like a run file's phase_config. */
function loadPhase(rulesPath: string): PhaseConfiguration | null {
  const document = readYamlInputFile(rulesPath);
  if (typeof document !== 'object' || document === null || !('phase' in document)) return null;
  const phase = (document as { phase: unknown }).phase;
  if (phase === null || phase === undefined) return null;
  try {
    return validatePhaseConfiguration(phase as Record<string, unknown>);
  } catch (error) {
    if (error instanceof ArenaError) throw new CliError(`${rulesPath}: ${error.message}`);
    throw error;
  }
}

function integerOption(option: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) {
    throw new CliError(`${option} must be an integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
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
