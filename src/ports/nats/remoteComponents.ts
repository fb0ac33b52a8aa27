import { type KeyObject, randomUUID } from 'node:crypto';
import { connect, type Msg } from '@nats-io/transport-node';
import type { JsonObject, JsonValue } from '../../domain/shared/json.js';
import type {
  AgentInterface,
  Brain,
  EvaluationResult,
  Muscle,
  Objective,
  StepFeedback,
  TerminalUpdate,
  TurnContext,
} from '../agent.js';
import type { Environment, EnvironmentStart, EnvironmentStep, Readings } from '../environment.js';
import {
  ANY_OWNER,
  type CallRequest,
  componentKeyOf,
  instanceSubject,
  type OpenRequest,
  RemoteComponentFailedError,
  type RemoteComponentHost,
  type RemoteComponentOptions,
  RemoteComponentUnavailableError,
  type RemoteKind,
  type RemoteReply,
  type RemoteTiming,
  type RequestIdentity,
  type ServedComponent,
  serviceSubject,
} from '../remote/remoteComponent.js';
import { instanceIdOf, publicKeyOf, SIGNATURE_HEADER, verifyReply } from './instanceKey.js';
import { checkNatsAuthentication, natsServerOptions } from './natsServer.js';
import { ReplyInbox, type ReplyVerdict } from './replyInbox.js';

/** Where remote components are served, and how requests wait and retry. */
export interface RemoteComponentsOptions extends RemoteComponentOptions {
  /** The NATS server, e.g. `nats://127.0.0.1:4222`. */
  readonly url: string;
}

