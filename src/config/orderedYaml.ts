import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
} from 'yaml';
import { escapePointerToken } from '../domain/definition/pointer.js';
import type { KeyOrder } from '../domain/definition/types.js';
import { ArenaError } from '../domain/shared/errors.js';
import type { JsonObject, JsonValue } from '../domain/shared/json.js';

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

/** A parsed YAML document and the declaration order of its mappings. */
export interface OrderedYaml {
  readonly value: JsonValue;
  /** Each mapping's RFC 6901 pointer (`''` for the root) to its keys in document order. */
  readonly keyOrder: KeyOrder;
}

/**
 * Parse one YAML document (YAML 1.2 core schema) into plain JSON and keep the
 * document order of every mapping's keys beside it, because JavaScript objects
 * put integer-like keys first whatever the file said. Scalar keys become
 * strings (`3:` gives `"3"`, `null` gives `""`); two keys that collide after
 * that throw `YamlKeyCollisionError`; aliases are expanded; syntax errors
 * throw `YamlSyntaxError` with line and column.
 *
 * @example
 * ```ts
 * const { value, keyOrder } = parseYamlWithKeyOrder('b: 1\n3: 2\na: 3\n');
 * Object.keys(value); // ['3', 'b', 'a']  (JavaScript's order)
 * keyOrder['']; // ['b', '3', 'a']          (the document's order)
 * ```
 */
export function parseYamlWithKeyOrder(text: string): OrderedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true });
  const [firstError] = document.errors;
  if (firstError !== undefined) {
    const position = firstError.linePos?.[0] ?? { line: 0, col: 0 };
    throw new YamlSyntaxError(
      (firstError.message.split('\n')[0] ?? firstError.code).replace(
        / at line \d+, column \d+:?$/,
        '',
      ),
      position.line,
      position.col,
    );
  }
  const keyOrder: Record<string, string[]> = {};
  const converter = new OrderedConverter(document, lineCounter, keyOrder);
  const value = converter.convert(document.contents, '');
  return { value, keyOrder };
}

class OrderedConverter {
  private readonly inProgress = new Set<Node>();

  constructor(
    private readonly document: Document,
    private readonly lineCounter: LineCounter,
    private readonly keyOrder: Record<string, string[]>,
  ) {}

  convert(node: unknown, pointer: string): JsonValue {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = node.resolve(this.document);
      if (target === undefined) throw this.syntaxError(`unresolved alias *${node.source}`, node);
      if (this.inProgress.has(target)) {
        throw this.syntaxError(`alias *${node.source} refers to a node that contains it`, node);
      }
      return this.convert(target, pointer);
    }
    if (isScalar(node)) return this.scalarValue(node.value, node);
    if (isSeq(node)) {
      this.inProgress.add(node);
      const list = node.items.map((item, index) => this.convert(item, `${pointer}/${index}`));
      this.inProgress.delete(node);
      return list;
    }
    if (isMap(node)) {
      this.inProgress.add(node);
      const mapping: JsonObject = {};
      const keys: string[] = [];
      for (const pair of node.items) {
        const key = this.keyString(pair.key);
        if (Object.hasOwn(mapping, key)) {
          const position = this.position(pair.key);
          throw new YamlKeyCollisionError(pointer, key, position.line, position.col);
        }
        keys.push(key);
        Object.defineProperty(mapping, key, {
          value: this.convert(pair.value, `${pointer}/${escapePointerToken(key)}`),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      this.inProgress.delete(node);
      this.keyOrder[pointer] = keys;
      return mapping;
    }
    throw this.syntaxError('unsupported YAML node', node);
  }

  private scalarValue(value: unknown, node: unknown): JsonValue {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return value;
    throw this.syntaxError(`a ${typeof value} scalar is not JSON`, node);
  }

  private keyString(key: unknown): string {
    const resolved = isAlias(key) ? key.resolve(this.document) : key;
    if (resolved === null || resolved === undefined) return '';
    if (!isScalar(resolved)) {
      throw this.syntaxError('mapping keys must be scalars, not mappings or lists', key);
    }
    const value = resolved.value;
    if (value === null) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.syntaxError(`a ${typeof value} key is not JSON`, key);
  }

  private position(node: unknown): { line: number; col: number } {
    const range = (node as { range?: readonly number[] | null } | null)?.range;
    const offset = range?.[0];
    return offset === undefined ? { line: 0, col: 0 } : this.lineCounter.linePos(offset);
  }

  private syntaxError(message: string, node: unknown): YamlSyntaxError {
    const { line, col } = this.position(node);
    return new YamlSyntaxError(message, line, col);
  }
}
