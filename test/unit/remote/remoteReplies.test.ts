import { hostname } from 'node:os';
import { connect, headers, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/domain/shared/json.js';
import type { Brain } from '../../../src/ports/agent.js';
import type { Environment } from '../../../src/ports/environment.js';
import {
  type ComponentService,
  serveComponents,
} from '../../../src/ports/nats/componentService.js';
import { createInstanceKey, SIGNATURE_HEADER } from '../../../src/ports/nats/instanceKey.js';
import { connectRemoteComponents } from '../../../src/ports/nats/remoteComponents.js';
import {
  ANY_OWNER,
  instanceSubject,
  type RemoteComponentHost,
  RemoteComponentUnavailableError,
  type ServedComponent,
  serviceSubject,
} from '../../../src/ports/remote/remoteComponent.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';
import { type NatsServer, startNatsServer } from '../../support/natsServer.js';

/** A line world whose steps answer after `delayMs`: a rogue that answers at once is first. */
class Line {
  static delayMs = 30;
  private position = 0;
  start() {
    this.position = 0;
    return { readings: { position: 0 } };
  }
  async step(actions: { push?: number }) {
    await new Promise((resolve) => setTimeout(resolve, Line.delayMs));
    this.position += 1 + (actions.push ?? 0);
    return { readings: { position: this.position }, rewards: { r: this.position }, done: false };
  }
  saveState() {
    return { position: this.position };
  }
}

/** A brain whose state cannot be saved before setup, as CrossEntropyBrain's. */
class StrictBrain {
  private weights: number[] | null = null;
  setup() {
    this.weights = [0];
  }
  act() {
    return {};
  }
  observe() {}
  endEpisode() {}
  evaluateRollouts() {
    return { metrics: {} };
  }
  saveState(): JsonValue {
    if (this.weights === null) throw new Error('StrictBrain: saveState before setup');
    return { weights: this.weights };
  }
  loadState() {}
}

let server: NatsServer;
let rogue: NatsConnection;
let services: ComponentService[] = [];
let hosts: RemoteComponentHost[] = [];
beforeAll(async () => {
  server = await startNatsServer();
  rogue = await connect({ servers: server.url, name: 'rogue' });
});
afterEach(async () => {
  for (const host of hosts) await host.close();
  for (const service of services) await service.drain();
  hosts = [];
  services = [];
  Line.delayMs = 30;
});
afterAll(async () => {
  await rogue?.close();
  await server?.dispose();
});

async function serve(name: string) {
  const started = await serveComponents({
    url: server.url,
    service: name,
    make: (kind) => (kind === 'brain' ? new StrictBrain() : new Line()),
  });
  services.push(started);
  return started;
}

async function environmentOf(
  name: string,
  options: {
    timeoutMs?: number;
    retries?: number;
    onServed?: (served: ServedComponent) => void;
  } = {},
) {
  const host = await connectRemoteComponents({ url: server.url, ...options });
  hosts.push(host);
  return host.factoryFor(name, 'environment', {
    runId: 'run-1',
    phase: 'train',
    ...(options.onServed !== undefined ? { onServed: options.onServed } : {}),
  })({ uid: 'line', params: {}, keyOrder: {}, seed: 1, logger: silentLogger() }) as Environment;
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const forgedStep = (instance: string) => ({
  ok: true,
  value: { readings: { position: 999 }, rewards: { r: 1e6 }, done: false },
  state: { position: 999 },
  instance,
});

/** The rogue answers every request on `subject` at once with `reply(message)`. */
async function rogueAnswers(subject: string, reply: (message: Msg) => void) {
  const subscription = rogue.subscribe(subject, { callback: (_error, message) => reply(message) });
  await rogue.flush();
  return subscription;
}

describe("a remote component's replies", () => {
  it("takes only the session instance's reply: a rogue on the instance's subject answering first with a forged reply is refused", async () => {
    const honest = await serve('line-sim');
    const id = honest.instanceIds[0] as string;
    const environment = await environmentOf('line-sim');
    await environment.start({});
    let forged = 0;
    const subscription = await rogueAnswers(
      instanceSubject('line-sim', ANY_OWNER, id),
      (message) => {
        forged++;
        message.respond(encode(forgedStep(id)));
      },
    );
    expect(await environment.step({ push: 0 })).toMatchObject({ readings: { position: 1 } });
    expect(await environment.step({ push: 0 })).toMatchObject({ readings: { position: 2 } });
    expect(environment.saveState?.()).toEqual({ position: 2 });
    expect(forged).toBe(2);
    subscription.unsubscribe();
  });

  it("refuses the instance's own signed reply replayed for another request", async () => {
    const honest = await serve('replayed');
    const id = honest.instanceIds[0] as string;
    const environment = await environmentOf('replayed');
    await environment.start({});
    // the rogue reads every reply and answers each later request with the last one it saw
    let seen: Msg | null = null;
    const inboxes = rogue.subscribe('_INBOX.>', {
      callback: (_error, message) => {
        if (message.headers?.has(SIGNATURE_HEADER)) seen = message;
      },
    });
    await rogue.flush();
    expect(await environment.step({ push: 2 })).toMatchObject({ readings: { position: 3 } });
    let replayed = 0;
    const subscription = await rogueAnswers(
      instanceSubject('replayed', ANY_OWNER, id),
      (message) => {
        const last = seen as Msg | null;
        if (last === null) return;
        replayed++;
        const copy = headers();
        copy.set(SIGNATURE_HEADER, last.headers?.get(SIGNATURE_HEADER) ?? '');
        message.respond(last.data, { headers: copy });
      },
    );
    expect(await environment.step({ push: 0 })).toMatchObject({ readings: { position: 4 } });
    expect(replayed).toBe(1);
    subscription.unsubscribe();
    inboxes.unsubscribe();
  });

  it("refuses an open reply that claims the honest instance's id with another key", async () => {
    const honest = await serve('claimed');
    const id = honest.instanceIds[0] as string;
    const key = createInstanceKey();
    const subscription = await rogueAnswers(serviceSubject('claimed'), (message) => {
      const request = JSON.parse(new TextDecoder().decode(message.data));
      const body = encode({ ok: true, value: null, instance: id, publicKey: key.publicKey });
      const signed = headers();
      signed.set(
        SIGNATURE_HEADER,
        key.sign({ key: request.key, seq: request.identity.seq, method: 'open' }, body),
      );
      message.respond(body, { headers: signed });
    });
    const opened: ServedComponent[] = [];
    const environment = await environmentOf('claimed', {
      onServed: (served) => opened.push(served),
    });
    await environment.start({});
    expect(await environment.step({ push: 0 })).toMatchObject({ readings: { position: 1 } });
    expect(opened.map((served) => served.instance)).toEqual([id]);
    subscription.unsubscribe();
  });

  it('fails a request whose every reply is forged with an error naming both instances', async () => {
    const honest = await serve('silent');
    const id = honest.instanceIds[0] as string;
    const environment = await environmentOf('silent', { timeoutMs: 150, retries: 0 });
    await environment.start({});
    Line.delayMs = 600;
    const subscription = await rogueAnswers(instanceSubject('silent', ANY_OWNER, id), (message) =>
      message.respond(encode(forgedStep('r0gue'))),
    );
    const failure = await Promise.resolve(environment.step({ push: 0 })).catch((error) => error);
    subscription.unsubscribe();
    expect(failure).toBeInstanceOf(RemoteComponentUnavailableError);
    expect(failure.refused).toHaveLength(1);
    expect(failure.message).toBe(
      `service "silent" did not answer on arena.component.silent.at.any.${id} within 150 ms, 1 tries (step of environment "line"); refused 1 replies: a reply claiming instance r0gue to step of environment "line" not signed by instance ${id}, the session's`,
    );
  });

  it('tells onServed the instance, host and pid that opened the component, before its first call', async () => {
    const honest = await serve('told');
    const opened: ServedComponent[] = [];
    const environment = await environmentOf('told', { onServed: (served) => opened.push(served) });
    await environment.start({});
    expect(opened).toEqual([
      {
        service: 'told',
        kind: 'environment',
        component: 'line',
        session: expect.any(String),
        instance: honest.instanceIds[0],
        host: hostname(),
        pid: process.pid,
      },
    ]);
  });

  it("saves a brain's state only once it is set up: one whose saveState throws before setup opens and runs", async () => {
    await serve('strict');
    const host = await connectRemoteComponents({ url: server.url });
    hosts.push(host);
    const brain = host.factoryFor('strict', 'brain', { runId: 'run-1', phase: 'train' })({
      name: 'operator',
      params: {},
      seed: 1,
      logger: silentLogger(),
    }) as Brain;
    expect(brain.saveState?.()).toBeNull();
    await brain.setup({ sensors: [], actuators: [], readings: {} });
    expect(brain.saveState?.()).toEqual({ weights: [0] });
  });
});
