import { isMap, isNode, isPair, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { KeyOrder } from '../domain/definition/types.js';
import { ArenaError } from '../domain/shared/errors.js';
import type { ConfigIssue, PathSegment, SourceLocation } from './configIssue.js';
import { formatYamlPath } from './configIssue.js';
import { composeYaml, orderedValueOf, type YamlParseOptions } from './orderedYaml.js';
import { type TooDeep, tooDeepMessage, tooDeepYaml } from './yamlDepth.js';

/**
 * A parsed YAML text that can say where a path sits in it. Values, key order
 * and positions all come from one parse of the text.
 */
export interface YamlSource {
  /** The parsed value (JSON-like data). `undefined` when there are syntax errors. */
  readonly value: unknown;
  /** Declaration order of every mapping's keys, by RFC 6901 pointer. */
  readonly keyOrder: KeyOrder;
  /** YAML syntax errors, each with its line and column. */
  readonly syntaxIssues: readonly ConfigIssue[];
  /** Where `segments` (or the deepest ancestor present in the file) starts. */
  locate(segments: readonly PathSegment[]): SourceLocation | null;
}

/**
 * Parse YAML text, keeping positions so issues can name a line and column.
 *
 * @example
 * ```ts
 * const source = readYamlSource('uid: demo\nseed: -1\n');
 * source.locate(['seed']); // { line: 2, column: 7 }
 * ```
 */
export function readYamlSource(text: string, options: YamlParseOptions = {}): YamlSource {
  const tooDeep = tooDeepYaml(text);
  if (tooDeep !== null) return tooDeepSource(tooDeep);
  const composed = composeYaml(text);
  const { document, lineCounter } = composed;
  const locateOffset = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntaxIssues: ConfigIssue[] = document.errors.map((error) => ({
    path: '',
    message: `YAML syntax error: ${syntaxMessage(error.message)}`,
    location: error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : null,
  }));
  const nodeAt = nodeFinder(document.contents);
  const locate = (segments: readonly PathSegment[]): SourceLocation | null => {
    for (let length = segments.length; length >= 0; length -= 1) {
      const node = nodeAt(segments.slice(0, length));
      if (node?.range) return locateOffset(node.range[0]);
    }
    return null;
  };
  if (syntaxIssues.length > 0) return { value: undefined, keyOrder: {}, syntaxIssues, locate };
  try {
    const { value, keyOrder } = orderedValueOf(composed, options);
    return { value, keyOrder, syntaxIssues, locate };
  } catch (error) {
    if (!ArenaError.is(error)) throw error;
    return { value: undefined, keyOrder: {}, syntaxIssues: [orderedYamlIssue(error)], locate };
  }
}

/** An issue for what `parseYamlWithKeyOrder` rejects (`line L, column C: message`). */
function orderedYamlIssue(error: ArenaError): ConfigIssue {
  const label = error.code === 'YAML_SYNTAX' ? 'YAML syntax error' : 'YAML error';
  const match = /^line (\d+), column (\d+): (.*)$/s.exec(error.message);
  if (match === null) return { path: '', message: `${label}: ${error.message}`, location: null };
  const [, line, column, message] = match;
  return {
    path: '',
    message: `${label}: ${message}`,
    location: { line: Number(line), column: Number(column) },
  };
}

type NodeWithRange = { range?: readonly [number, number, number] | null | undefined };

/**
 * Finds a path's node, indexing each mapping's keys on first use: looking up
 * every issue of a 400k-key mapping pair by pair would take quadratic time.
 */
function nodeFinder(
  root: unknown,
): (segments: readonly PathSegment[]) => NodeWithRange | undefined {
  const indexes = new Map<YAMLMap, Map<unknown, unknown>>();
  const keyIndex = (map: YAMLMap): Map<unknown, unknown> => {
    let index = indexes.get(map);
    if (index === undefined) {
      index = new Map();
      for (const pair of map.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        // The first of two equal keys wins, like YAMLMap.get.
        if (!index.has(key)) index.set(key, pair.value);
      }
      indexes.set(map, index);
    }
    return index;
  };
  return (segments) => {
    let current: unknown = root;
    for (const segment of segments) {
      if (isMap(current)) {
        const index = keyIndex(current);
        current = index.get(segment) ?? index.get(String(segment));
      } else if (isSeq(current)) {
        current = current.items[Number(segment)];
      } else {
        return undefined;
      }
    }
    return isNode(current) ? current : undefined;
  };
}

/** The first line of a yaml error message, without its ` at line L, column C:` tail. */
function syntaxMessage(message: string): string {
  const firstLine = message.split('\n')[0] ?? message;
  return firstLine.replace(/ at line \d+, column \d+:?$/, '');
}

/** A text nested too deep to parse: one issue at the first collection past the limit, and no value. */
function tooDeepSource({ segments, location }: TooDeep): YamlSource {
  const issue: ConfigIssue = {
    path: formatYamlPath(segments),
    message: tooDeepMessage(),
    location,
  };
  return { value: undefined, keyOrder: {}, syntaxIssues: [issue], locate: () => location };
}