const defaultTiming: RemoteTiming = { timeoutMs: 10_000, retries: 2, openWaitMs: 10_000 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Connect to NATS and make `nats:<service>` components for runs: each
 * component is opened in one instance of its service and every port method
 * is a request with its identity (run, phase, component, session, seq,
 * method, episode, step), so a timed-out request is retried and answered
 * from the service's cache instead of being run twice. The instance that
 * answers a component's `open` is its instance: a later reply is taken only
 * when that instance signed it (any other is refused, and the request waits
 * on for the right one); `onServed` is told which instance it is.
 *
 * @example
 * ```ts
 * const remote = await connectRemoteComponents({ url: 'nats://127.0.0.1:4222' });
 * await runExperiment(spec, { store, builtins: builtinComponents, remoteComponents: remote });
 * await remote.close();
 * ```
 */
export async function connectRemoteComponents(
  options: RemoteComponentsOptions,
): Promise<RemoteComponentHost> {
  const server = natsServerOptions(options.url, options.credentials);
  const connection = await connect({
    ...server,
    name: options.name ?? 'arena run',
    // back soon after a NATS restart: requests in flight are retried by identity meanwhile
    reconnectTimeWait: 250,
    maxReconnectAttempts: -1,
  });
  await checkNatsAuthentication(connection, options.url, options.credentials);
  const timing: RemoteTiming = {
    timeoutMs: options.timeoutMs ?? defaultTiming.timeoutMs,
    retries: options.retries ?? defaultTiming.retries,
    openWaitMs: options.openWaitMs ?? defaultTiming.openWaitMs,
  };
  const inbox = new ReplyInbox(connection, server.inboxPrefix);
  return {
    factoryFor(service, kind, context) {
      return (init: unknown) => {
        const base = {
          run: context.runId,
          phase: context.phase,
          kind,
          component: componentNameOf(kind, init),
          session: randomUUID(),
        };
        // a key must be in every list that names the service: a run file cannot widen a worker's trust
        const pins = [options.trustedKeys?.[service], context.trustedKeys].filter(
          (keys): keys is readonly string[] => keys !== undefined,
        );
        const session = new RemoteSession(inbox, service, timing, base, context.onServed, pins);
        session.open(init);
        return adapterFor(kind, session, init);
      };
    },
    async close() {
      await connection.drain();
    },
  };
}

function componentNameOf(kind: RemoteKind, init: unknown): string {
  const fields = init as { uid?: unknown; name?: unknown };
  if (kind === 'environment' && typeof fields.uid === 'string') return fields.uid;
  if (typeof fields.name === 'string') return fields.name;
  return kind;
}

/** The init sent to the service: the logger stays here. */
function wireInit(init: unknown): JsonValue {
  const { logger: _logger, ...rest } = init as Record<string, unknown>;
  return rest as JsonObject;
}

type SessionBase = Omit<RequestIdentity, 'seq' | 'method' | 'episode' | 'step'>;

/** The instance a session was opened in: only its signature makes a reply the session's. */
interface SessionInstance {
  readonly id: string;
  readonly key: KeyObject;
  readonly subject: string;
}

type OkReply = RemoteReply & { ok: true };

/**
 * One component's conversation with its service: calls go one at a time in
 * order, each with the next `seq`; the component's state comes back with
 * every reply, so `saveState()` can answer at once.
 */
class RemoteSession {
  private seq = 0;
  private instance: SessionInstance | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly key: string;
  /** The component's `saveState()` after the last reply (`null` when it keeps none). */
  state: JsonValue = null;
  episode = 0;
  step = 0;

  constructor(
    private readonly inbox: ReplyInbox,
    readonly service: string,
    private readonly timing: RemoteTiming,
    private readonly base: SessionBase,
    private readonly onServed: ((served: ServedComponent) => void) | undefined,
    private readonly pins: readonly (readonly string[])[],
  ) {
    this.key = componentKeyOf({ ...base, seq: 0, method: 'open', episode: 0, step: 0 });
  }

  /** Queue the `open`; its failure is the error of the first call. */
  open(init: unknown): void {
    const request: OpenRequest = {
      key: this.key,
      kind: this.base.kind,
      init: wireInit(init),
      identity: this.identity('open'),
    };
    this.chain = this.chain.then(async () => {
      const { reply, instance } = await this.openWithin(request);
      this.instance = instance;
      if (reply.state !== undefined) this.state = reply.state;
      this.onServed?.({
        service: this.service,
        kind: this.base.kind,
        component: this.base.component,
        session: this.base.session,
        instance: instance.id,
        host: typeof reply.host === 'string' ? reply.host : null,
        pid: typeof reply.pid === 'number' ? reply.pid : null,
      });
    });
    // a component never called (its world failed to build) must not crash the process
    this.chain.catch(() => undefined);
  }

  /** Call `method` after every earlier call, with the identity of this moment. */
  call(method: string, args: readonly JsonValue[]): Promise<JsonValue> {
    const identity = this.identity(method);
    const result = this.chain.then(async () => {
      const request: CallRequest = { key: this.key, identity, args };
      const reply = await this.callInstance(request);
      if (reply.state !== undefined) this.state = reply.state;
      return reply.value;
    });
    this.chain = result;
    return result;
  }

  /** Close after the calls before it, whether or not they failed; a never-opened component needs none. */
  async close(): Promise<void> {
    const identity = this.identity('close');
    const closing = this.chain.then(
      async () => {
        await this.callInstance({ key: this.key, identity, args: [] });
      },
      () => undefined,
    );
    this.chain = closing;
    await closing;
  }

  private identity(method: string): RequestIdentity {
    return { ...this.base, seq: ++this.seq, method, episode: this.episode, step: this.step };
  }

  private async openWithin(
    request: OpenRequest,
  ): Promise<{ reply: OkReply; instance: SessionInstance }> {
    const subject = serviceSubject(this.service);
    const deadline = Date.now() + this.timing.openWaitMs;
    for (;;) {
      try {
        return await this.request(subject, request, (message) => this.judgeOpen(request, message));
      } catch (error) {
        // a service that is (re)starting gets until the deadline to appear
        // and an untrusted instance that took the open is asked past: the queue group picks again
        const reason = error instanceof RemoteComponentUnavailableError ? error.reason : null;
        const waiting = reason === 'no-responders' || reason === 'untrusted';
        if (!waiting || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, reason === 'untrusted' ? 20 : 200));
      }
    }
  }

  private async callInstance(request: CallRequest): Promise<OkReply> {
    const instance = this.instance as SessionInstance;
    const { reply } = await this.request(instance.subject, request, (message) =>
      this.judgeCall(instance, request, message),
    );
    return reply;
  }

  /** An `open` reply is any instance's whose id is its key's fingerprint and which that key signed. */
  private judgeOpen(
    request: OpenRequest,
    message: Msg,
  ): ReplyVerdict<{ reply: RemoteReply; instance: SessionInstance }> {
    const reply = parseReply(message);
    const claimed = typeof reply?.instance === 'string' ? reply.instance : 'none';
    const key = typeof reply?.publicKey === 'string' ? publicKeyOf(reply.publicKey) : null;
    if (reply === null || key === null || instanceIdOf(reply.publicKey as string) !== claimed) {
      return { refused: `an open reply claiming instance ${claimed} without that instance's key` };
    }
    if (!verifyReply(key, repliedOf(request), message.data, signatureOf(message))) {
      return { refused: `an open reply claiming instance ${claimed} not signed by it` };
    }
    if (!this.pins.every((keys) => keys.includes(reply.publicKey as string))) {
      return {
        refused: `instance ${claimed} of service "${this.service}" holds a key the run does not trust (see --trust-service)`,
        final: true,
      };
    }
    const owner = typeof reply.owner === 'string' ? reply.owner : ANY_OWNER;
    if (!/^[A-Za-z0-9_-]+$/.test(owner)) {
      return { refused: `an open reply of instance ${claimed} naming no owner token` };
    }
    const subject = instanceSubject(this.service, owner, claimed);
    return { taken: { reply, instance: { id: claimed, key, subject } } };
  }

  /** A call's reply is the session's only when its instance signed it as the reply to this request. */
  private judgeCall(
    instance: SessionInstance,
    request: CallRequest,
    message: Msg,
  ): ReplyVerdict<{ reply: RemoteReply }> {
    const reply = verifyReply(instance.key, repliedOf(request), message.data, signatureOf(message))
      ? parseReply(message)
      : null;
    if (reply !== null) return { taken: { reply } };
    const claimed = parseReply(message)?.instance;
    const claim = typeof claimed === 'string' ? ` claiming instance ${claimed}` : '';
    return {
      refused: `a reply${claim} to ${request.identity.method} of ${this.base.kind} "${this.base.component}" not signed by instance ${instance.id}, the session's`,
    };
  }

  private async request<Taken extends { reply: RemoteReply }>(
    subject: string,
    request: OpenRequest | CallRequest,
    judge: (message: Msg) => ReplyVerdict<Taken>,
  ): Promise<Taken & { reply: OkReply }> {
    const payload = encoder.encode(JSON.stringify(request));
    const method = request.identity.method;
    const refused: string[] = [];
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.inbox.request(subject, payload, this.timing.timeoutMs, judge);
      refused.push(...outcome.refused);
      if ('taken' in outcome) {
        const { reply } = outcome.taken;
        if (!reply.ok) throw new RemoteComponentFailedError(this.service, method, reply.error);
        return outcome.taken as Taken & { reply: OkReply };
      }
      // a lost reply is asked for again with the same identity: the service answers from its cache
      if (outcome.missing === 'timeout' && attempt < this.timing.retries) continue;
      throw new RemoteComponentUnavailableError(
        this.service,
        subject,
        outcome.missing,
        `within ${this.timing.timeoutMs} ms, ${attempt + 1} tries (${method} of ${this.base.kind} "${this.base.component}")`,
        { refused },
      );
    }
  }
}

