import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { optionalPeers, resolvePeer } from '../../runtime/optionalPeers.js';
import { hbaRefusal, type TlsPlan, unreachableCodes } from './postgresTls.js';

/** Where and how to connect: what `pg.Client` takes. */
export interface ConnectionConfig {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password?: string;
  readonly database: string;
  /** How long connecting may take before it fails. */
  readonly connectTimeoutMs: number;
  /** Server settings of every session (`-c lock_timeout=30000`): a reconnected session has them too. */
  readonly options?: string;
  /** The sslmode and the attempts it makes (`tlsPlan`), for every session, a reconnected one too. */
  readonly tls: TlsPlan;
}

/** What a query returns: its rows (BIGINT read as a number) and how many rows it touched. */
export interface QueryResult<Row> {
  readonly rows: Row[];
  readonly rowCount: number;
}

/** A PostgreSQL error as the worker hands it back: pg's fields that tell failures apart. */
export interface PgFailure {
  readonly message: string;
  /** SQLSTATE (`23505`) or a Node errno name (`ECONNREFUSED`). */
  readonly code: string | undefined;
  readonly constraint: string | undefined;
}

/** A failed query or connection; `failure` carries what PostgreSQL or the socket said. */
export class PgQueryError extends Error {
  readonly failure: PgFailure;
  constructor(failure: PgFailure) {
    super(failure.message);
    this.name = 'PgQueryError';
    this.failure = failure;
  }
}

/**
 * One dedicated connection whose queries block the caller until they are
 * answered. A lost connection fails the query in flight; the next query
 * opens a new one, except within a transaction the loss rolled back: its
 * statements fail with the loss until its `ROLLBACK`.
 */
export interface SyncConnection {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): QueryResult<Row>;
  close(): void;
}

