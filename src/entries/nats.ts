/**
 * `arena-runtime/nats`: work spread over machines through a NATS server with
 * JetStream, from code: queues opened by URI (`nats://…`, as stores are by
 * `sqlite:`/`postgres://`), the run worker and `submitRun`, the judge worker,
 * and remote components (both the host a run uses and the service that
 * serves one). The NATS client (`@nats-io/transport-node`, and
 * `@nats-io/jetstream` for the queues) is loaded at the first open, and is
 * an optional peer: install it to use this entry.
 *
 * @example
 * ```ts
 * import { loadRunFile, openStore, parseStoreUri } from 'arena-runtime';
 * import { openRunQueue, submitRun } from 'arena-runtime/nats';
 * const store = openStore(parseStoreUri('sqlite:runs.db'));
 * const queue = await openRunQueue('nats://127.0.0.1:4222');
 * const { runId } = await submitRun(loadRunFile('examples/hosting-capacity.yaml'), { store, queue });
 * // taken and run by: arena worker --nats nats://127.0.0.1:4222 --store sqlite:runs.db
 * ```
 */

export {
  ModuleMissingError,
  StoredRunFileError,
} from '../actors/experiment/queue/deliveryFailure.js';
export type {
  FollowRunOptions,
  RunProgressView,
} from '../actors/experiment/queue/followRun.js';
export { followRun } from '../actors/experiment/queue/followRun.js';
export type {
  RunWorkerOptions,
  WorkerEvent,
  WorkerTally,
} from '../actors/experiment/queue/runWorker.js';
export {
  defaultMaxDeliveries,
  runRunWorker,
  workerLeaseOwner,
} from '../actors/experiment/queue/runWorker.js';
export type { SubmitRunOptions, SubmittedRun } from '../actors/experiment/queue/submitRun.js';
export { submitRun } from '../actors/experiment/queue/submitRun.js';
export type {
  JudgeWorkerEvent,
  JudgeWorkerOptions,
  JudgeWorkerTally,
} from '../actors/judging/judgeWorker.js';
export { runJudgeWorker } from '../actors/judging/judgeWorker.js';
export { ModuleNotAllowedError } from '../config/moduleRoots.js';
export type {
  JudgeQueue,
  JudgeQueueOptions,
  JudgeSubmitReceipt,
  ModelPause,
  QueuedCase,
  QueuedCaseDelivery,
} from '../ports/queue/judgeQueue.js';
export { defaultJudgeAckWaitMs, defaultJudgeMaxInFlight } from '../ports/queue/judgeQueue.js';
export {
  type NatsConnectOptions,
  type NatsCredentials,
  NatsCredentialsError,
} from '../ports/queue/natsCredentials.js';
export type { QueueLocation } from '../ports/queue/queueUri.js';
export {
  ackWaitFor,
  openJudgeQueue,
  openRemoteComponents,
  openRunQueue,
  parseQueueUri,
  QueueUriError,
  serveComponents,
} from '../ports/queue/queueUri.js';
export type {
  ConsumerSettingDifference,
  RunDelivery,
  RunQueue,
  RunQueueOptions,
  SubmitReceipt,
} from '../ports/queue/runQueue.js';
export {
  ConsumerSettingsError,
  createInProcessRunQueue,
  defaultAckWaitMs,
  NatsUrlError,
  parseNatsUrl,
  RunQueueError,
} from '../ports/queue/runQueue.js';
export type {
  ComponentService,
  RemoteComponentHost,
  RemoteComponentOptions,
  RemoteKind,
  RemoteTiming,
  ServeComponentsOptions,
} from '../ports/remote/remoteComponent.js';
export {
  REMOTE_KINDS,
  RemoteComponentFailedError,
  RemoteComponentUnavailableError,
} from '../ports/remote/remoteComponent.js';
