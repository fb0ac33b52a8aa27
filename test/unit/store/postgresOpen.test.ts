import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreConnectionError } from '../../../src/ports/store/postgres/postgresErrors.js';
import { postgresMigrations } from '../../../src/ports/store/postgres/postgresSchema.js';
import { openPostgresStore } from '../../../src/ports/store/postgres/postgresStore.js';
import { parsePostgresUri } from '../../../src/ports/store/postgres/postgresUri.js';
import {
  StoreNotFoundError,
  StoreOpenError,
  StoreSchemaError,
  StoreUriError,
} from '../../../src/ports/store/storeErrors.js';
import { parseStoreUri } from '../../../src/ports/store/storeUri.js';
import {
  freePort,
  passwordUser,
  passwordUserPassword,
  startTestPostgres,
  type TestPostgres,
} from '../../support/postgres.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.stop();
});

async function sql(uri: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('postgres:// store URIs', () => {
  it('parses user, password, host, port and database, and never shows the password', () => {
    const home = { HOME: '/nonexistent' };
    expect(parsePostgresUri('postgres://arena:s3%2Fcret@127.0.0.1:5433/runs', 5000, home)).toEqual({
      config: {
        host: '127.0.0.1',
        port: 5433,
        user: 'arena',
        password: 's3/cret',
        database: 'runs',
        connectTimeoutMs: 5000,
        // libpq's default, prefer: TLS if the server offers it, else plaintext
        tls: {
          sslmode: 'prefer',
          attempts: [{ rejectUnauthorized: false, verifyHostName: false }, false],
        },
      },
      display: 'postgres://arena@127.0.0.1:5433/runs',
    });
    expect(
      parsePostgresUri('postgresql://arena@db/runs', 5000, { PGPASSWORD: 'pw' }).config,
    ).toMatchObject({
      port: 5432,
      password: 'pw',
    });
    expect(parseStoreUri('postgres://arena:pw@db:5433/runs', '/work')).toEqual({
      kind: 'postgres',
      uri: 'postgres://arena:pw@db:5433/runs',
      path: 'postgres://arena@db:5433/runs',
    });
  });

  it('takes ARENA_STORE when --store is absent, and --store over it', () => {
    const environment = { ARENA_STORE: 'postgres://arena@db/runs' };
    expect(parseStoreUri(undefined, '/work', environment)).toMatchObject({
      kind: 'postgres',
      path: 'postgres://arena@db/runs',
    });
    expect(parseStoreUri('sqlite:a.db', '/work', environment)).toEqual({
      kind: 'sqlite',
      path: '/work/a.db',
    });
    expect(parseStoreUri(undefined, '/work', { ARENA_STORE: 'sqlite:b.db' })).toEqual({
      kind: 'sqlite',
      path: '/work/b.db',
    });
  });

  it.each([
    ['postgres://127.0.0.1:5432/arena', 'needs a user'],
    ['postgres://arena@127.0.0.1:5432', 'needs a database name'],
    ['postgres://arena@127.0.0.1:5432/a/b', 'needs a database name'],
  ])('refuses %j, saying what it lacks', (uri, lack) => {
    expect(() => parseStoreUri(uri, '/work')).toThrow(StoreUriError);
    expect(() => parseStoreUri(uri, '/work')).toThrow(`a postgres:// store ${lack}`);
  });
});

describe('opening a PostgreSQL store', () => {
  it('names host:port and ECONNREFUSED when no server listens', async () => {
    const port = await freePort();
    const open = () => openPostgresStore(`postgres://arena@127.0.0.1:${port}/arena`);
    expect(open).toThrow(StoreOpenError);
    expect(open).toThrow(
      `postgres://arena@127.0.0.1:${port}/arena: cannot connect to 127.0.0.1:${port} (ECONNREFUSED): is the server running?`,
    );
  });

  it('says which database does not exist and how to create it', () => {
    const open = () => openPostgresStore(`postgres://arena@127.0.0.1:${server.port}/missing`);
    expect(open).toThrow(
      `the server at 127.0.0.1:${server.port} has no database 'missing' (3D000); create it first: createdb -h 127.0.0.1 -p ${server.port} -U arena missing`,
    );
  });

  it('names the user the server refused, for a wrong password and an unknown role', async () => {
    const uri = await server.createDatabase('credentials');
    const wrong = uri.replace('arena@', `${passwordUser}:wrong@`);
    expect(() => openPostgresStore(wrong)).toThrow(
      `the server at 127.0.0.1:${server.port} refused user '${passwordUser}' (28P01:`,
    );
    expect(() => openPostgresStore(uri.replace('arena@', 'mallory@'))).toThrow(
      `refused user 'mallory' (28000: role "mallory" does not exist)`,
    );
    // the right password opens it, and the password never shows in a message
    const store = openPostgresStore(
      uri.replace('arena@', `${passwordUser}:${passwordUserPassword}@`),
    );
    expect(() => store.getRun('nope')).toThrow("no run 'nope'");
    store.close();
  });

  it('opened read-only, refuses a database with no store and creates nothing there', async () => {
    const uri = await server.createDatabase('empty_readonly');
    expect(() => openPostgresStore(uri, { readonly: true })).toThrow(StoreNotFoundError);
    expect(await sql(uri, "SELECT to_regclass('arena_schema') AS found")).toEqual([
      { found: null },
    ]);
  });

  it('creates the schema once, and a second handle finds it in place', async () => {
    const uri = await server.createDatabase('migrated');
    const first = openPostgresStore(uri);
    const second = openPostgresStore(uri);
    first.createRun({ runId: 'r', uid: 'u', seed: 1, runFile: '', runFilePath: '/r.yaml' });
    expect(second.getRun('r').uid).toBe('u');
    first.close();
    second.close();
    expect(await sql(uri, 'SELECT version FROM arena_schema')).toEqual([
      { version: postgresMigrations.length },
    ]);
  });

  it('refuses a database whose runs table is not arena\u2019s, and one of a newer arena', async () => {
    const foreign = await server.createDatabase('foreign');
    await sql(foreign, 'CREATE TABLE runs (id serial)');
    expect(() => openPostgresStore(foreign)).toThrow(
      'a database with a runs table of its own, not an arena store',
    );
    const newer = await server.createDatabase('newer');
    openPostgresStore(newer).close();
    await sql(newer, 'UPDATE arena_schema SET version = 99');
    expect(() => openPostgresStore(newer)).toThrow(StoreSchemaError);
    expect(() => openPostgresStore(newer, { readonly: true })).toThrow(
      'has store schema version 99',
    );
  });
});

describe('a PostgreSQL server that goes away', () => {
  it('fails the next call with one line naming the server, and keeps what was committed', async () => {
    const own = await startTestPostgres();
    const uri = await own.createDatabase('going');
    const store = openPostgresStore(uri);
    store.createRun({ runId: 'kept', uid: 'u', seed: 1, runFile: '', runFilePath: '/r.yaml' });
    await own.stop();
    expect(() => store.getRun('kept')).toThrow(StoreConnectionError);
    expect(() => store.getRun('kept')).toThrow(
      new RegExp(
        `^postgres://arena@127\\.0\\.0\\.1:${own.port}/going: lost the connection to 127\\.0\\.0\\.1:${own.port} \\(.+\\); what was committed is kept$`,
      ),
    );
    store.close();
  });
});
