/**
 * Remote components on a real nats-server (loopback): the round trip of one
 * `step` of an environment served by `serveComponents` against the same
 * environment in process (µs per step, the overhead and the ratio), then a
 * whole run with its environment local and served. Target: remote step
 * overhead <= 300 µs. Needs nats-server on PATH and a build (npm run build).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Environment } from '../src/ports/environment.js';
import { serveComponents } from '../src/ports/nats/componentService.js';
import { connectRemoteComponents } from '../src/ports/nats/remoteComponents.js';
import { silentLogger } from '../src/ports/runtime/logger.js';
import { repoRoot, runArena } from '../test/support/cli.js';
import { remoteRunFile, startServe } from '../test/support/componentServer.js';
import { startNatsServer } from '../test/support/natsServer.js';
import { queueExperiment, readStore } from '../test/support/queueFleet.js';

const steps = 5000;
const fixture = path.join(repoRoot, 'test/fixtures/runs/slow/components.js');
const { SlowLine } = (await import(pathToFileURL(fixture).href)) as {
  SlowLine: new (init: unknown) => Environment;
};
const init = { uid: 'line', params: { delay_ms: 0 }, keyOrder: {}, seed: 11 };

async function stepMicros(environment: Environment): Promise<number> {
  await environment.start({ delay_ms: 0 });
  for (let step = 0; step < 200; step++) await environment.step({ 'line.u': 0.1 });
  const started = process.hrtime.bigint();
  for (let step = 0; step < steps; step++) await environment.step({ 'line.u': 0.1 });
  return Number(process.hrtime.bigint() - started) / 1000 / steps;
}

const server = await startNatsServer();
try {
  const local = await stepMicros(new SlowLine({ ...init, logger: silentLogger() }));
  const service = await serveComponents({
    url: server.url,
    service: 'line-bench',
    make: (_kind, sent) => new SlowLine({ ...(sent as object), logger: silentLogger() }),
  });
  const host = await connectRemoteComponents({ url: server.url });
  const remoteEnvironment = host.factoryFor('line-bench', 'environment', {
    runId: 'bench',
    phase: 'train',
  })({ ...init, logger: silentLogger() }) as Environment;
  const remote = await stepMicros(remoteEnvironment);
  await host.close();
  await service.drain();
  const overhead = remote - local;
  console.log(`step in process:      ${local.toFixed(1)} µs`);
  console.log(`step over NATS:       ${remote.toFixed(1)} µs (${steps} steps, one at a time)`);
  console.log(
    `remote step overhead: ${overhead.toFixed(1)} µs, ${(remote / local).toFixed(0)}x the in-process step (target <= 300 µs: ${overhead <= 300 ? 'met' : 'missed'})`,
  );

  // a whole run: its local file, then its environment served by arena serve
  const experiment = queueExperiment(0);
  const timed = async (args: string[]) => {
    const started = process.hrtime.bigint();
    const result = await runArena(args, { cwd: experiment.folder });
    if (result.code !== 0) throw new Error(result.stderr);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const localRun = await timed(['run', 'run.yaml', '--store', 'sqlite:local.db']);
  const served = await startServe({
    component: './components.js:SlowLine',
    service: 'line-sim',
    nats: server.url,
    cwd: experiment.folder,
  });
  const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
  const remoteRun = await timed([
    'run',
    path.basename(runFile),
    '--nats',
    server.url,
    '--store',
    'sqlite:remote.db',
  ]);
  served.child.kill('SIGTERM');
  await served.exited;
  const runSteps = readStore(path.join(experiment.folder, 'local.db'), (store) =>
    store
      .episodes(store.listRuns()[0]?.runId as string)
      .reduce((sum, episode) => sum + episode.steps, 0),
  );
  console.log(
    `arena run of ${runSteps} steps, environment local:  ${localRun.toFixed(0)} ms; served: ${remoteRun.toFixed(0)} ms (${(remoteRun / localRun).toFixed(2)}x, process start included)`,
  );
} finally {
  await server.dispose();
}
