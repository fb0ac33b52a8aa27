import { ArenaError } from '../../domain/shared/errors.js';
import type { JsonValue } from '../../domain/shared/json.js';
import type { NatsConnectOptions } from '../queue/natsCredentials.js';
import { arenaCommand } from '../runtime/arenaCommand.js';

/**
 * The remote-component port: an environment, brain, muscle or objective that
 * lives in another process (`arena serve`) and is named `nats:<service>` in a
 * run file. This file holds what both sides agree on; the NATS adapters live
 * in `ports/nats/` and load only when a run file names a remote component.
 */

/**
 * The kinds of component a service can host, by their place in the run file.
 *
 * @example
 * ```ts
 * REMOTE_KINDS.includes('brain'); // true
 * ```
 */
export const REMOTE_KINDS = ['environment', 'brain', 'muscle', 'objective'] as const;
/** One of `REMOTE_KINDS`. */
export type RemoteKind = (typeof REMOTE_KINDS)[number];

/**
 * The subject a service's instances answer `open` on (as one queue group);
 * once opened, a component talks to the one instance that holds it on
 * `instanceSubject`.
 *
 * @example
 * ```ts
 * serviceSubject('grid-sim'); // 'arena.component.grid-sim.open'
 * ```
 */
export function serviceSubject(service: string): string {
  return `arena.component.${service}.open`;
}

/**
 * The subject one served instance answers its components' calls on: under
 * its NATS user's token (`owner`, see `natsUserToken`), so an authorization
 * file can let each service user subscribe to its own instances' subjects
 * only (`arena.component.tank.at.service-tank.*`).
 *
 * @example
 * ```ts
 * instanceSubject('grid-sim', 'service-grid', 'k3x9'); // 'arena.component.grid-sim.at.service-grid.k3x9'
 * ```
 */
export function instanceSubject(service: string, owner: string, instanceId: string): string {
  return `arena.component.${service}.at.${owner}.${instanceId}`;
}

/**
 * The owner token of an instance that connected without a user name (an open
 * server, or a token, nkey or creds file).
 *
 * @example
 * ```ts
 * instanceSubject('grid-sim', ANY_OWNER, 'k3x9'); // 'arena.component.grid-sim.at.any.k3x9'
 * ```
 */
export const ANY_OWNER = 'any';

/** The queue group every instance of a service joins, so N instances share `open`s. */
export const SERVICE_QUEUE_GROUP = 'arena-serve';

/**
 * Which component of which run a request belongs to, and which call it is.
 * `seq` counts the component's calls; a retry repeats the identity exactly,
 * so the server answers it from its cache instead of calling twice.
 */
export interface RequestIdentity {
  readonly run: string;
  readonly phase: string;
  readonly kind: RemoteKind;
  /** The environment's uid or the agent's name. */
  readonly component: string;
  /** One per component object in the controller: a resumed run opens fresh ones. */
  readonly session: string;
  readonly seq: number;
  readonly method: string;
  /** Episodes started so far (an environment counts its starts and resets; an agent takes its turn context's). */
  readonly episode: number;
  readonly step: number;
}

/** `open`: make a component in the service from its init. */
export interface OpenRequest {
  readonly key: string;
  readonly kind: RemoteKind;
  readonly init: JsonValue;
  readonly identity: RequestIdentity;
}

/** A call of one method of an opened component. */
export interface CallRequest {
  readonly key: string;
  readonly identity: RequestIdentity;
  readonly args: readonly JsonValue[];
}

/** What an `open` reply says of the instance that answered it, whether or not it failed. */
export interface OpenedBy {
  readonly instance?: string;
  /** The token of the NATS user it serves as: its calls go to `instanceSubject(service, owner, instance)`. */
  readonly owner?: string;
  /** Its Ed25519 public key (SPKI DER, base64): the instance id is the key's fingerprint. */
  readonly publicKey?: string;
  /** The host and pid serving it, as the instance says. */
  readonly host?: string;
  readonly pid?: number;
}

