import { describe, expect, it } from 'vitest';
import { ArenaError } from '../../../src/domain/shared/errors.js';
import {
  isServerFailure,
  ServerUnavailableError,
  withPatience,
} from '../../../src/ports/runtime/serverFailure.js';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
const named = (name: string) => Object.assign(new Error(name), { name });

/** A clock that moves only when the code under test sleeps. */
function fakeTime() {
  let at = 0;
  const sleeps: number[] = [];
  return {
    now: () => at,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      at += ms;
    },
    sleeps,
  };
}

describe('isServerFailure', () => {
  it('takes a refused or cut socket, a PostgreSQL shutdown and a NATS disconnect for server faults', () => {
    expect(isServerFailure(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(
      true,
    );
    expect(
      isServerFailure(coded('terminating connection due to administrator command', '57P01')),
    ).toBe(true);
    expect(isServerFailure(coded('the database system is starting up', '57P03'))).toBe(true);
    expect(isServerFailure(coded('connection failure', '08006'))).toBe(true);
    expect(isServerFailure(named('ConnectionError'))).toBe(true);
    expect(isServerFailure(named('TimeoutError'))).toBe(true);
    expect(isServerFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('takes a SQLite lock held by another connection for contention that ends, not a fault of the work', () => {
    expect(isServerFailure(coded('database is locked', 'SQLITE_BUSY'))).toBe(true);
    expect(isServerFailure(coded('database is locked', 'SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(isServerFailure(coded('database table is locked', 'SQLITE_LOCKED'))).toBe(true);
    expect(isServerFailure(coded('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'))).toBe(
      false,
    );
    expect(isServerFailure(coded('disk I/O error', 'SQLITE_IOERR'))).toBe(false);
  });

  it('finds a server fault in the cause chain of another error', () => {
    const wrapped = new Error('could not record the verdict', {
      cause: coded('read ECONNRESET', 'ECONNRESET'),
    });
    expect(isServerFailure(wrapped)).toBe(true);
  });

  it('takes bad SQL, a constraint, a type error and an arena error of the work for what they are', () => {
    expect(isServerFailure(coded('syntax error at or near "SELEC"', '42601'))).toBe(false);
    expect(isServerFailure(coded('duplicate key value', '23505'))).toBe(false);
    expect(isServerFailure(new TypeError('x is undefined'))).toBe(false);
    expect(isServerFailure(new ArenaError('RUN_NOT_FOUND', "no run 'x'"))).toBe(false);
    expect(isServerFailure('ECONNREFUSED')).toBe(false);
  });
});

describe('withPatience', () => {
  it('retries a server fault with doubling back-off until the work succeeds', async () => {
    const time = fakeTime();
    let calls = 0;
    const value = await withPatience(
      () => {
        calls++;
        if (calls < 5) throw coded('refused', 'ECONNREFUSED');
        return 'done';
      },
      { what: 'the store', ...time, firstDelayMs: 100, maxDelayMs: 400 },
    );
    expect(value).toBe('done');
    expect(time.sleeps).toEqual([100, 200, 400, 400]);
  });

  it('gives up with ServerUnavailableError naming what and how long once the patience is spent', async () => {
    const time = fakeTime();
    const attempt = withPatience(
      () => {
        throw coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
      },
      { what: 'the store at postgres://127.0.0.1:5432/arena', patienceMs: 10_000, ...time },
    );
    await expect(attempt).rejects.toThrow(ServerUnavailableError);
    await expect(attempt).rejects.toThrow(
      'the store at postgres://127.0.0.1:5432/arena did not come back within 10 s (last: connect ECONNREFUSED 127.0.0.1:5432)',
    );
    expect(time.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(10_000);
  });

  it('throws any other error at once, unchanged', async () => {
    const time = fakeTime();
    const bad = new TypeError('bad case');
    await expect(
      withPatience(
        () => {
          throw bad;
        },
        { what: 'the store', ...time },
      ),
    ).rejects.toBe(bad);
    expect(time.sleeps).toEqual([]);
  });

  it('ends a wait when its signal aborts', async () => {
    const stop = new AbortController();
    const attempt = withPatience(
      () => {
        throw coded('refused', 'ECONNREFUSED');
      },
      { what: 'the store', signal: stop.signal, firstDelayMs: 60_000 },
    );
    setTimeout(() => stop.abort(new Error('stopped')), 10);
    await expect(attempt).rejects.toThrow('stopped');
  });
});

describe('withPatience after an abort', () => {
  it('still makes the attempt once (a cancel is written after Ctrl-C), but waits no more', async () => {
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    await expect(
      withPatience(() => 'written', { what: 'the store', signal: stop.signal }),
    ).resolves.toBe('written');
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    await expect(
      withPatience(
        () => {
          throw refused;
        },
        { what: 'the store', signal: stop.signal },
      ),
    ).rejects.toBe(refused);
  });
});
