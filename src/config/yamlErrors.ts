import { escapePointerToken } from '../domain/definition/pointer.js';
import { ArenaError } from '../domain/shared/errors.js';

/**
 * YAML that does not parse, with the 1-based line and column of the problem.
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'YAML_SYNTAX'); // true when `error` is a YamlSyntaxError
 * error instanceof YamlSyntaxError && error.name; // 'YamlSyntaxError'
 * ```
 */
export class YamlSyntaxError extends ArenaError {
  readonly line: number;
  readonly column: number;

  constructor(message: string, line: number, column: number) {
    super('YAML_SYNTAX', `line ${line}, column ${column}: ${message}`);
    this.line = line;
    this.column = column;
  }
}

/**
 * Two keys of one mapping that become the same string key (`3` and `"3"`).
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'YAML_KEY_COLLISION'); // true when `error` is a YamlKeyCollisionError
 * error instanceof YamlKeyCollisionError && error.name; // 'YamlKeyCollisionError'
 * ```
 */
export class YamlKeyCollisionError extends ArenaError {
  /** RFC 6901 pointer of the mapping that holds both keys. */
  readonly pointer: string;
  readonly key: string;

  constructor(pointer: string, key: string, line: number, column: number) {
    super(
      'YAML_KEY_COLLISION',
      `line ${line}, column ${column}: the mapping at "${pointer}" has two keys that both become "${key}" (for example 3 and "3"); the pointer "${pointer}/${escapePointerToken(key)}" would be ambiguous`,
    );
    this.pointer = pointer;
    this.key = key;
  }
}

/**
 * An alias whose expansion passes `maxAliasCount`, counted the way the `yaml`
 * package counts (uses of an anchor times the aliased nodes inside it): the
 * mark of an alias bomb ("billion laughs").
 *
 * @example
 * ```ts
 * ArenaError.is(error, 'YAML_ALIAS_LIMIT'); // true when `error` is a YamlAliasLimitError
 * error instanceof YamlAliasLimitError && error.alias; // 'a' for the alias *a
 * ```
 */
export class YamlAliasLimitError extends ArenaError {
  /** The alias name, without its `*`. */
  readonly alias: string;
  /** The limit that was passed. */
  readonly maxAliasCount: number;
  readonly line: number;
  readonly column: number;

  constructor(
    alias: string,
    counts: { readonly uses: number; readonly held: number },
    maxAliasCount: number,
    position: { readonly line: number; readonly col: number },
  ) {
    super(
      'YAML_ALIAS_LIMIT',
      `line ${position.line}, column ${position.col}: alias *${alias} passes the alias limit: anchor &${alias} is used ${counts.uses} times and holds ${counts.held} aliased nodes, ${counts.uses * counts.held} > maxAliasCount ${maxAliasCount} (an alias bomb?)`,
    );
    this.alias = alias;
    this.maxAliasCount = maxAliasCount;
    this.line = position.line;
    this.column = position.col;
  }
}
