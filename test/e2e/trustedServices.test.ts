import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { remoteRunFile, type ServeProcess, startServe } from '../support/componentServer.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';
import { killAll, queueExperiment, readStore } from '../support/queueFleet.js';

// Issue 35, item 5, on a server without authentication: a run that pins the key of its
// service's instance is served by that instance only, however many rogue instances join.
let nats: NatsServer;
const served: ServeProcess[] = [];
const experiment = queueExperiment(2);
let honest: ServeProcess;
let honestKey: string;

const keyOf = (serve: ServeProcess): string =>
  /^arena serve: instance \w+ .*, key (\S+) /m.exec(serve.stderr())?.[1] ?? 'no key printed';

beforeAll(async () => {
  nats = await startNatsServer();
  const start = async () => {
    const started = await startServe({
      component: './components.js:SlowLine',
      service: 'tank',
      nats: nats.url,
      cwd: experiment.folder,
    });
    served.push(started);
    return started;
  };
  honest = await start();
  honestKey = keyOf(honest);
  // two rogues in the same queue group: without a pin they would take about two opens in three
  await start();
  await start();
});
afterAll(async () => {
  await killAll(served);
  await nats?.dispose();
});

/** The instances that served each remote component of the store's runs. */
const servingInstances = (store: string): string[] =>
  readStore(store, (opened) =>
    opened
      .listRuns()
      .flatMap((run) => opened.remoteComponents(run.runId).map((each) => each.instance)),
  );

/** The run file with `run_config.trust_services: { tank: [key] }`, beside what its run_config holds. */
const trusting = (runFile: string, key: string): string => {
  const trust = `  trust_services:\n    tank: ['${key}']\n`;
  return runFile.includes('\nrun_config:\n')
    ? runFile.replace('\nrun_config:\n', `\nrun_config:\n${trust}`)
    : `${runFile}\nrun_config:\n${trust}`;
};

describe('trusted services on an open server', () => {
  it('arena serve prints each instance key, and a run pinning it with --trust-service is served by that instance only', async () => {
    expect(honestKey).toMatch(/^MCowBQYDK2VwAyEA[A-Za-z0-9+/]{43}=$/);
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'tank' });
    const store = `sqlite:${path.join(experiment.folder, 'pinned.db')}`;
    for (let index = 0; index < 4; index++) {
      const run = await runArena(
        [
          'run',
          runFile,
          '--nats',
          nats.url,
          '--store',
          store,
          '--trust-service',
          `tank=${honestKey}`,
        ],
        // the suite silences the warning (test/support/openNatsServers.ts): here it is heard
        { cwd: experiment.folder, env: { ...process.env, ARENA_NATS_ALLOW_OPEN: '' } },
      );
      expect(run.code, run.stderr).toBe(0);
      // the open server is told once, on stderr
      expect(run.stderr.match(/asks for no authentication/g)).toHaveLength(1);
    }
    const instances = servingInstances(store.slice('sqlite:'.length));
    expect(instances.length).toBeGreaterThanOrEqual(8);
    expect(new Set(instances)).toEqual(new Set(honest.instanceIds));
  });

  it('a run file’s run_config.trust_services pins the same way; a malformed key is refused with its YAML path, exit 2', async () => {
    const base = readFileSync(
      remoteRunFile(experiment.folder, { './components.js:SlowLine': 'tank' }),
      'utf8',
    );
    const pinned = path.join(experiment.folder, 'pinned.yaml');
    writeFileSync(pinned, trusting(base, honestKey));
    const store = `sqlite:${path.join(experiment.folder, 'file-pinned.db')}`;
    for (let index = 0; index < 3; index++) {
      const run = await runArena(['run', pinned, '--nats', nats.url, '--store', store], {
        cwd: experiment.folder,
      });
      expect(run.code, run.stderr).toBe(0);
    }
    expect(new Set(servingInstances(store.slice('sqlite:'.length)))).toEqual(
      new Set(honest.instanceIds),
    );

    const broken = path.join(experiment.folder, 'broken.yaml');
    writeFileSync(broken, trusting(base, 'not-a-key'));
    const refused = await runArena(['run', broken, '--nats', nats.url, '--store', store], {
      cwd: experiment.folder,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('run_config.trust_services.tank[0]');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('a run pinning a key no instance holds fails naming the untrusted replies; a malformed pin is exit 2', async () => {
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'tank' });
    const store = `sqlite:${path.join(experiment.folder, 'nobody.db')}`;
    const otherKey = `MCowBQYDK2VwAyEA${'A'.repeat(43)}=`;
    const run = await runArena(
      ['run', runFile, '--nats', nats.url, '--store', store, '--trust-service', `tank=${otherKey}`],
      {
        cwd: experiment.folder,
        env: { ARENA_REMOTE_TIMEOUT_MS: '1000', ARENA_REMOTE_WAIT_MS: '1000' },
      },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('no trusted instance of service "tank" answered');
    const malformed = await runArena(
      ['run', runFile, '--nats', nats.url, '--store', store, '--trust-service', 'tank'],
      { cwd: experiment.folder },
    );
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^arena: --trust-service tank: expected <service>=<key>/);
  });

  it('--require-auth (or ARENA_NATS_REQUIRE_AUTH=1) refuses the open server: exit 2, one line', async () => {
    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'tank' });
    const store = `sqlite:${path.join(experiment.folder, 'refused.db')}`;
    const expected = `arena: NatsOpenServerError: ${nats.url} asks for no authentication: anyone who reaches it can publish and answer (--require-auth refuses it; docs/fleet-security.md)\n`;
    const flagged = await runArena(
      ['run', runFile, '--nats', nats.url, '--store', store, '--require-auth'],
      { cwd: experiment.folder },
    );
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toBe(expected);
    const served = await runArena(
      ['serve', './components.js:SlowLine', '--nats', nats.url, '--as', 'tank'],
      { cwd: experiment.folder, env: { ARENA_NATS_REQUIRE_AUTH: '1' } },
    );
    expect(served.code).toBe(2);
    expect(served.stderr).toBe(expected);
  });
});
