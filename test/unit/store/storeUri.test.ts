import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUriError } from '../../../src/ports/store/storeErrors.js';
import { openStore, parseStoreUri } from '../../../src/ports/store/storeUri.js';

describe('--store values', () => {
  it('defaults to .arena/arena.db in the current directory', () => {
    expect(parseStoreUri(undefined, '/work')).toEqual({
      kind: 'sqlite',
      path: '/work/.arena/arena.db',
    });
  });

  it('resolves sqlite:PATH against the current directory and keeps absolute paths', () => {
    expect(parseStoreUri('sqlite:runs/a.db', '/work')).toEqual({
      kind: 'sqlite',
      path: '/work/runs/a.db',
    });
    expect(parseStoreUri('sqlite:/data/a.db', '/work')).toEqual({
      kind: 'sqlite',
      path: '/data/a.db',
    });
    expect(parseStoreUri('sqlite::memory:', '/work')).toEqual({ kind: 'sqlite', path: ':memory:' });
  });

  it.each(['postgres://db/arena', 'sqlite:', 'runs.db', 'sqlite:  '])(
    'refuses %j, saying what it expects',
    (uri) => {
      expect(() => parseStoreUri(uri, '/work')).toThrow(StoreUriError);
      expect(() => parseStoreUri(uri, '/work')).toThrow(
        `--store must be sqlite:PATH (e.g. sqlite:.arena/arena.db), got '${uri}'`,
      );
    },
  );
});

describe('opening a store', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'arena-uri-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('creates the folder of the default location', () => {
    const store = openStore(parseStoreUri(undefined, folder));
    expect(store.listRuns()).toEqual([]);
    store.close();
    expect(existsSync(path.join(folder, '.arena', 'arena.db'))).toBe(true);
  });
});