function repliedOf(request: OpenRequest | CallRequest) {
  return { key: request.key, seq: request.identity.seq, method: request.identity.method };
}

function signatureOf(message: Msg): string | undefined {
  return message.headers?.get(SIGNATURE_HEADER) || undefined;
}

function parseReply(message: Msg): RemoteReply | null {
  try {
    const reply = JSON.parse(decoder.decode(message.data)) as RemoteReply;
    return typeof reply === 'object' && reply !== null ? reply : null;
  } catch {
    return null;
  }
}

function adapterFor(kind: RemoteKind, session: RemoteSession, init: unknown): unknown {
  if (kind === 'environment') return new RemoteEnvironment(session, (init as { uid: string }).uid);
  if (kind === 'brain') return new RemoteBrain(session);
  if (kind === 'muscle') return new RemoteMuscle(session);
  return new RemoteObjective(session);
}

const json = (value: unknown) => value as JsonValue;

/** The Environment port over a service: each method one request. */
class RemoteEnvironment implements Environment {
  constructor(
    private readonly session: RemoteSession,
    readonly uid: string,
  ) {}

  async proposeDefinition() {
    return (await this.session.call('proposeDefinition', [])) as unknown as ReturnType<
      Environment['proposeDefinition']
    >;
  }

  async start(params: JsonObject): Promise<EnvironmentStart> {
    this.session.episode += 1;
    this.session.step = 0;
    return (await this.session.call('start', [params])) as unknown as EnvironmentStart;
  }

