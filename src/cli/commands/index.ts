import type { Command } from 'commander';
import { registerCheckCommand } from './check.js';
import { registerDiagramCommand } from './diagram.js';
import { registerFuzzCommand } from './fuzz.js';
import { registerJudgeCommand } from './judge.js';
import { registerReportCommand } from './report.js';
import { registerRunCommand } from './run.js';
import { registerRunsCommands } from './runs.js';
import { registerSchemaCommand } from './schema.js';
import { registerServeCommand } from './serve.js';
import { registerSubmitCommand } from './submit.js';
import { registerTerminationCommand } from './termination.js';
import { registerTraceCommand } from './trace.js';
import { registerValidateCommand } from './validate.js';
import { registerWorkerCommand } from './worker.js';

/** Every `arena` subcommand, registered in one place. */
export function registerCommands(program: Command): void {
  registerRunCommand(program);
  registerValidateCommand(program);
  registerSchemaCommand(program);
  registerTerminationCommand(program);
  registerRunsCommands(program);
  registerJudgeCommand(program);
  registerDiagramCommand(program);
  registerReportCommand(program);
  registerFuzzCommand(program);
  registerTraceCommand(program);
  registerCheckCommand(program);
  registerSubmitCommand(program);
  registerWorkerCommand(program);
  registerServeCommand(program);
}
