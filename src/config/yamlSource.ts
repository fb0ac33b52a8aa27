import { isCollection, isNode, LineCounter, parseDocument } from 'yaml';
import type { KeyOrder } from '../domain/definition/types.js';
import { ArenaError } from '../domain/shared/errors.js';
import type { ConfigIssue, PathSegment, SourceLocation } from './configIssue.js';
import { parseYamlWithKeyOrder } from './orderedYaml.js';

/**
 * A parsed YAML text that can say where a path sits in it. Values and key
 * order come from `parseYamlWithKeyOrder`; the positions come from a second
 * parse of the same text, because the ordered parse keeps no positions.
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
export function readYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true });
  const locateOffset = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const syntaxIssues: ConfigIssue[] = document.errors.map((error) => ({
    path: '',
    message: `YAML syntax error: ${syntaxMessage(error.message)}`,
    location: error.linePos ? { line: error.linePos[0].line, column: error.linePos[0].col } : null,
  }));
  const locate = (segments: readonly PathSegment[]): SourceLocation | null => {
    for (let length = segments.length; length >= 0; length -= 1) {
      const node = nodeAt(document.contents, segments.slice(0, length));
      if (node?.range) return locateOffset(node.range[0]);
    }
    return null;
  };
  if (syntaxIssues.length > 0) return { value: undefined, keyOrder: {}, syntaxIssues, locate };
  try {
    const { value, keyOrder } = parseYamlWithKeyOrder(text);
    return { value, keyOrder, syntaxIssues, locate };
  } catch (error) {
    if (!ArenaError.is(error)) throw error;
    return { value: undefined, keyOrder: {}, syntaxIssues: [orderedYamlIssue(error)], locate };
  }
}

/** An issue for what `parseYamlWithKeyOrder` rejects (`line L, column C: message`). */
function orderedYamlIssue(error: ArenaError): ConfigIssue {
  const match = /^line (\d+), column (\d+): (.*)$/s.exec(error.message);
  if (match === null) return { path: '', message: `YAML error: ${error.message}`, location: null };
  const [, line, column, message] = match;
  return {
    path: '',
    message: `YAML error: ${message}`,
    location: { line: Number(line), column: Number(column) },
  };
}

type NodeWithRange = { range?: readonly [number, number, number] | null | undefined };

function nodeAt(root: unknown, segments: readonly PathSegment[]): NodeWithRange | undefined {
  let current: unknown = root;
  for (const segment of segments) {
    if (!isCollection(current)) return undefined;
    current = current.get(segment, true) ?? current.get(String(segment), true);
  }
  return isNode(current) ? current : undefined;
}

/** The first line of a yaml error message, without its ` at line L, column C:` tail. */
function syntaxMessage(message: string): string {
  const firstLine = message.split('\n')[0] ?? message;
  return firstLine.replace(/ at line \d+, column \d+:?$/, '');
}
