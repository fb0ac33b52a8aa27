import type { JetStreamManager, MsgRequest, StoredMsg } from '@nats-io/jetstream';

/**
 * The message ids (`Nats-Msg-Id`) of every message a work-queue stream still
 * holds on `subject` (a wildcard allowed): queued, or delivered and not yet
 * acked (read as `forEachQueuedMessage` reads them).
 *
 * @example
 * ```ts
 * await queuedMessageIds(jsm, 'ARENA_RUNS', 'arena.runs.queued');
 * // Set { 'grid-demo-20261201T090000-3fa2', 'grid-demo-20261201T090001-77c1' }
 * ```
 */
export async function queuedMessageIds(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
): Promise<Set<string>> {
  const ids = new Set<string>();
  await forEachQueuedMessage(jsm, stream, subject, (message) => {
    const id = message.header.get('Nats-Msg-Id');
    if (id !== undefined && id !== '') ids.add(id);
  });
  return ids;
}

/**
 * Visit every message a work-queue stream still holds on `subject` (a
 * wildcard allowed), in order: read one at a time by sequence, each read
 * skipping to the next message on the subject, so it costs one request per
 * message held, none per message already acked.
 *
 * @example
 * ```ts
 * await forEachQueuedMessage(jsm, 'ARENA_JUDGE', 'arena.judge.cases.>', (message) => console.log(message.seq));
 * ```
 */
export async function forEachQueuedMessage(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  visit: (message: StoredMsg) => void,
): Promise<void> {
  const { state } = await jsm.streams.info(stream);
  let seq = state.first_seq;
  while (state.messages > 0 && seq <= state.last_seq) {
    // next_by_subj: the first message on the subject at or after seq (JetStream 2.9 and later)
    const query = { seq, next_by_subj: subject } as unknown as MsgRequest;
    const message = await jsm.streams.getMessage(stream, query);
    if (message === null || message.seq < seq) break;
    visit(message);
    seq = message.seq + 1;
  }
}
