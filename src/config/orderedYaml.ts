import {
  type Alias,
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
import type { JsonObject, JsonValue } from '../domain/shared/json.js';
import { formatYamlPath } from './configIssue.js';
import { DEFAULT_MAX_ALIAS_COUNT, resolveAliases } from './yamlAliases.js';
import { tooDeepMessage, tooDeepYaml } from './yamlDepth.js';
import { YamlKeyCollisionError, YamlSyntaxError } from './yamlErrors.js';

export { DEFAULT_MAX_ALIAS_COUNT } from './yamlAliases.js';
export { YamlAliasLimitError, YamlKeyCollisionError, YamlSyntaxError } from './yamlErrors.js';

/** A parsed YAML document and the declaration order of its mappings. */
export interface OrderedYaml {
  readonly value: JsonValue;
  /** Each mapping's RFC 6901 pointer (`''` for the root) to its keys in document order. */
  readonly keyOrder: KeyOrder;
}

/** Limits of a YAML parse. */
export interface YamlParseOptions {
  /**
   * The most alias expansion allowed, counted like the `yaml` package's
   * `maxAliasCount` (default 100; negative: no limit; 0: no aliases).
   */
  readonly maxAliasCount?: number;
}

/** A composed YAML document with the line counter that places its nodes. */
export interface ComposedYaml {
  readonly document: Document;
  readonly lineCounter: LineCounter;
}

/**
 * Compose YAML text into a document, once. Duplicate keys are left to
 * {@link orderedValueOf}, which finds them in linear time (the `yaml`
 * package's own check compares every key with every earlier one).
 *
 * @example
 * ```ts
 * composeYaml('a: 1\n').document.errors; // []
 * ```
 */
export function composeYaml(text: string): ComposedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: false });
  return { document, lineCounter };
}

/**
 * Parse one YAML document (YAML 1.2 core schema) into plain JSON and keep the
 * document order of every mapping's keys beside it, because JavaScript objects
 * put integer-like keys first whatever the file said. Scalar keys become
 * strings (`3:` gives `"3"`, `null` gives `""`); two keys that collide after
 * that throw `YamlKeyCollisionError`; aliases are expanded within
 * `maxAliasCount` (else `YamlAliasLimitError`); syntax errors throw
 * `YamlSyntaxError` with line and column.
 *
 * @example
 * ```ts
 * const { value, keyOrder } = parseYamlWithKeyOrder('b: 1\n3: 2\na: 3\n');
 * Object.keys(value); // ['3', 'b', 'a']  (JavaScript's order)
 * keyOrder['']; // ['b', '3', 'a']          (the document's order)
 * ```
 */
export function parseYamlWithKeyOrder(text: string, options: YamlParseOptions = {}): OrderedYaml {
  const tooDeep = tooDeepYaml(text);
  if (tooDeep !== null) {
    throw new YamlSyntaxError(
      `${formatYamlPath(tooDeep.segments)}: ${tooDeepMessage()}`,
      tooDeep.location.line,
      tooDeep.location.column,
    );
  }
  const composed = composeYaml(text);
  const [firstError] = composed.document.errors;
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
  return orderedValueOf(composed, options);
}

/**
 * The JSON value and key order of a document {@link composeYaml} made without
 * errors (see {@link parseYamlWithKeyOrder} for what it checks).
 *
 * @example
 * ```ts
 * orderedValueOf(composeYaml('a: &x [1]\nb: *x\n')).value; // { a: [1], b: [1] }
 * ```
 */
export function orderedValueOf(
  composed: ComposedYaml,
  options: YamlParseOptions = {},
): OrderedYaml {
  const { document, lineCounter } = composed;
  const position = (node: unknown): { line: number; col: number } => {
    const range = (node as { range?: readonly number[] | null } | null)?.range;
    const offset = range?.[0];
    return offset === undefined ? { line: 0, col: 0 } : lineCounter.linePos(offset);
  };
  const targets = resolveAliases(
    document,
    options.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT,
    position,
  );
  const keyOrder: Record<string, string[]> = {};
  const value = new OrderedConverter(targets, position, keyOrder).convert(document.contents, '');
  return { value, keyOrder };
}

class OrderedConverter {
  private readonly inProgress = new Set<Node>();

  constructor(
    private readonly targets: ReadonlyMap<Alias, Node>,
    private readonly position: (node: unknown) => { line: number; col: number },
    private readonly keyOrder: Record<string, string[]>,
  ) {}

  convert(node: unknown, pointer: string): JsonValue {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = this.target(node);
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
      // Each key's scalar value, to tell an exact duplicate from a string collision.
      const keyValues = new Map<string, unknown>();
      for (const pair of node.items) {
        const { key, value: keyValue } = this.keyOf(pair.key);
        if (keyValues.has(key)) {
          const { line, col } = this.position(pair.key);
          if (keyValues.get(key) === keyValue) {
            throw new YamlSyntaxError('Map keys must be unique', line, col);
          }
          throw new YamlKeyCollisionError(pointer, key, line, col);
        }
        keyValues.set(key, keyValue);
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

  private target(alias: Alias): Node {
    const target = this.targets.get(alias);
    if (target === undefined) throw this.syntaxError(`unresolved alias *${alias.source}`, alias);
    return target;
  }

  private scalarValue(value: unknown, node: unknown): JsonValue {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return value;
    throw this.syntaxError(`a ${typeof value} scalar is not JSON`, node);
  }

  /** The string a key becomes, and the scalar value it had. */
  private keyOf(key: unknown): { key: string; value: unknown } {
    const resolved = isAlias(key) ? this.target(key) : key;
    if (resolved === null || resolved === undefined) return { key: '', value: null };
    if (!isScalar(resolved)) {
      throw this.syntaxError('mapping keys must be scalars, not mappings or lists', key);
    }
    const value = resolved.value;
    if (value === null) return { key: '', value };
    if (typeof value === 'string') return { key: value, value };
    if (typeof value === 'number' || typeof value === 'boolean')
      return { key: String(value), value };
    throw this.syntaxError(`a ${typeof value} key is not JSON`, key);
  }

  private syntaxError(message: string, node: unknown): YamlSyntaxError {
    const { line, col } = this.position(node);
    return new YamlSyntaxError(message, line, col);
  }
}