/**
 * What the service answers, signed by the instance in a header. `state` is the
 * component's `saveState()` after the call, when it has one (a brain's, once
 * it is set up).
 */
export type RemoteReply = (
  | { readonly ok: true; readonly value: JsonValue; readonly state?: JsonValue }
  | { readonly ok: false; readonly error: { readonly name: string; readonly message: string } }
) &
  OpenedBy;

/**
 * The key a service holds one component under.
 *
 * @example
 * ```ts
 * componentKeyOf({ run: 'r1', phase: 'train', kind: 'environment', component: 'tank', session: 's', seq: 4, method: 'step', episode: 1, step: 3 });
 * // 'r1/train/environment/tank/s'
 * ```
 */
export function componentKeyOf(identity: RequestIdentity): string {
  return [identity.run, identity.phase, identity.kind, identity.component, identity.session].join(
    '/',
  );
}

/**
 * A remote component's service did not answer: no instance is subscribed
 * (`no-responders`) or none replied in time (`timeout`). Names the service
 * and the subject.
 *
 * @example
 * ```ts
 * // a run file names environment: nats:grid, and no arena serve … --as grid runs
 * error.message; // 'no instance of service "grid" is serving … (start it with arena serve … --as grid)'
 * error instanceof RemoteComponentUnavailableError && error.reason; // 'no-responders'
 * ```
 */
export class RemoteComponentUnavailableError extends ArenaError {
  readonly service: string;
  readonly subject: string;
  /** `untrusted`: only instances whose keys are not pinned (`trustedKeys`) answered. */
  readonly reason: 'no-responders' | 'timeout' | 'untrusted';
  /** Why each reply that came and was not taken was refused (a reply not signed by the session's instance). */
  readonly refused: readonly string[];

  constructor(
    service: string,
    subject: string,
    reason: 'no-responders' | 'timeout' | 'untrusted',
    detail: string,
    options?: { cause?: unknown; refused?: readonly string[] },
  ) {
    const refused = options?.refused ?? [];
    const what =
      reason === 'no-responders'
        ? `no instance of service "${service}" is serving ${subject} (start it with ${arenaCommand(`serve … --as ${service}`)})`
        : reason === 'untrusted'
          ? `no trusted instance of service "${service}" answered on ${subject} ${detail}`
          : `service "${service}" did not answer on ${subject} ${detail}`;
    const also = refused.length === 0 ? '' : `; refused ${refused.length} replies: ${refused[0]}`;
    super('REMOTE_COMPONENT_UNAVAILABLE', `${what}${also}`, options);
    this.service = service;
    this.subject = subject;
    this.reason = reason;
    this.refused = refused;
  }
}

/**
 * Which instance of which service serves one remote component of a run: what
 * the run store records for each session (`arena show` lists them).
 */
export interface ServedComponent {
  readonly service: string;
  readonly kind: RemoteKind;
  /** The environment's uid or the agent's name. */
  readonly component: string;
  /** The session's id: each component object of the controller opens one. */
  readonly session: string;
  /** The instance that answered the `open`: every later reply of the session is signed by it. */
  readonly instance: string;
  /** The host and pid the instance said it runs on (its own word, not checked). */
  readonly host: string | null;
  readonly pid: number | null;
}

/**
 * The remote component itself threw: its error's name and message, and the service it ran in.
 *
 * @example
 * ```ts
 * error.message; // 'step in service "grid" failed: RangeError: action out of bounds'
 * ArenaError.is(error, 'REMOTE_COMPONENT_FAILED'); // true
 * ```
 */
export class RemoteComponentFailedError extends ArenaError {
  readonly service: string;
  readonly remoteName: string;

