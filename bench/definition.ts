/**
 * The definition round trip at 1k, 10k and 100k numeric leaves: derive the
 * proposal, build the provider, vectorize, patch every value, validate. Each
 * time is printed as a ratio to one `structuredClone` of the same scenario,
 * measured in the same process. Targets: the 100k round trip within 20x of a
 * clone, and linear growth (100k / 10k near 10).
 *
 * Times are CPU time of this process (user + system, `process.cpuUsage`),
 * because the machine is shared and wall time grows with other people's load;
 * small sizes run in batches so each figure spans many milliseconds; each
 * figure is the minimum over several repeats.
 */
import { DefinitionProvider, proposeDefinition } from '../src/domain/definition/index.js';
import type { JsonObject } from '../src/domain/shared/json.js';

const repeats = 7;
const sizes = [1_000, 10_000, 100_000];

/** A MIDAS-like scenario: feeders with named scalars and [name, value] mappings. */
function scenarioWith(leaves: number): JsonObject {
  const feeders: JsonObject = {};
  let made = 0;
  for (let feeder = 0; made < leaves; feeder++) {
    const mapping: JsonObject = {};
    const count = Math.min(90, leaves - made);
    for (let bus = 0; bus < count; bus++)
      mapping[String(bus)] = [['Load', 0.5 + ((made + bus) % 97) / 10]];
    made += count;
    const named: JsonObject = {};
    for (let index = 0; index < 10 && made < leaves; index++, made++) {
      named[`p${index}`] = 1 + index;
    }
    feeders[`feeder_${feeder}`] = { profile: 'residential', enabled: true, mapping, named };
  }
  return { step_size_name: 'quarter-hour', feeders };
}

function minimum(values: number[]): number {
  return Math.min(...values);
}

/** CPU milliseconds per call of `run`, over `batch` calls. */
function time(run: () => void, batch: number): number {
  const start = process.cpuUsage();
  for (let call = 0; call < batch; call++) run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / batch;
}

interface Measurement {
  clone: number;
  derive: number;
  vectorize: number;
  patch: number;
  validate: number;
  total: number;
}

function measure(leaves: number): Measurement {
  const scenario = scenarioWith(leaves);
  const batch = Math.max(1, Math.round(50_000 / leaves));
  const samples: Measurement[] = [];
  for (let repeat = 0; repeat < repeats + 1; repeat++) {
    globalThis.gc?.();
    const clone = time(() => structuredClone(scenario), batch);
    let provider: DefinitionProvider | undefined;
    const derive = time(() => {
      provider = new DefinitionProvider(proposeDefinition('midas', scenario));
    }, batch);
    if (provider === undefined) throw new Error('no provider');
    const map = { midas: provider.proposal.scenario };
    let vector = provider.vectorize(map);
    const vectorize = time(() => {
      vector = provider?.vectorize(map) ?? vector;
    }, batch);
    if (vector.uids.length !== leaves) throw new Error(`expected ${leaves} selectors`);
    const actions: Record<string, number> = {};
    vector.uids.forEach((uid, index) => {
      actions[uid] = (vector.values[index] as number) * 1.5;
    });
    let patch = provider.proposePatch(map, {});
    const patchTime = time(() => {
      patch = provider?.proposePatch(map, actions) ?? patch;
    }, batch);
    if (patch.operations.length !== leaves) throw new Error('expected every value patched');
    const validate = time(() => provider?.validate(map, patch), batch);
    const total = derive + vectorize + patchTime + validate;
    if (repeat > 0) samples.push({ clone, derive, vectorize, patch: patchTime, validate, total });
  }
  const pick = (key: keyof Measurement) => minimum(samples.map((sample) => sample[key]));
  return {
    clone: pick('clone'),
    derive: pick('derive'),
    vectorize: pick('vectorize'),
    patch: pick('patch'),
    validate: pick('validate'),
    total: pick('total'),
  };
}

const results = new Map<number, Measurement>();
console.log('leaves  clone cpu ms  derive  vectorize  patch  validate  round trip (x clone)');
for (const leaves of sizes) {
  const m = measure(leaves);
  results.set(leaves, m);
  const ratio = (value: number) => (value / m.clone).toFixed(1).padStart(6);
  console.log(
    `${String(leaves).padStart(6)}  ${m.clone.toFixed(2).padStart(12)}  ${ratio(m.derive)}  ${ratio(m.vectorize)}     ${ratio(m.patch)}  ${ratio(m.validate)}    ${ratio(m.total)}`,
  );
}
const large = results.get(100_000);
const medium = results.get(10_000);
if (large && medium) {
  const withinClone = large.total / large.clone;
  const growth = large.total / medium.total;
  console.log(
    `100k round trip = ${withinClone.toFixed(1)}x one clone (target <= 20x): ${withinClone <= 20 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `growth 100k / 10k = ${growth.toFixed(1)} (linear is 10; clone grew ${(large.clone / medium.clone).toFixed(1)})`,
  );
}
