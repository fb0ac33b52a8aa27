import { hostname } from 'node:os';
import { connect, headers, type Msg, type NatsConnection } from '@nats-io/transport-node';
import type { JsonValue } from '../../domain/shared/json.js';
import {
  ANY_OWNER,
  type CallRequest,
  type ComponentService,
  instanceSubject,
  type OpenRequest,
  REMOTE_KINDS,
  type RemoteKind,
  type RemoteReply,
  SERVICE_QUEUE_GROUP,
  type ServeComponentsOptions,
  serviceSubject,
} from '../remote/remoteComponent.js';
import {
  createInstanceKey,
  type InstanceKey,
  type RepliedRequest,
  SIGNATURE_HEADER,
} from './instanceKey.js';
import { permissionRefusal } from './natsPermission.js';
import { checkNatsAuthentication, natsServerOptions, natsUserTokenOf } from './natsServer.js';

/** The methods a request may call on each kind: the port's methods, and its state. */
const CALLABLE: Readonly<Record<RemoteKind, readonly string[]>> = {
  environment: ['proposeDefinition', 'start', 'step', 'reset', 'close', 'saveState', 'loadState'],
  brain: ['setup', 'act', 'observe', 'endEpisode', 'evaluateRollouts', 'saveState', 'loadState'],
  muscle: ['act'],
  objective: ['evaluate'],
};

export type { ComponentService } from '../remote/remoteComponent.js';

/** What a service hosts, and the server. */
export interface ComponentServiceOptions extends ServeComponentsOptions {
  /** The NATS server, e.g. `nats://127.0.0.1:4222`. */
  readonly url: string;
}

interface Held {
  readonly kind: RemoteKind;
  readonly object: Record<string, unknown>;
  /** Replies by `seq`, the newest last; a retry gets the same promise. */
  readonly replies: Map<number, { method: string; reply: Promise<RemoteReply> }>;
  lastSeq: number;
  /** Calls run one after another in `seq` order. */
  queue: Promise<unknown>;
  /** Its state is read only once it is set up: a brain's `saveState()` may throw before `setup()`. */
  setUp: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Host a component factory as a NATS service: `open` requests (on the
 * service subject, shared by the instances as a queue group) make one
 * component per run, phase, component and session; calls go to the instance
 * that holds it. A request whose identity was answered already gets the
 * stored reply (at-least-once requests made idempotent); every reply carries
 * the component's `saveState()` when it has one (after `setup()` for a
 * brain). Each instance signs every reply with its own Ed25519 key, sent
 * with the `open` reply, so a run takes no reply from any other client.
 *
 * @example
 * ```ts
 * const service = await serveComponents({
 *   url: 'nats://127.0.0.1:4222',
 *   service: 'grid',
 *   make: (kind, init) => new GridEnvironment(init),
 * });
 * // a run file names it as environment: nats:grid
 * await service.drain();
 * ```
 */
export async function serveComponents(options: ComponentServiceOptions): Promise<ComponentService> {
  const owner = natsUserTokenOf(options.url, options.credentials) ?? ANY_OWNER;
  const connection = await connect({
    ...natsServerOptions(options.url, options.credentials),
    name: `arena serve ${options.service}`,
    // back soon after a NATS restart: requests in flight are retried by identity meanwhile
    reconnectTimeWait: 250,
    maxReconnectAttempts: -1,
  });
  await checkNatsAuthentication(connection, options.url, options.credentials);
  const count = options.instances ?? 1;
  const instanceIds: string[] = [];
  const instanceKeys: string[] = [];
  // a subscription the server refuses (a user of another role) is told to its callback, before the flush ends
  const refused: Error[] = [];
  for (let index = 0; index < count; index++) {
    const key = createInstanceKey();
    instanceIds.push(key.id);
    instanceKeys.push(key.publicKey);
    serveInstance(connection, key, owner, options, (error) => refused.push(error));
  }
  await connection.flush();
  const refusal = refused.length > 0 ? permissionRefusal(refused[0], options.url) : null;
  if (refusal !== null) {
    await connection.close();
    throw refusal;
  }
  return {
    instanceIds,
    instanceKeys,
    drain: () => connection.drain(),
    closed: connection.closed().then(() => undefined),
  };
}

/** A request that could not be read: its reply answers nothing a run asked. */
const unreadable: RepliedRequest = { key: '', seq: 0, method: '' };

