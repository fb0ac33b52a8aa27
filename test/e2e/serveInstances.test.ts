import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, runArena } from '../support/cli.js';
import { remoteRunFile, type ServeProcess, startServe } from '../support/componentServer.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll, queueExperiment, readStore } from '../support/queueFleet.js';
import { runRecords } from '../support/records.js';

let server: NatsServer;
let served: ServeProcess[] = [];
let rogue: NatsConnection | null = null;
beforeEach(async () => {
  server = await startNatsServer();
});
afterEach(async () => {
  await rogue?.close();
  rogue = null;
  await killAll(served);
  served = [];
  await server.dispose();
});

async function serve(component: string, service: string, cwd: string, instances = 1) {
  const started = await startServe({ component, service, nats: server.url, cwd, instances });
  served.push(started);
  return started;
}

const onlyRunId = (store: string) =>
  readStore(store, (opened) => opened.listRuns()[0]?.runId as string);
const recordsOf = (store: string) =>
  readStore(store, (opened) => runRecords(opened, opened.listRuns()[0]?.runId as string));

/** `arena run` of `runFile` into a new SQLite store in `folder`: its exit and its records. */
async function runInto(folder: string, runFile: string, name: string, nats = true) {
  const store = path.join(folder, `${name}.db`);
  const run = await runArena(
    ['run', runFile, ...(nats ? ['--nats', server.url] : []), '--store', `sqlite:${store}`],
    { cwd: folder },
  );
  expect(run.code, run.stderr).toBe(0);
  return { store, records: recordsOf(store) };
}

describe('arena serve instances and the runs they serve', () => {
  it('arena show names the instance, pid and host that served each remote component, in text and --json', async () => {
    const experiment = queueExperiment(0);
    const environment = await serve('./components.js:SlowLine', 'line-sim', experiment.folder, 2);
    const brain = await serve('./components.js:GainBrain', 'gain', experiment.folder);
    const runFile = remoteRunFile(experiment.folder, {
      './components.js:SlowLine': 'line-sim',
      './components.js:GainBrain': 'gain',
    });
    const { store } = await runInto(experiment.folder, runFile, 'remote');
    const runId = onlyRunId(store);
    const shown = await runArena(['show', runId, '--store', `sqlite:${store}`]);
    expect(shown.code, shown.stderr).toBe(0);
    const at = (served: ServeProcess) => `(pid ${served.child.pid} on ${hostname()})`;
    const lines = shown.stdout.split('\n');
    const section = lines.slice(
      lines.indexOf('remote components') + 1,
      lines.indexOf('checkpoints'),
    );
    expect(section).toHaveLength(4);
    for (const phase of [0, 1]) {
      expect(section).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^  phase ${phase} environment line: nats:line-sim instance (${environment.instanceIds.join('|')}) \\(pid ${environment.child.pid} on `,
          ),
        ),
      );
      expect(section).toContain(
        `  phase ${phase} brain operator: nats:gain instance ${brain.instanceIds[0]} ${at(brain)}`,
      );
    }
    const json = await runArena(['show', runId, '--store', `sqlite:${store}`, '--json']);
    const details = JSON.parse(json.stdout) as { remoteComponents: Record<string, unknown>[] };
    expect(details.remoteComponents).toHaveLength(4);
    expect(details.remoteComponents[0]).toMatchObject({
      runId,
      phaseIndex: 0,
      service: expect.stringMatching(/^(line-sim|gain)$/),
      host: hostname(),
      session: expect.any(String),
      openedAt: expect.any(String),
    });
  });

  it("a rogue client answering on the honest instance's subject first gets no forged reward into the run: its records are the local run's", async () => {
    const experiment = queueExperiment(3);
    const local = await runInto(experiment.folder, experiment.runFile, 'local', false);
    await serve('./components.js:SlowLine', 'line-sim', experiment.folder);
    rogue = await connect({ servers: server.url, name: 'rogue' });
    let forged = 0;
    // every instance subject of the service: the rogue needs no id to answer in its place
    rogue.subscribe('arena.component.line-sim.at.>', {
      callback: (_error, message) => {
        const request = JSON.parse(new TextDecoder().decode(message.data));
        if (request.identity.method !== 'step') return;
        forged++;
        const reply = {
          ok: true,
          value: { readings: { 'line.x': 1 }, rewards: { 'line.reward': 100 }, done: false },
          state: { state: 0.5 },
          instance: message.subject.split('.').at(-1),
        };
        message.respond(new TextEncoder().encode(JSON.stringify(reply)));
      },
    });
    await rogue.flush();
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-sim' });
    const remote = await runInto(experiment.folder, runFile, 'remote');
    expect(forged).toBeGreaterThan(10);
    expect(remote.records).toEqual(local.records);
  });

  it('a remote arena:CrossEntropyBrain serves a run with the records of the local run', async () => {
    const experiment = queueExperiment(0);
    const withBuiltin = path.join(experiment.folder, 'builtin.yaml');
    writeFileSync(
      withBuiltin,
      readFileSync(experiment.runFile, 'utf8').replace(
        'brain: { name: ./components.js:GainBrain, params: {} }',
        'brain: { name: arena:CrossEntropyBrain, params: { population: 4 } }',
      ),
    );
    const local = await runInto(experiment.folder, withBuiltin, 'local', false);
    await serve('arena:CrossEntropyBrain', 'brain', experiment.folder);
    const remoteFile = path.join(experiment.folder, 'remote-brain.yaml');
    writeFileSync(
      remoteFile,
      readFileSync(withBuiltin, 'utf8').replace(
        'name: arena:CrossEntropyBrain',
        'name: nats:brain',
      ),
    );
    const remote = await runInto(experiment.folder, remoteFile, 'remote');
    expect(remote.records.episodes.length).toBeGreaterThan(3);
    expect(remote.records).toEqual(local.records);
  });

  it('arena serve takes an absolute /path/file.js:Export from any working folder', async () => {
    const experiment = queueExperiment(0);
    const absolute = `${path.join(experiment.folder, 'components.js')}:SlowLine`;
    const local = await runInto(experiment.folder, experiment.runFile, 'local', false);
    await serve(absolute, 'line-abs', repoRoot);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'line-abs' });
    const remote = await runInto(experiment.folder, runFile, 'remote');
    expect(remote.records).toEqual(local.records);
  });
});
