/**
 * Fault trials with real `arena` processes, the table of issue #10:
 *
 *   npx tsx scripts/fault-trials.ts [--tries N] [--cli cli/bin/arena.js] [--seed S]
 *     [--trials kill,ctrl-c,two-resumes,writers] [run-file ...]
 *
 * For each run file: SIGKILL during `arena run --resume` then `--resume` again;
 * Ctrl-C, `--resume`, Ctrl-C, `--resume`; two `--resume` of one run at once;
 * N `arena run` on one store at once. Prints tried / identical / lost per trial.
 */
import path from 'node:path';
import {
  concurrentWritersTrial,
  interruptedTrial,
  referenceRun,
  type TrialResult,
  trialRng,
  twoResumesTrial,
} from '../test/support/faultTrials.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const index = argv.indexOf(name);
  if (index < 0) return fallback;
  const [value] = argv.splice(index, 2).slice(1);
  return value ?? fallback;
};
const tries = Number(option('--tries', '4'));
// e.g. --trials kill,ctrl-c: only those rows (default all four)
const trials = new Set(option('--trials', 'kill,ctrl-c,two-resumes,writers').split(','));
const cli = path.resolve(option('--cli', 'cli/bin/arena.js'));
const rng = trialRng(Number(option('--seed', '10')));
const runFiles = (
  argv.length > 0
    ? argv
    : [
        'examples/hosting-capacity.yaml',
        'examples/custom-environment.yaml',
        'examples/two-feeders.yaml',
      ]
).map((file) => path.resolve(file));

const results: TrialResult[] = [];
for (const runFile of runFiles) {
  const reference = await referenceRun(cli, runFile);
  for (let attempt = 0; attempt < tries; attempt++) {
    if (trials.has('kill')) {
      results.push(
        await interruptedTrial(cli, runFile, reference, rng, { signal: 'SIGKILL', interrupts: 2 }),
      );
    }
    if (trials.has('ctrl-c')) {
      results.push(
        await interruptedTrial(cli, runFile, reference, rng, { signal: 'SIGINT', interrupts: 2 }),
      );
    }
    if (trials.has('two-resumes'))
      results.push(await twoResumesTrial(cli, runFile, reference, rng));
    if (trials.has('writers')) {
      results.push(await concurrentWritersTrial(cli, runFile, reference, 4));
    }
    process.stderr.write('.');
  }
}
process.stderr.write('\n');

const rows = new Map<string, TrialResult[]>();
for (const result of results) rows.set(result.trial, [...(rows.get(result.trial) ?? []), result]);
console.log(
  '| what was tried | tried | identical | lost | interruptions that struck (of a resume with new episodes) |',
);
console.log('|---|---|---|---|---|');
for (const [trial, list] of rows) {
  const identical = list.filter((result) => result.identical).length;
  const sum = (pick: (result: TrialResult) => number | undefined) =>
    list.reduce((total, result) => total + (pick(result) ?? 0), 0);
  const struck = list.some((result) => result.landed !== undefined)
    ? `${sum((result) => result.landed)} (${sum((result) => result.landedInProgressedResume)})`
    : '-';
  console.log(
    `| ${trial} | ${list.length} | ${identical} | ${list.length - identical} | ${struck} |`,
  );
}
for (const result of results.filter((entry) => !entry.identical)) {
  console.log(`- ${result.trial} (${path.basename(result.runFile)}): ${result.note}`);
}
