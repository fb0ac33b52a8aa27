import { randomBytes } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { connect, headers, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Environment } from '../../src/ports/environment.js';
import { type ComponentService, serveComponents } from '../../src/ports/nats/componentService.js';
import { createInstanceKey, SIGNATURE_HEADER } from '../../src/ports/nats/instanceKey.js';
import { connectRemoteComponents } from '../../src/ports/nats/remoteComponents.js';
import {
  ANY_OWNER,
  instanceSubject,
  type RemoteComponentHost,
} from '../../src/ports/remote/remoteComponent.js';
import { silentLogger } from '../../src/ports/runtime/logger.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';

/** A walk whose steps answer a little late, so a rogue's immediate reply comes first. */
class Walk {
  position = 0;
  start() {
    this.position = 0;
    return { readings: { position: 0 } };
  }
  async step(actions: { push: number }) {
    await new Promise((resolve) => setTimeout(resolve, 4));
    this.position = this.position * 0.5 + actions.push;
    return { readings: { position: this.position }, rewards: { r: -this.position }, done: false };
  }
  saveState() {
    return { position: this.position };
  }
}

/** How the rogue answers one request: how it signs a forgery, when, and how often. */
const forgery = fc.record({
  signature: fc.constantFrom('none', 'rogue-key', 'replayed', 'garbage'),
  delayMs: fc.constantFrom(0, 0, 12),
  copies: fc.integer({ min: 0, max: 2 }),
  position: fc.integer({ min: -1000, max: 1000 }),
});
type Forgery = typeof forgery extends fc.Arbitrary<infer T> ? T : never;

let server: NatsServer;
let service: ComponentService;
let host: RemoteComponentHost;
let rogue: NatsConnection;
let plan: Forgery[] = [];
let lastHonest: Msg | null = null;
const rogueKey = createInstanceKey();
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function forge(message: Msg, how: Forgery): void {
  const request = JSON.parse(new TextDecoder().decode(message.data));
  const reply = {
    ok: true,
    value: { readings: { position: how.position }, rewards: { r: 1e6 }, done: false },
    state: { position: how.position },
  };
  let body: Uint8Array = encode(reply);
  const signed = headers();
  if (how.signature === 'rogue-key') {
    const asked = { key: request.key, seq: request.identity.seq, method: request.identity.method };
    signed.set(SIGNATURE_HEADER, rogueKey.sign(asked, body));
  } else if (how.signature === 'garbage') {
    signed.set(SIGNATURE_HEADER, randomBytes(64).toString('base64'));
  } else if (how.signature === 'replayed' && lastHonest !== null) {
    body = lastHonest.data;
    signed.set(SIGNATURE_HEADER, lastHonest.headers?.get(SIGNATURE_HEADER) ?? '');
  }
  message.respond(body, { headers: signed });
}

beforeAll(async () => {
  server = await startNatsServer();
  service = await serveComponents({ url: server.url, service: 'walk', make: () => new Walk() });
  host = await connectRemoteComponents({ url: server.url });
  rogue = await connect({ servers: server.url, name: 'rogue' });
  // the rogue sees every reply (to replay one) and every call of the honest instance
  rogue.subscribe('_INBOX.>', {
    callback: (_error, message) => {
      if (message.headers?.has(SIGNATURE_HEADER) === true) lastHonest = message;
    },
  });
  rogue.subscribe(instanceSubject('walk', ANY_OWNER, service.instanceIds[0] as string), {
    callback: (_error, message) => {
      const how = plan.shift();
      if (how === undefined) return;
      for (let copy = 0; copy < how.copies; copy++) {
        if (how.delayMs === 0) forge(message, how);
        else setTimeout(() => forge(message, how), how.delayMs);
      }
    },
  });
  await rogue.flush();
});
afterAll(async () => {
  await host?.close();
  await rogue?.close();
  await service?.drain();
  await server?.dispose();
});

let sessions = 0;

describe('a session takes only its instance’s replies', () => {
  test.prop(
    [
      fc.array(fc.record({ push: fc.integer({ min: -5, max: 5 }), rogue: forgery }), {
        maxLength: 6,
      }),
    ],
    { numRuns: 25 },
  )(
    'over any interleaving of honest and forged replies (unsigned, signed by another key, replayed, garbage; early or late), every step returns what the local component returns',
    async (steps) => {
      const environment = host.factoryFor('walk', 'environment', { runId: 'p', phase: 'train' })({
        uid: `walk-${++sessions}`,
        params: {},
        keyOrder: {},
        seed: 1,
        logger: silentLogger(),
      }) as Environment;
      await environment.start({});
      const local = new Walk();
      plan = steps.map((step) => step.rogue);
      for (const { push } of steps) {
        const expected = JSON.parse(JSON.stringify(await local.step({ push })));
        expect(await environment.step({ push })).toEqual(expected);
      }
      expect(environment.saveState?.()).toEqual(JSON.parse(JSON.stringify(local.saveState())));
      plan = [];
      await environment.close();
    },
  );
});