  async step(actions: Readings): Promise<EnvironmentStep> {
    this.session.step += 1;
    return (await this.session.call('step', [json(actions)])) as unknown as EnvironmentStep;
  }

  async reset(): Promise<EnvironmentStart> {
    this.session.episode += 1;
    this.session.step = 0;
    return (await this.session.call('reset', [])) as unknown as EnvironmentStart;
  }

  close(): Promise<void> {
    return this.session.close();
  }

  saveState(): JsonValue {
    return this.session.state;
  }

  loadState(state: JsonValue): void {
    this.session.state = state;
    // errors surface at the next call, which waits for this one
    this.session.call('loadState', [state]).catch(() => undefined);
  }
}

/** Moves the session's position to a turn's, so the identity says which step it is. */
function at(session: RemoteSession, context: TurnContext): JsonValue {
  session.episode = context.episode;
  session.step = context.step;
  return json(context);
}

/** The Brain port over a service. */
class RemoteBrain implements Brain {
  constructor(private readonly session: RemoteSession) {}

  async setup(agentInterface: AgentInterface): Promise<void> {
    await this.session.call('setup', [json(agentInterface)]);
  }

  async act(readings: Readings, context: TurnContext): Promise<Readings> {
    return (await this.session.call('act', [
      json(readings),
      at(this.session, context),
    ])) as Readings;
  }

  async observe(feedback: StepFeedback, context: TurnContext): Promise<void> {
    await this.session.call('observe', [json(feedback), at(this.session, context)]);
  }

  async endEpisode(update: TerminalUpdate, context: TurnContext): Promise<void> {
    await this.session.call('endEpisode', [json(update), at(this.session, context)]);
  }

  async evaluateRollouts(): Promise<EvaluationResult> {
    return (await this.session.call('evaluateRollouts', [])) as unknown as EvaluationResult;
  }

  saveState(): JsonValue {
    return this.session.state;
  }

  loadState(state: JsonValue): void {
    this.session.state = state;
    this.session.call('loadState', [state]).catch(() => undefined);
  }
}

/** The Muscle port over a service. */
class RemoteMuscle implements Muscle {
  constructor(private readonly session: RemoteSession) {}

  async act(
    proposal: Readings,
    agentInterface: AgentInterface,
    context: TurnContext,
  ): Promise<Readings> {
    return (await this.session.call('act', [
      json(proposal),
      json(agentInterface),
      at(this.session, context),
    ])) as Readings;
  }
}

/** The Objective port over a service. */
class RemoteObjective implements Objective {
  constructor(private readonly session: RemoteSession) {}

  async evaluate(rewards: Readings): Promise<number> {
    return (await this.session.call('evaluate', [json(rewards)])) as number;
  }
}
