import path from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../support/cli.js';
import { remoteRunFile, type ServeProcess, startServe } from '../support/componentServer.js';
import { type AuthorizedNats, type Role, startAuthorizedNats } from '../support/natsRoles.js';
import { killAll, queueExperiment, waitUntil } from '../support/queueFleet.js';

// Issue 35, item 4, on docs/nats/authorization.conf: each role takes its replies
// under its own inbox prefix, which no other role may read, and a served
// instance's requests reach only that service user.
let nats: AuthorizedNats;
let service: ServeProcess | undefined;
const experiment = queueExperiment(2);

beforeAll(async () => {
  nats = await startAuthorizedNats();
});
afterAll(async () => {
  await killAll(service === undefined ? [] : [service]);
  await nats?.dispose();
});

/** Subscribe to each subject as `nc`; resolves with the subjects the server refused, and what arrived. */
async function trySubscribe(nc: NatsConnection, subjects: readonly string[]) {
  const refused: string[] = [];
  const received: string[] = [];
  for (const subject of subjects) {
    nc.subscribe(subject, {
      callback: (error, message) => {
        if (error !== null) refused.push(subject);
        else received.push(message.subject);
      },
    });
  }
  await nc.flush();
  return { refused, received };
}

const clients: readonly Role[] = ['submitter', 'worker', 'viewer'];
const everyone: readonly Role[] = [...clients, 'service-tank', 'service-tank-2'];

describe('private replies on the documented authorization file', () => {
  it('no role reads another role’s replies: _INBOX.> and every other role’s prefix are refused, its own is not', async () => {
    for (const role of everyone) {
      const nc = await nats.connectAs(role);
      const others = everyone.filter((other) => other !== role).map((o) => `_INBOX.${o}.>`);
      const attempt = await trySubscribe(nc, ['_INBOX.>', '_INBOX.*.>', ...others]);
      await waitUntil(
        `the server refused ${role}'s subscriptions`,
        () => attempt.refused.length === others.length + 2,
      );
      expect(attempt.refused.sort()).toEqual(['_INBOX.>', '_INBOX.*.>', ...others].sort());
    }
    for (const role of clients) {
      const nc = await nats.connectAs(role);
      const own = await trySubscribe(nc, [`_INBOX.${role}.mine.>`]);
      await nc.flush();
      expect(own.refused).toEqual([]);
    }
  });

  it('arena’s commands take their replies under their own prefix: a run through a served component as the worker succeeds while the viewer hears none of it', async () => {
    service = await startServe({
      component: './components.js:SlowLine',
      service: 'tank',
      nats: nats.urlOf('service-tank'),
      cwd: experiment.folder,
    });
    const instance = service.instanceIds[0] as string;
    const viewer = await nats.connectAs('viewer');
    const overheard = await trySubscribe(viewer, ['_INBOX.viewer.>']);
    // another user of the same service may serve beside it, but not take its instance's requests
    const rogue = await nats.connectAs('service-tank-2');
    const stolen = await trySubscribe(rogue, [
      `arena.component.tank.at.service-tank.${instance}`,
      'arena.component.tank.at.service-tank.*',
      'arena.component.tank.at.>',
      'arena.component.tank.at.service-tank-2.*',
    ]);
    await waitUntil('the rogue’s reads refused', () => stolen.refused.length === 3);
    expect(stolen.refused).not.toContain('arena.component.tank.at.service-tank-2.*');

    const runFile = remoteRunFile(experiment.folder, { './components.js:SlowLine': 'tank' });
    const store = `sqlite:${path.join(experiment.folder, 'private.db')}`;
    const run = await runArena(['run', runFile, '--nats', nats.urlOf('worker'), '--store', store], {
      cwd: experiment.folder,
    });
    expect(run.code, `${run.stderr}\n${service.stderr()}`).toBe(0);
    const shown = await runArena(['runs', '--store', store], { cwd: experiment.folder });
    expect(shown.stdout).toMatch(/succeeded/);
    await Promise.all([viewer.flush(), rogue.flush()]);
    expect(overheard.received).toEqual([]);
    expect(stolen.received).toEqual([]);
  });
});
