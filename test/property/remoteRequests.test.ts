import { fc, test } from '@fast-check/vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type ComponentService, serveComponents } from '../../src/ports/nats/componentService.js';
import {
  ANY_OWNER,
  type CallRequest,
  instanceSubject,
  type RemoteReply,
  type RequestIdentity,
  serviceSubject,
} from '../../src/ports/remote/remoteComponent.js';
import { type NatsServer, startNatsServer } from '../support/natsServer.js';

/** A walk whose every real step is counted: the count is what a duplicate must not change. */
class Walk {
  position = 0;
  steps = 0;
  start() {
    this.position = 0;
    return { readings: { position: 0 } };
  }
  step(actions: { push: number }) {
    this.steps++;
    this.position = this.position * 0.5 + actions.push;
    return { readings: { position: this.position }, rewards: { r: -this.position }, done: false };
  }
  saveState() {
    return { position: this.position };
  }
}

const keep = 4;
let server: NatsServer;
let service: ComponentService;
let raw: NatsConnection;
const walks = new Map<string, Walk>();
beforeAll(async () => {
  server = await startNatsServer();
  service = await serveComponents({
    url: server.url,
    service: 'walk',
    repliesPerComponent: keep,
    make: (_kind, init) => {
      const walk = new Walk();
      walks.set((init as { uid: string }).uid, walk);
      return walk;
    },
  });
  raw = await connect({ servers: server.url });
});
afterAll(async () => {
  await raw?.close();
  await service?.drain();
  await server?.dispose();
});

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
async function ask(subject: string, request: unknown): Promise<RemoteReply> {
  const reply = await raw.request(subject, encode(request), { timeout: 5000 });
  return JSON.parse(new TextDecoder().decode(reply.data)) as RemoteReply;
}

/** One request's deliveries: how many copies arrive at once, and how many come back late. */
const delivery = fc.record({
  push: fc.integer({ min: -5, max: 5 }),
  copies: fc.integer({ min: 1, max: 3 }),
  // a late copy of a request `lateBy` requests back (within the kept replies)
  lateBy: fc.option(fc.integer({ min: 1, max: keep - 1 }), { nil: null }),
});

let sessions = 0;

describe('remote requests are idempotent by their identity', () => {
  test.prop([fc.array(delivery, { minLength: 1, maxLength: 15 })], { numRuns: 100 })(
    'any schedule of duplicated, concurrent and late requests steps each request once and answers every copy alike',
    async (schedule) => {
      const session = `s${++sessions}`;
      const base: Omit<RequestIdentity, 'seq' | 'method' | 'step'> = {
        run: 'run-p',
        phase: 'train',
        kind: 'environment',
        component: session,
        session,
        episode: 1,
      };
      const key = `run-p/train/environment/${session}/${session}`;
      const opened = await ask(serviceSubject('walk'), {
        key,
        kind: 'environment',
        init: { uid: session, params: {}, keyOrder: {}, seed: 1 },
        identity: { ...base, seq: 1, method: 'open', step: 0 },
      });
      expect(opened.ok).toBe(true);
      const subject = instanceSubject('walk', ANY_OWNER, (opened as { instance: string }).instance);
      const request = (index: number, push: number): CallRequest => ({
        key,
        identity: { ...base, seq: index + 2, method: 'step', step: index + 1 },
        args: [{ push }],
      });
      const local = new Walk();
      const expected: RemoteReply[] = [];
      for (const [index, { push, copies, lateBy }] of schedule.entries()) {
        // payloads are JSON: what arrives is the local answer as JSON carries it (-0 arrives as 0)
        expected.push(
          JSON.parse(
            JSON.stringify({ ok: true, value: local.step({ push }), state: local.saveState() }),
          ),
        );
        const replies = await Promise.all(
          Array.from({ length: copies }, () => ask(subject, request(index, push))),
        );
        for (const reply of replies) expect(reply).toEqual(expected[index]);
        if (lateBy !== null && index - lateBy >= 0) {
          const earlier = schedule[index - lateBy] as { push: number };
          expect(await ask(subject, request(index - lateBy, earlier.push))).toEqual(
            expected[index - lateBy],
          );
        }
      }
      expect(walks.get(session)?.steps).toBe(schedule.length);
      expect(walks.get(session)?.position).toBe(local.position);
    },
  );
});
