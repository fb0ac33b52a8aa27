import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/domain/shared/json.js';
import type { Brain, Muscle, Objective, TurnContext } from '../../../src/ports/agent.js';
import type { Environment } from '../../../src/ports/environment.js';
import {
  type ComponentService,
  serveComponents,
} from '../../../src/ports/nats/componentService.js';
import { connectRemoteComponents } from '../../../src/ports/nats/remoteComponents.js';
import {
  ANY_OWNER,
  type CallRequest,
  instanceSubject,
  type OpenRequest,
  RemoteComponentFailedError,
  type RemoteComponentHost,
  RemoteComponentUnavailableError,
  type RemoteKind,
  type RemoteReply,
  type RequestIdentity,
  serviceSubject,
} from '../../../src/ports/remote/remoteComponent.js';
import { silentLogger } from '../../../src/ports/runtime/logger.js';
import { type NatsServer, startNatsServer } from '../../support/natsServer.js';

/** A counter world: every step it really runs is counted, across all instances. */
class Counter {
  static steps = 0;
  static slowSteps = 0;
  readonly uid: string;
  private position = 0;
  private readonly stride: number;

  constructor(init: { uid: string; params: { stride?: number } }) {
    this.uid = init.uid;
    this.stride = init.params.stride ?? 1;
  }
  proposeDefinition() {
    return null;
  }
  start() {
    return this.reset();
  }
  async step(actions: Record<string, number>) {
    Counter.steps++;
    // the first `slowSteps` steps answer late: their requests time out and are sent again
    if (Counter.slowSteps > 0) {
      Counter.slowSteps--;
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    if ((actions.fail ?? 0) > 0) throw new RangeError('the counter cannot go there');
    this.position += this.stride + (actions.push ?? 0);
    return { readings: { position: this.position }, rewards: { r: -this.position }, done: false };
  }
  reset() {
    this.position = 0;
    return {
      sensors: [{ uid: 'position', space: { type: 'Box', low: -1e9, high: 1e9 } }],
      actuators: [{ uid: 'push', space: { type: 'Box', low: -1, high: 1 } }],
      readings: { position: 0 },
    };
  }
  close() {}
  saveState() {
    return { position: this.position };
  }
  loadState(state: { position: number }) {
    this.position = state.position;
  }
}

const makers: Record<RemoteKind, (init: JsonValue) => unknown> = {
  environment: (init) => new Counter(init as never),
  brain: () => ({
    offset: 0,
    setup() {},
    act(this: { offset: number }, readings: Record<string, number>) {
      return { push: (readings.position ?? 0) > 3 ? -1 : this.offset };
    },
    observe(this: { offset: number }) {
      this.offset += 0.5;
    },
    endEpisode() {},
    evaluateRollouts: () => ({ metrics: { objective: 1 } }),
    saveState(this: { offset: number }) {
      return { offset: this.offset };
    },
    loadState(this: { offset: number }, state: { offset: number }) {
      this.offset = state.offset;
    },
  }),
  muscle: () => ({ act: (proposal: Record<string, number>) => ({ push: -(proposal.push ?? 0) }) }),
  objective: () => ({ evaluate: (rewards: Record<string, number>) => 2 * (rewards.r ?? 0) }),
};

let server: NatsServer;
let services: ComponentService[] = [];
let hosts: RemoteComponentHost[] = [];
let raw: NatsConnection;
beforeAll(async () => {
  server = await startNatsServer();
  raw = await connect({ servers: server.url });
});
afterEach(async () => {
  for (const host of hosts) await host.close();
  for (const service of services) await service.drain();
  hosts = [];
  services = [];
  Counter.steps = 0;
  Counter.slowSteps = 0;
});
afterAll(async () => {
  await raw?.close();
  await server?.dispose();
});

async function service(
  name: string,
  options: { instances?: number; repliesPerComponent?: number } = {},
) {
  const calls: CallRequest[] = [];
  const started = await serveComponents({
    url: server.url,
    service: name,
    make: (kind, init) => makers[kind](init),
    onCall: (request) => calls.push(request),
    ...options,
  });
  services.push(started);
  return { started, calls };
}

async function host(options: { timeoutMs?: number; retries?: number; openWaitMs?: number } = {}) {
  const connected = await connectRemoteComponents({ url: server.url, ...options });
  hosts.push(connected);
  return connected;
}

const run = { runId: 'run-1', phase: 'train' };
const environmentInit = (params: Record<string, number> = {}) => ({
  uid: 'counter',
  params,
  keyOrder: {},
  seed: 1,
  logger: silentLogger(),
});
const turn = (episode: number, step: number): TurnContext => ({
  mode: 'train',
  evaluation: false,
  phase: 'train',
  episode,
  step,
});

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
async function ask(subject: string, request: OpenRequest | CallRequest): Promise<RemoteReply> {
  const reply = await raw.request(subject, encode(request), { timeout: 2000 });
  return JSON.parse(new TextDecoder().decode(reply.data)) as RemoteReply;
}
const identity = (seq: number, method: string): RequestIdentity => ({
  run: 'run-raw',
  phase: 'train',
  kind: 'environment',
  component: 'counter',
  session: 's1',
  seq,
  method,
  episode: 1,
  step: seq,
});

describe('a remote environment', () => {
  it('answers like the local one and carries its state back with every reply', async () => {
    await service('counter');
    const remote = (await host()).factoryFor(
      'counter',
      'environment',
      run,
    )(environmentInit({ stride: 2 })) as Environment;
    const local = new Counter({ uid: 'counter', params: { stride: 2 } });
    expect(await remote.start({ stride: 2 })).toEqual(local.start());
    for (const push of [0, 1, -1]) {
      expect(await remote.step({ push })).toEqual(await local.step({ push }));
    }
    expect(remote.saveState?.()).toEqual({ position: 6 });
    remote.loadState?.({ position: 40 });
    expect(await remote.step({ push: 0 })).toMatchObject({ readings: { position: 42 } });
    await remote.close();
  });

  it('steps once for a request sent twice with the same identity, and answers both alike', async () => {
    const { started, calls } = await service('twice');
    const key = 'run-raw/train/environment/counter/s1';
    const open = await ask(serviceSubject('twice'), {
      key,
      kind: 'environment',
      init: { uid: 'counter', params: {}, keyOrder: {}, seed: 1 },
      identity: identity(1, 'open'),
    });
    expect(open).toMatchObject({ ok: true, instance: started.instanceIds[0] });
    const subject = instanceSubject('twice', ANY_OWNER, started.instanceIds[0] as string);
    await ask(subject, { key, identity: identity(2, 'start'), args: [{}] });
    const step = { key, identity: identity(3, 'step'), args: [{ push: 0 }] };
    const [first, second] = await Promise.all([ask(subject, step), ask(subject, step)]);
    const third = await ask(subject, step);
    expect(first).toEqual(second);
    expect(third).toEqual(first);
    expect(first).toMatchObject({ ok: true, value: { readings: { position: 1 } } });
    expect(calls.filter((call) => call.identity.method === 'step')).toHaveLength(1);
    expect(Counter.steps).toBe(1);
    // the same seq with another method is a different request, not a retry
    expect(await ask(subject, { key, identity: identity(3, 'reset'), args: [] })).toMatchObject({
      ok: false,
      error: { name: 'ConflictingRequestError' },
    });
  });

  it('retries a timed-out request with its identity: the slow step runs once', async () => {
    await service('slow');
    const remote = (await host({ timeoutMs: 150, retries: 5 })).factoryFor(
      'slow',
      'environment',
      run,
    )(environmentInit()) as Environment;
    await remote.start({});
    Counter.slowSteps = 1;
    expect(await remote.step({ push: 0 })).toMatchObject({ readings: { position: 1 } });
    expect(await remote.step({ push: 0 })).toMatchObject({ readings: { position: 2 } });
    expect(Counter.steps).toBe(2);
  });

  it('drops replies beyond the bounded cache: an old identity is stale, not run again', async () => {
    const { started } = await service('bounded', { repliesPerComponent: 2 });
    const key = 'run-raw/train/environment/counter/s1';
    await ask(serviceSubject('bounded'), {
      key,
      kind: 'environment',
      init: { uid: 'counter', params: {}, keyOrder: {}, seed: 1 },
      identity: identity(1, 'open'),
    });
    const subject = instanceSubject('bounded', ANY_OWNER, started.instanceIds[0] as string);
    await ask(subject, { key, identity: identity(2, 'start'), args: [{}] });
    for (const seq of [3, 4, 5]) {
      await ask(subject, { key, identity: identity(seq, 'step'), args: [{}] });
    }
    expect(await ask(subject, { key, identity: identity(3, 'step'), args: [{}] })).toMatchObject({
      ok: false,
      error: { name: 'StaleRequestError' },
    });
    expect(Counter.steps).toBe(3);
  });

  it("reports the component's own error by name, naming the service", async () => {
    await service('failing');
    const remote = (await host()).factoryFor(
      'failing',
      'environment',
      run,
    )(environmentInit()) as Environment;
    await remote.start({});
    const failure = await Promise.resolve(remote.step({ fail: 1 })).catch((error) => error);
    expect(failure).toBeInstanceOf(RemoteComponentFailedError);
    expect(failure.code).toBe('REMOTE_COMPONENT_FAILED');
    expect(failure.message).toBe(
      'step in service "failing" failed: RangeError: the counter cannot go there',
    );
  });

  it('tells no responders from a timeout, naming the service and the subject', async () => {
    const connected = await host({ timeoutMs: 100, retries: 1, openWaitMs: 0 });
    const nobody = connected.factoryFor(
      'nobody',
      'environment',
      run,
    )(environmentInit()) as Environment;
    const missing = await Promise.resolve(nobody.start({})).catch((error) => error);
    expect(missing).toBeInstanceOf(RemoteComponentUnavailableError);
    expect(missing).toMatchObject({ reason: 'no-responders', service: 'nobody' });
    expect(missing.message).toBe(
      'no instance of service "nobody" is serving arena.component.nobody.open (start it with arena serve … --as nobody)',
    );

    // a subscriber that never answers: the request times out, is tried again, then fails
    const silent = raw.subscribe(serviceSubject('mute'));
    // the server knows the subscriber before the other connection asks
    await raw.flush();
    const mute = connected.factoryFor('mute', 'environment', run)(environmentInit()) as Environment;
    const late = await Promise.resolve(mute.start({})).catch((error) => error);
    silent.unsubscribe();
    expect(late).toBeInstanceOf(RemoteComponentUnavailableError);
    expect(late).toMatchObject({ reason: 'timeout', service: 'mute' });
    expect(late.message).toBe(
      'service "mute" did not answer on arena.component.mute.open within 100 ms, 2 tries (open of environment "counter")',
    );
  });

  it('keeps each component on the instance that opened it when instances share the service', async () => {
    await service('shared', { instances: 3 });
    const connected = await host();
    const environments = [1, 2, 3, 4, 5, 6].map(
      (stride) =>
        connected.factoryFor(
          'shared',
          'environment',
          run,
        )({
          ...environmentInit({ stride }),
          uid: `counter-${stride}`,
        }) as Environment,
    );
    for (const environment of environments) await environment.start({});
    for (let step = 1; step <= 3; step++) {
      const results = await Promise.all(
        environments.map((environment) => environment.step({ push: 0 })),
      );
      expect(results.map((result) => result.readings.position)).toEqual(
        [1, 2, 3, 4, 5, 6].map((stride) => stride * step),
      );
    }
  });
});

describe('remote agents', () => {
  it('a remote brain, muscle and objective answer as their ports and carry the brain state', async () => {
    await service('agent');
    const connected = await host();
    const init = { name: 'operator', params: {}, seed: 3, logger: silentLogger() };
    const brain = connected.factoryFor('agent', 'brain', run)(init) as Brain;
    const muscle = connected.factoryFor('agent', 'muscle', run)(init) as Muscle;
    const objective = connected.factoryFor('agent', 'objective', run)({ params: {} }) as Objective;
    const agentInterface = { sensors: [], actuators: [], readings: { position: 0 } };
    await brain.setup(agentInterface);
    expect(await brain.act({ position: 0 }, turn(1, 1))).toEqual({ push: 0 });
    await brain.observe(
      { readings: {}, actions: {}, rewards: {}, objective: 0, done: false },
      turn(1, 1),
    );
    expect(await brain.act({ position: 0 }, turn(1, 2))).toEqual({ push: 0.5 });
    expect(brain.saveState?.()).toEqual({ offset: 0.5 });
    brain.loadState?.({ offset: 2 });
    expect(await brain.act({ position: 0 }, turn(1, 3))).toEqual({ push: 2 });
    expect(await muscle.act({ push: 0.25 }, agentInterface, turn(1, 3))).toEqual({ push: -0.25 });
    expect(await objective.evaluate({ r: -1.5 })).toBe(-3);
    expect(await brain.evaluateRollouts()).toEqual({ metrics: { objective: 1 } });
  });

  it('a request carries its identity: run, phase, component, method, episode and step', async () => {
    const { calls } = await service('identity');
    const connected = await host();
    const brain = connected.factoryFor('identity', 'brain', { runId: 'run-9', phase: 'test' })({
      name: 'operator',
      params: {},
      seed: 3,
      logger: silentLogger(),
    }) as Brain;
    await brain.setup({ sensors: [], actuators: [], readings: {} });
    await brain.act({}, turn(4, 7));
    expect(calls.map(({ identity: { session: _session, ...rest } }) => rest)).toEqual([
      {
        run: 'run-9',
        phase: 'test',
        kind: 'brain',
        component: 'operator',
        seq: 2,
        method: 'setup',
        episode: 0,
        step: 0,
      },
      {
        run: 'run-9',
        phase: 'test',
        kind: 'brain',
        component: 'operator',
        seq: 3,
        method: 'act',
        episode: 4,
        step: 7,
      },
    ]);
  });

  it('refuses a method the kind does not have', async () => {
    const { started } = await service('methods');
    const key = 'run-raw/train/muscle/operator/s1';
    await ask(serviceSubject('methods'), {
      key,
      kind: 'muscle',
      init: { name: 'operator', params: {}, seed: 1 },
      identity: { ...identity(1, 'open'), kind: 'muscle' },
    });
    expect(
      await ask(instanceSubject('methods', ANY_OWNER, started.instanceIds[0] as string), {
        key,
        identity: { ...identity(2, 'constructor'), kind: 'muscle' },
        args: [],
      }),
    ).toEqual({
      ok: false,
      error: { name: 'UnknownMethodError', message: 'a remote muscle has no method constructor()' },
    });
  });
});