function serveInstance(
  connection: NatsConnection,
  key: InstanceKey,
  owner: string,
  options: ComponentServiceOptions,
  onRefused: (error: Error) => void,
): void {
  const instanceId = key.id;
  const held = new Map<string, Held>();
  const maxComponents = options.maxComponents ?? 1024;
  const keep = options.repliesPerComponent ?? 8;
  const served = {
    instance: instanceId,
    owner,
    publicKey: key.publicKey,
    host: hostname(),
    pid: process.pid,
  };

  const respond = (message: Msg, request: RepliedRequest, reply: RemoteReply) => {
    const body = encoder.encode(JSON.stringify(reply));
    const signed = headers();
    signed.set(SIGNATURE_HEADER, key.sign(request, body));
    message.respond(body, { headers: signed });
  };
  // a malformed request still gets a signed reply, of what it said
  const repliedOf = (request: OpenRequest | CallRequest): RepliedRequest => ({
    key: String(request.key),
    seq: Number(request.identity?.seq),
    method: String(request.identity?.method),
  });

  /** The request a message carries, or `null` once an unreadable one is answered. */
  const readRequest = <Request>(message: Msg): Request | null => {
    try {
      return JSON.parse(decoder.decode(message.data)) as Request;
    } catch (failure) {
      respond(message, unreadable, { ok: false, error: errorOf(failure) });
      return null;
    }
  };

  connection.subscribe(serviceSubject(options.service), {
    queue: SERVICE_QUEUE_GROUP,
    callback: (error, message) => {
      if (error !== null) return onRefused(error);
      const request = readRequest<OpenRequest>(message);
      if (request === null) return;
      try {
        if (!(REMOTE_KINDS as readonly string[]).includes(request.kind)) {
          throw new Error(`unknown component kind ${JSON.stringify(request.kind)}`);
        }
        // a retried open that comes back here finds its component made already
        if (!held.has(request.key)) {
          const object = options.make(request.kind, request.init) as Record<string, unknown>;
          held.set(request.key, {
            kind: request.kind,
            object,
            replies: new Map(),
            lastSeq: request.identity.seq,
            queue: Promise.resolve(),
            setUp: typeof object.setup !== 'function',
          });
          while (held.size > maxComponents) held.delete(held.keys().next().value as string);
        }
        respond(message, repliedOf(request), {
          ok: true,
          value: null,
          ...served,
          ...stateOf(held.get(request.key) as Held),
        });
      } catch (failure) {
        respond(message, repliedOf(request), { ok: false, error: errorOf(failure), ...served });
      }
    },
  });

  connection.subscribe(instanceSubject(options.service, owner, instanceId), {
    callback: (error, message) => {
      if (error !== null) return onRefused(error);
      const request = readRequest<CallRequest>(message);
      if (request === null) return;
      void answer(request).then((reply) => respond(message, repliedOf(request), reply));
    },
  });

  const answer = async (request: CallRequest): Promise<RemoteReply> => {
    const { identity } = request;
    const component = held.get(request.key);
    if (component === undefined) {
      return failure(
        'UnknownComponentError',
        `instance ${instanceId} of service "${options.service}" holds no component ${request.key} (the service restarted, or dropped it as least recently used)`,
      );
    }
    // least recently used goes first when the instance is full
    held.delete(request.key);
    held.set(request.key, component);
    const cached = component.replies.get(identity.seq);
    if (cached !== undefined) {
      if (cached.method === identity.method) return cached.reply;
      return failure(
        'ConflictingRequestError',
        `request ${identity.seq} of ${request.key} was ${cached.method}, now ${identity.method}`,
      );
    }
    if (identity.seq <= component.lastSeq) {
      return failure(
        'StaleRequestError',
        `request ${identity.seq} (${identity.method}) of ${request.key} is older than the ${keep} replies kept`,
      );
    }
    component.lastSeq = identity.seq;
    const reply = component.queue.then(() => invoke(component, request, options.onCall));
    component.queue = reply;
    component.replies.set(identity.seq, { method: identity.method, reply });
    while (component.replies.size > keep) {
      component.replies.delete(component.replies.keys().next().value as number);
    }
    return reply;
  };
}

async function invoke(
  component: Held,
  request: CallRequest,
  onCall: ComponentServiceOptions['onCall'],
): Promise<RemoteReply> {
  const { method } = request.identity;
  if (!CALLABLE[component.kind].includes(method)) {
    return failure('UnknownMethodError', `a remote ${component.kind} has no method ${method}()`);
  }
  const target = component.object[method];
  try {
    onCall?.(request);
    // a component without saveState/loadState keeps no state: loading one is a no-op
    const value =
      typeof target === 'function'
        ? await (target as (...args: unknown[]) => unknown).apply(component.object, [
            ...request.args,
          ])
        : null;
    if (method === 'setup') component.setUp = true;
    // copied now: a later call may change what the component returned before a retry reads it
    return { ok: true, value: jsonCopy(value), ...stateOf(component) };
  } catch (error) {
    return { ok: false, error: errorOf(error) };
  }
}

function stateOf(component: Held): { state?: JsonValue } {
  const save = component.object.saveState;
  if (typeof save !== 'function' || !component.setUp) return {};
  return { state: jsonCopy((save as () => unknown).call(component.object)) };
}

function jsonCopy(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

function failure(name: string, message: string): RemoteReply {
  return { ok: false, error: { name, message } };
}

function errorOf(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}
