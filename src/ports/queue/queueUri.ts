/**
 * Queues are chosen as stores are (see `storeUri.ts`): by a URI, not by code.
 * A NATS URI (`--nats`, `ARENA_NATS`) names the server whose JetStream holds
 * the run and judge queues and whose services host remote components. Each
 * opener loads the NATS client only when called, so nothing that never names
 * a queue loads it or needs it installed.
 */
import { ArenaError } from '../../domain/shared/errors.js';
import type {
  ComponentService,
  RemoteComponentHost,
  RemoteComponentOptions,
  ServeComponentsOptions,
} from '../remote/remoteComponent.js';
import { importWithPeers, optionalPeers } from '../runtime/optionalPeers.js';
import { defaultLeaseTtlMs } from '../store/leaseOwner.js';
import type { JudgeQueue, JudgeQueueOptions } from './judgeQueue.js';
import { parseNatsUrl, type RunQueue, type RunQueueOptions } from './runQueue.js';

/** A parsed queue URI: the NATS server (with JetStream) the queues live on. */
export interface QueueLocation {
  readonly kind: 'nats';
  /** e.g. `nats://127.0.0.1:4222`; a bare `host:port` gets the `nats://` scheme. */
  readonly url: string;
}

/**
 * No queue was named: neither a URI nor `ARENA_NATS`.
 *
 * @example
 * ```ts
 * parseQueueUri(undefined, {});
 * // QueueUriError: no queue named: give a NATS URL like nats://127.0.0.1:4222 (or set ARENA_NATS)
 * ```
 */
export class QueueUriError extends ArenaError {
  constructor() {
    super(
      'QUEUE_URI',
      'no queue named: give a NATS URL like nats://127.0.0.1:4222 (or set ARENA_NATS)',
    );
  }
}

/**
 * Parse a queue URI: `nats://HOST:PORT` or `tls://HOST:PORT` (a bare
 * `HOST:PORT` means `nats://`); no value means `ARENA_NATS`. A malformed one
 * is a `NatsUrlError`, none at all a `QueueUriError`.
 *
 * @example
 * ```ts
 * parseQueueUri('nats://127.0.0.1:4222'); // { kind: 'nats', url: 'nats://127.0.0.1:4222' }
 * parseQueueUri('127.0.0.1:4222'); // { kind: 'nats', url: 'nats://127.0.0.1:4222' }
 * parseQueueUri(undefined, { ARENA_NATS: 'nats://queue:4222' }); // { kind: 'nats', url: 'nats://queue:4222' }
 * ```
 */
export function parseQueueUri(
  uri: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): QueueLocation {
  const given = (uri ?? environment.ARENA_NATS)?.trim();
  if (given === undefined || given === '') throw new QueueUriError();
  return { kind: 'nats', url: parseNatsUrl(given) };
}

/**
 * How long a run delivery may go unacknowledged before JetStream hands it to
 * another worker: half again a lease's lapse, so a dead worker's lease has
 * lapsed by the time its run is delivered again.
 *
 * @example
 * ```ts
 * ackWaitFor(undefined); // 22500 (the default lease lasts 15 s)
 * ackWaitFor(2000); // 3000
 * ```
 */
export function ackWaitFor(leaseTtlMs: number | undefined): number {
  return Math.round((leaseTtlMs ?? defaultLeaseTtlMs) * 1.5);
}

const natsQueues = 'arena-runtime/nats (NATS queues)';
const natsServices = 'arena-runtime/nats (remote components)';
const queuePeers = [optionalPeers['@nats-io/jetstream'], optionalPeers['@nats-io/transport-node']];
const servicePeers = [optionalPeers['@nats-io/transport-node']];

const urlOf = (location: QueueLocation | string): string =>
  typeof location === 'string' ? parseQueueUri(location).url : location.url;

/** Load an adapter with its peers checked (bundlers see each literal `import()`), then open it at the URL. */
async function openAt<Module, Opened>(
  location: QueueLocation | string,
  [peers, feature]: readonly [typeof queuePeers, string],
  load: () => Promise<Module>,
  open: (adapter: Module, url: string) => Promise<Opened>,
): Promise<Opened> {
  const url = urlOf(location);
  return open(await importWithPeers(peers, feature, load), url);
}

const queues = [queuePeers, natsQueues] as const;
const services = [servicePeers, natsServices] as const;

/**
 * Open the run queue at a queue URI: the JetStream work queue that
 * `submitRun` adds to and `runRunWorker` takes from. With `consume` it is a
 * worker's (it sets the shared consumer's ack wait and in-progress cap);
 * without, it only submits. An unreachable server is a `RunQueueError`.
 *
 * @example
 * ```ts
 * const queue = await openRunQueue('nats://127.0.0.1:4222', { consume: { ackWaitMs: ackWaitFor(undefined) } });
 * const delivery = await queue.next({ waitMs: 1000 });
 * ```
 */
export async function openRunQueue(
  location: QueueLocation | string,
  options: RunQueueOptions = {},
): Promise<RunQueue> {
  return openAt(
    location,
    queues,
    () => import('../nats/jetStreamRunQueue.js'),
    (adapter, url) => adapter.openJetStreamRunQueue({ ...options, url }),
  );
}

/**
 * Open the judge queue at a queue URI: the JetStream work queue of cases that
 * `submitEvaluationRun` fills and `runJudgeWorker` judges. An unreachable
 * server is a `RunQueueError`.
 *
 * @example
 * ```ts
 * const queue = await openJudgeQueue('nats://127.0.0.1:4222', { consume: {}, maxInFlight: 128 });
 * ```
 */
export async function openJudgeQueue(
  location: QueueLocation | string,
  options: JudgeQueueOptions = {},
): Promise<JudgeQueue> {
  return openAt(
    location,
    queues,
    () => import('../nats/jetStreamJudgeQueue.js'),
    (adapter, url) => adapter.openJetStreamJudgeQueue({ ...options, url }),
  );
}

/**
 * Connect for the `nats:<service>` components a run file names: pass the
 * host to `runExperiment` (or `runRunWorker`) as `remoteComponents`. An
 * unreachable server rejects with the NATS client's error.
 *
 * @example
 * ```ts
 * const remote = await openRemoteComponents('nats://127.0.0.1:4222');
 * await runExperiment(spec, { store, builtins: builtinComponents, remoteComponents: remote });
 * await remote.close();
 * ```
 */
export async function openRemoteComponents(
  location: QueueLocation | string,
  options: RemoteComponentOptions = {},
): Promise<RemoteComponentHost> {
  return openAt(
    location,
    services,
    () => import('../nats/remoteComponents.js'),
    (adapter, url) => adapter.connectRemoteComponents({ ...options, url }),
  );
}

/**
 * Host a component factory as the NATS service `nats:<service>` (what
 * `arena serve` runs): instances share the service's `open` requests, and a
 * retried request gets its stored reply. An unreachable server rejects with
 * the NATS client's error.
 *
 * @example
 * ```ts
 * const service = await serveComponents('nats://127.0.0.1:4222', {
 *   service: 'grid',
 *   make: (kind, init) => new GridEnvironment(init),
 * });
 * await service.drain();
 * ```
 */
export async function serveComponents(
  location: QueueLocation | string,
  options: ServeComponentsOptions,
): Promise<ComponentService> {
  return openAt(
    location,
    services,
    () => import('../nats/componentService.js'),
    (adapter, url) => adapter.serveComponents({ ...options, url }),
  );
}