// Plain CommonJS, run with `eval`: it works the same from src/ under vitest and from dist/, with no loader.
// A lost connection is replaced by a new one at the next request, except inside a transaction: the
// server rolled it back, so its statements fail with the loss until the caller's ROLLBACK ends it.
const workerSource = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const signal = new Int32Array(workerData.signal);
const port = workerData.port;
const failure = (error) => ({ message: String(error && error.message || error), code: error && error.code, constraint: error && error.constraint });
const reply = (message) => { port.postMessage(message); Atomics.add(signal, 0, 1); Atomics.notify(signal, 0); };
const types = { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) };
const lostCodes = /^(08|57P0[1-3])|^(ECONNRESET|EPIPE|ECONNREFUSED|ETIMEDOUT)$/;
const lostError = (error) => lostCodes.test(String(error && error.code)) || /Connection terminated|not queryable/.test(String(error && error.message));
let client = null;
let lost = null;
let inTransaction = false;
let aborted = null;
// pgSsl of postgresTls.ts: a chain-only check skips the name check, a function no message can carry
const pgSsl = (attempt) => { if (!attempt) return false; const { verifyHostName, ...ssl } = attempt; return verifyHostName ? ssl : { ...ssl, checkServerIdentity: () => undefined }; };
const { tls, ...connection } = workerData.config;
const unreachable = (error) => workerData.unreachableCodes.includes(error && error.code) || /timeout expired/.test(String(error && error.message));
// the sslmode's attempts in order, as libpq makes them; one the server never answered ends them all
const open = async () => {
  let failed;
  for (const attempt of tls.attempts) {
    const opened = new pg.Client({ ...connection, ssl: pgSsl(attempt), connectionTimeoutMillis: connection.connectTimeoutMs, types });
    opened.on('error', (error) => { if (client === opened) lost = error; });
    opened.on('end', () => { if (client === opened && lost === null) lost = new Error('Connection terminated'); });
    client = opened;
    try {
      await opened.connect();
      return;
    } catch (error) {
      client = null;
      opened.end().catch(() => undefined);
      // as firstConnecting: a pg_hba refusal of this attempt's encryption says less than an earlier failure
      if (failed === undefined || !new RegExp(workerData.hbaRefusal).test(String(error && error.message))) failed = error;
      if (unreachable(error)) break;
    }
  }
  throw failed;
};
const drop = () => { const gone = client; client = null; lost = null; if (gone) gone.end().catch(() => undefined); };
process.on('uncaughtException', (error) => reply({ ok: false, failure: failure(error) }));
port.on('message', async (request) => {
  try {
    if (request.close) { if (client && !lost) await client.end(); reply({ ok: true, rows: [], rowCount: 0 }); port.close(); return; }
    if (lost) { if (inTransaction) aborted = lost; inTransaction = false; drop(); }
    const statement = String(request.sql).trim().toUpperCase();
    if (aborted) {
      if (statement !== 'ROLLBACK') throw aborted;
      aborted = null;
      reply({ ok: true, rows: [], rowCount: 0 });
      return;
    }
    if (!client) await open();
    try {
      const result = await client.query({ text: request.sql, values: request.params });
      if (statement === 'BEGIN') inTransaction = true;
      else if (statement === 'COMMIT' || statement === 'ROLLBACK') inTransaction = false;
      reply({ ok: true, rows: result.rows, rowCount: result.rowCount ?? 0 });
    } catch (error) {
      if (lostError(error)) { if (inTransaction) aborted = error; inTransaction = false; drop(); }
      throw error;
    }
  } catch (error) {
    reply({ ok: false, failure: failure(error) });
  }
});
`;

type Reply = { ok: true; rows: unknown[]; rowCount: number } | { ok: false; failure: PgFailure };

/**
 * Open a PostgreSQL connection in a worker thread and make each query
 * synchronous for the caller: it posts the query and sleeps on a shared
 * counter (`Atomics.wait`) until the worker has answered. The RunStore port is
 * synchronous, so this is how `pg` (asynchronous only) can serve it.
 *
 * @example
 * ```ts
 * const connection = openSyncConnection({ host: '127.0.0.1', port: 5432, user: 'arena',
 *   database: 'arena', connectTimeoutMs: 10_000, tls: tlsPlan({ sslmode: 'disable' }, display) }, 60_000);
 * connection.query<{ one: number }>('SELECT 1 AS one').rows; // [{ one: 1 }]
 * connection.close();
 * ```
 */
export function openSyncConnection(
  config: ConnectionConfig,
  replyTimeoutMs: number,
): SyncConnection {
  const signal = new SharedArrayBuffer(4);
  const counter = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const pgPath = resolvePeer(optionalPeers.pg, 'arena-runtime/postgres (PostgreSQL stores)');
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      pgPath,
      signal,
      port: port2,
      config,
      unreachableCodes,
      hbaRefusal: hbaRefusal.source,
    },
    transferList: [port2],
  });
  // an unclosed store must not keep the process alive; the blocking wait does not need the event loop
  worker.unref();
  let closed = false;

  const call = (request: object): QueryResult<unknown> => {
    if (closed)
      throw new PgQueryError({
        message: 'the store is closed',
        code: undefined,
        constraint: undefined,
      });
    const seen = Atomics.load(counter, 0);
    port1.postMessage(request);
    const waited = Atomics.wait(counter, 0, seen, replyTimeoutMs);
    const received = receiveMessageOnPort(port1);
    if (received === undefined) {
      const why = waited === 'timed-out' ? `no reply within ${replyTimeoutMs} ms` : 'no reply';
      throw new PgQueryError({
        message: `the PostgreSQL worker gave ${why}`,
        code: 'ETIMEDOUT',
        constraint: undefined,
      });
    }
    const reply = received.message as Reply;
    if (!reply.ok) throw new PgQueryError(reply.failure);
    return reply;
  };

  return {
    query<Row>(sql: string, params: readonly unknown[] = []) {
      return call({ sql, params }) as QueryResult<Row>;
    },
    close() {
      if (closed) return;
      try {
        call({ close: true });
      } catch {
        // a connection that never opened or was lost has nothing left to end
      } finally {
        closed = true;
        port1.close();
        void worker.terminate();
      }
    },
  };
}
