import type { Command } from 'commander';

type Register = (program: Command) => void;

/** Every top-level `arena` command and how to load the module that registers it. */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  run: async () => (await import('./run.js')).registerRunCommand,
  validate: async () => (await import('./validate.js')).registerValidateCommand,
  schema: async () => (await import('./schema.js')).registerSchemaCommand,
  termination: async () => (await import('./termination.js')).registerTerminationCommand,
  // runs.js registers `runs` and `show`.
  runs: async () => (await import('./runs.js')).registerRunsCommands,
  judge: async () => (await import('./judge.js')).registerJudgeCommand,
  diagram: async () => (await import('./diagram.js')).registerDiagramCommand,
  report: async () => (await import('./report.js')).registerReportCommand,
  fuzz: async () => (await import('./fuzz.js')).registerFuzzCommand,
  trace: async () => (await import('./trace.js')).registerTraceCommand,
  check: async () => (await import('./check.js')).registerCheckCommand,
  submit: async () => (await import('./submit.js')).registerSubmitCommand,
  worker: async () => (await import('./worker.js')).registerWorkerCommand,
  requeue: async () => (await import('./requeue.js')).registerRequeueCommand,
  serve: async () => (await import('./serve.js')).registerServeCommand,
  sweep: async () => (await import('./sweep.js')).registerSweepCommand,
  sweeps: async () => (await import('./sweeps.js')).registerSweepsCommand,
};

/** Top-level commands registered by another command's module. */
const ALIASES: Readonly<Record<string, string>> = { show: 'runs' };

/** Global options that take a value as the next argument (`--log-level debug`). */
const GLOBAL_OPTIONS_WITH_VALUES = new Set(['--log-level', '--max-input-bytes']);

/**
 * Register every `arena` subcommand, or with `argv` only the one it runs: its
 * module alone is loaded, so `arena judge` starts without loading the
 * experiment runner, the stores or the queue. An `argv` that names no known
 * command (`--help`, `--version`, a typo) registers them all, so help and
 * "unknown command" suggestions still list every command.
 *
 * @example
 * ```ts
 * const program = new Command('arena');
 * await registerCommands(program, ['node', 'arena', 'judge', 'cases.jsonl', '--config', 'judge.yaml']);
 * program.commands.map((command) => command.name()); // ['judge']
 * ```
 */
export async function registerCommands(program: Command, argv?: readonly string[]): Promise<void> {
  const typed = argv === undefined ? undefined : commandNameOf(argv.slice(2));
  const named = typed !== undefined && Object.hasOwn(ALIASES, typed) ? ALIASES[typed] : typed;
  const wanted =
    named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  const registers = await Promise.all(wanted.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
}

/** The first argument that is neither an option nor a global option's value. */
function commandNameOf(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (GLOBAL_OPTIONS_WITH_VALUES.has(arg)) index++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}