  constructor(service: string, method: string, remote: { name: string; message: string }) {
    super(
      'REMOTE_COMPONENT_FAILED',
      `${method} in service "${service}" failed: ${remote.name}: ${remote.message}`,
    );
    this.service = service;
    this.remoteName = remote.name;
  }
}

/** What the controller's run asks of remote components: it makes one component's factory. */
export interface RemoteComponentHost {
  /**
   * A class-like factory for the component at `yamlPath` named `nats:<service>`:
   * called with the component's init, it returns an adapter of the port its
   * kind needs, talking to the service.
   */
  factoryFor(
    service: string,
    kind: RemoteKind,
    context: {
      readonly runId: string;
      readonly phase: string;
      /** Told once the component is open, before its first call runs. */
      readonly onServed?: (served: ServedComponent) => void;
      /**
       * The instance keys the run trusts for this service (its run file's
       * `run_config.trust_services`): an instance must hold one of them.
       */
      readonly trustedKeys?: readonly string[];
    },
  ): (init: unknown) => unknown;
  close(): Promise<void>;
}

/** How remote requests wait and retry. */
export interface RemoteTiming {
  /** How long one request waits for its reply; default 10 s. */
  readonly timeoutMs: number;
  /** How often a timed-out request is sent again with the same identity; default 2. */
  readonly retries: number;
  /** How long `open` waits for a service that has no instance yet; default 10 s. */
  readonly openWaitMs: number;
}

/** How remote requests wait and retry, and the client's name; every setting has a default. */
export interface RemoteComponentOptions extends Partial<RemoteTiming>, NatsConnectOptions {
  /** Name of this client as the server shows it. */
  readonly name?: string;
  /**
   * Instance keys trusted per service (`arena worker --trust-service tank=<key>`):
   * a component of a service named here is opened only in an instance holding
   * one of its keys, and every other instance's replies are refused.
   */
  readonly trustedKeys?: Readonly<Record<string, readonly string[]>>;
}

/** What `serveComponents` hosts as `nats:<service>`, and how. */
export interface ServeComponentsOptions extends NatsConnectOptions {
  /** The service name run files write as `nats:<service>`. */
  readonly service: string;
  /** Make a component of `kind` from the init a run sent (throws when the export cannot be one). */
  readonly make: (kind: RemoteKind, init: JsonValue) => unknown;
  /** How many instances share the service's `open`s (a queue group); default 1. */
  readonly instances?: number;
  /** How many replies each component keeps for retried requests; default 8. */
  readonly repliesPerComponent?: number;
  /** How many components an instance holds before it drops the least recently used; default 1024. */
  readonly maxComponents?: number;
  /** Called once per call a component actually runs (not for replies served from the cache). */
  readonly onCall?: (request: CallRequest) => void;
}

/** A running service. */
export interface ComponentService {
  /** One id per instance; its components are called on `instanceSubject(service, owner, id)`. */
  readonly instanceIds: readonly string[];
  /** Each instance's public key (SPKI DER, base64), in the order of `instanceIds`: what runs pin. */
  readonly instanceKeys: readonly string[];
  /** Stop taking requests, answer the ones in flight, disconnect. */
  drain(): Promise<void>;
  /** Resolves when the connection has closed (drained, or lost for good). */
  readonly closed: Promise<void>;
}

/**
 * The kind of component a YAML path names (`schedule[0].train.agents[0].brain`
 * is a brain), or `null` for a place a remote component cannot take
 * (termination conditions run in the controller).
 *
 * @example
 * ```ts
 * remoteKindOf('schedule[0].train.environments[0].environment'); // 'environment'
 * remoteKindOf('schedule[0].train.simulation.conditions[0]'); // null
 * ```
 */
export function remoteKindOf(yamlPath: string): RemoteKind | null {
  const last = /\.([a-z]+)$/.exec(yamlPath)?.[1];
  return (REMOTE_KINDS as readonly string[]).includes(last ?? '') ? (last as RemoteKind) : null;
}
