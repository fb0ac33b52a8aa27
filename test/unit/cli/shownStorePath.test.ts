import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownStorePath } from '../../../src/cli/paths.js';

describe('shownStorePath', () => {
  it('shows a store inside the working directory relative to it', () => {
    expect(shownStorePath(path.join(process.cwd(), '.arena', 'arena.db'))).toBe(
      path.join('.arena', 'arena.db'),
    );
  });

  it('keeps the absolute path of a store outside the working directory', () => {
    const outside = path.join(path.dirname(process.cwd()), 'elsewhere', 'arena.db');
    expect(shownStorePath(outside)).toBe(outside);
  });

  it('keeps a path that is not absolute as it is (an in-memory store)', () => {
    expect(shownStorePath(':memory:')).toBe(':memory:');
  });
});
