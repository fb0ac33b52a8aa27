import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  DEFAULT_MAX_ALIAS_COUNT,
  parseYamlWithKeyOrder,
  YamlAliasLimitError,
  YamlSyntaxError,
} from '../../../src/config/orderedYaml.js';
import { readYamlSource } from '../../../src/config/yamlSource.js';

/** A "billion laughs" document: level n holds nine aliases of level n-1, so the last expands to 9^levels scalars. */
function aliasBomb(levels: number, leaf = '"lol"'): string {
  const lines = [`l0: &l0 [${Array(9).fill(leaf).join(', ')}]`];
  for (let level = 1; level < levels; level += 1) {
    lines.push(
      `l${level}: &l${level} [${Array(9)
        .fill(`*l${level - 1}`)
        .join(', ')}]`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function aliasLimitError(run: () => unknown): YamlAliasLimitError {
  try {
    run();
  } catch (error) {
    if (error instanceof YamlAliasLimitError) return error;
    throw error;
  }
  throw new Error('expected a YamlAliasLimitError');
}

describe('the alias limit (maxAliasCount)', () => {
  it('defaults to the yaml package default of 100', () => {
    expect(DEFAULT_MAX_ALIAS_COUNT).toBe(100);
  });

  it('expands aliases that stay within the limit', () => {
    const { value, keyOrder } = parseYamlWithKeyOrder('a: &x {p: 1, q: [2]}\nb: *x\nc: [*x, *x]\n');
    expect(value).toEqual({
      a: { p: 1, q: [2] },
      b: { p: 1, q: [2] },
      c: [
        { p: 1, q: [2] },
        { p: 1, q: [2] },
      ],
    });
    expect(keyOrder['/c/1']).toEqual(['p', 'q']);
  });

  it.each([6, 7, 9])(
    'rejects a 9^%i alias bomb at the first use of its third level, naming the alias and the limit',
    (levels) => {
      const error = aliasLimitError(() => parseYamlWithKeyOrder(aliasBomb(levels)));
      expect(error.code).toBe('YAML_ALIAS_LIMIT');
      expect(error.name).toBe('YamlAliasLimitError');
      expect(error.alias).toBe('l2');
      expect(error.maxAliasCount).toBe(100);
      expect([error.line, error.column]).toEqual([4, 10]);
      expect(error.message).toBe(
        'line 4, column 10: alias *l2 passes the alias limit: anchor &l2 is used 2 times and holds 100 aliased nodes, 200 > maxAliasCount 100 (an alias bomb?)',
      );
    },
  );

  it('rejects exactly where the yaml package rejects', () => {
    const bomb = aliasBomb(4);
    expect(() => parse(bomb)).toThrowError(/Excessive alias count/);
    expect(() => parse(aliasBomb(2))).not.toThrow();
    expect(() => parseYamlWithKeyOrder(aliasBomb(2))).not.toThrow();
  });

  it('catches a bomb of empty lists, which the yaml package lets through', () => {
    const bomb = aliasBomb(8, '[]');
    expect(() => parse(bomb)).not.toThrow();
    expect(aliasLimitError(() => parseYamlWithKeyOrder(bomb)).alias).toBe('l2');
  });

  it('takes another limit: higher lets the bomb grow, negative turns the check off, 0 forbids aliases', () => {
    expect(
      aliasLimitError(() => parseYamlWithKeyOrder(aliasBomb(5), { maxAliasCount: 1000 })).alias,
    ).toBe('l3');
    const unlimited = parseYamlWithKeyOrder(aliasBomb(3), { maxAliasCount: -1 }).value as {
      l2: string[][];
    };
    expect(unlimited.l2.flat()).toHaveLength(81);
    expect(
      aliasLimitError(() => parseYamlWithKeyOrder('a: &x 1\nb: *x\n', { maxAliasCount: 0 })).alias,
    ).toBe('x');
  });

  it('counts an alias used as a key', () => {
    expect(parseYamlWithKeyOrder('a: &k name\n*k : 1\n').value).toEqual({ a: 'name', name: 1 });
    expect(() => parseYamlWithKeyOrder('a: &k name\n*k : 1\n', { maxAliasCount: 1 })).toThrowError(
      YamlAliasLimitError,
    );
  });

  it('resolves an alias to the latest anchor of its name before it', () => {
    expect(parseYamlWithKeyOrder('a: &x 1\nb: *x\nc: &x 2\nd: *x\n').value).toEqual({
      a: 1,
      b: 1,
      c: 2,
      d: 2,
    });
  });

  it('still reports an alias with no anchor before it as a syntax error with its position', () => {
    expect(() => parseYamlWithKeyOrder('a: *x\nb: &x 1\n')).toThrowError(YamlSyntaxError);
    expect(() => parseYamlWithKeyOrder('a: *x\nb: &x 1\n')).toThrowError(
      /^line 1, column 4: unresolved alias \*x$/,
    );
  });

  it('reports the bomb as one issue of a YAML source, with its line and column', () => {
    const source = readYamlSource(aliasBomb(7));
    expect(source.value).toBeUndefined();
    expect(source.syntaxIssues).toEqual([
      {
        path: '',
        message:
          'YAML error: alias *l2 passes the alias limit: anchor &l2 is used 2 times and holds 100 aliased nodes, 200 > maxAliasCount 100 (an alias bomb?)',
        location: { line: 4, column: 10 },
      },
    ]);
  });
});
