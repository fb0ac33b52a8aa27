/**
 * What fuzzing a rule set costs: checkpoints per second through the pure
 * termination domain on pre-built sequences (the baseline), the same inside a
 * fast-check search (generation, the property, shrinking) as a share of the
 * baseline (target ≥ 0.8), and the wall time of a whole `arena fuzz
 * termination` report on the shipped example rules.
 */
import fc from 'fast-check';
import { loadRules } from '../src/cli/commands/termination.js';
import { fuzzTermination } from '../src/fuzz/index.js';
import { sequenceArbitrary } from '../src/fuzz/termination/arbitraries.js';
import { resolveMetricRanges } from '../src/fuzz/termination/metricRanges.js';
import { findSequence } from '../src/fuzz/termination/search.js';
import { type MetricSequence, playSequence } from '../src/fuzz/termination/sequences.js';

const config = loadRules('examples/termination/rules.yaml');
const ranges = resolveMetricRanges(config, []);
const length = { minLength: 30, maxLength: 30 };
const runs = 1000;
const rounds = 7;

const sequences = fc.sample(sequenceArbitrary(config, ranges, length), { numRuns: runs, seed: 1 });
const direct = () => {
  let applied = 0;
  const start = performance.now();
  for (const sequence of sequences) applied += playSequence(config, sequence).evaluations;
  return applied / ((performance.now() - start) / 1000);
};
const search = () => {
  let applied = 0;
  const start = performance.now();
  // A search that never succeeds runs all its runs: the steady cost of searching.
  findSequence(config, ranges, length, { runs, seed: 1 }, (sequence: MetricSequence) => {
    applied += playSequence(config, sequence).evaluations;
    return false;
  });
  return applied / ((performance.now() - start) / 1000);
};
direct(); // warm-up, not counted
search();
// Interleaved rounds, the best of each: on a shared machine load then slows both alike.
let baseline = 0;
let searched = 0;
for (let round = 0; round < rounds; round++) {
  baseline = Math.max(baseline, direct());
  searched = Math.max(searched, search());
}

const reportSeconds = Math.min(
  ...[1, 2, 3].map(() => {
    const start = performance.now();
    fuzzTermination(config, { runs: 200, seed: 42 });
    return (performance.now() - start) / 1000;
  }),
);

const line = (name: string, rate: number) =>
  `${name.padEnd(50)} ${Math.round(rate).toString().padStart(7)} checkpoints/s  ${(rate / baseline).toFixed(2)}x`;
console.log(
  `examples/termination/rules.yaml (2 agents), sequences of 30 evaluations, ${runs} runs, best of ${rounds} interleaved rounds`,
);
console.log(line('applyCheckpoint on pre-built sequences (baseline)', baseline));
console.log(line('inside a fast-check search', searched));
const share = searched / baseline;
console.log(
  `search throughput / direct throughput: ${share.toFixed(2)} (target >= 0.8: ${share >= 0.8 ? 'met' : 'MISSED'})`,
);
console.log(
  `whole report (3 reasons, runs forever, 7 invariants; 200 runs each): ${reportSeconds.toFixed(2)} s`,
);
