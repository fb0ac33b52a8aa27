import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './cli.js';
import { scratchFolder } from './scratch.js';

/** `arena sweep --json`'s table, as the tests read it. */
export interface TableRow {
  index: number;
  parameters: Record<string, unknown>;
  status: string;
  prunedAt: { rung: number; checkpoints: number } | null;
  objective: (number | null)[] | null;
  checkpoints: number;
  episodes: number;
  runId: string;
}
export interface Table {
  sweepId: string;
  status: string;
  trials: TableRow[];
  decisions: unknown[];
}

/** The table without what differs between two stores (ids). */
export const decided = (table: Table) => ({
  status: table.status,
  decisions: table.decisions,
  trials: table.trials.map(({ runId: _runId, ...row }) => row),
});

/** A sweep of eight seeds of the slow line (each step sleeps 2 ms: long enough to be killed in the middle). */
export function slowSweep(): { folder: string; sweepFile: string; store: string } {
  const folder = scratchFolder('arena-sweep-');
  cpSync(path.join(repoRoot, 'test/fixtures/runs/slow'), folder, { recursive: true });
  const runFile = path.join(folder, 'run.yaml');
  writeFileSync(runFile, readFileSync(runFile, 'utf8').replace('delay_ms: 1', 'delay_ms: 2'));
  const sweepFile = path.join(folder, 'sweep.yaml');
  writeFileSync(
    sweepFile,
    [
      'sweep: slow-seeds',
      'run_file: run.yaml',
      'parameters:',
      '  - pointer: /seed',
      '    values: [1, 2, 3, 4, 5, 6, 7, 8]',
      'objective: { metric: objective, agent: operator, direction: maximize }',
      'pruner:',
      '  successive_halving: { rungs: [2, 4], eta: 2 }',
      '',
    ].join('\n'),
  );
  return { folder, sweepFile, store: path.join(folder, 'sweep.db') };
}
