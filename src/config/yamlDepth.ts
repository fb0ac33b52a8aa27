import { type CST, LineCounter, Parser } from 'yaml';
import type { PathSegment, SourceLocation } from './configIssue.js';

/** How deep collections may nest in an input file: far past any real file, far short of the stack. */
export const MAX_YAML_DEPTH = 64;

/**
 * Where a file nests too deep: the path (up to its last mapping key) of the
 * first collection past the limit, and where that collection starts.
 */
export interface TooDeep {
  readonly segments: readonly PathSegment[];
  readonly location: SourceLocation;
}

interface Visit {
  readonly token: CST.Token | undefined;
  readonly segments: readonly PathSegment[];
  readonly depth: number;
}

/**
 * The first collection nested deeper than `limit` in a YAML text, found on
 * the parser's concrete syntax tree with an explicit stack: the parse into
 * values recurses once per level, and a 5,000-deep list would overflow it
 * before any check could name where.
 *
 * @example
 * ```ts
 * tooDeepYaml('a: [[[1]]]\n', 2); // { segments: ['a'], location: { line: 1, column: 5 } }
 * tooDeepYaml('a: [1]\n'); // null
 * ```
 */
export function tooDeepYaml(text: string, limit: number = MAX_YAML_DEPTH): TooDeep | null {
  const stack: Visit[] = [];
  const lines = new LineCounter();
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type === 'document') stack.push({ token: token.value, segments: [], depth: 0 });
  }
  while (stack.length > 0) {
    const { token, segments, depth } = stack.pop() as Visit;
    if (token === undefined) continue;
    if (
      token.type !== 'block-map' &&
      token.type !== 'block-seq' &&
      token.type !== 'flow-collection'
    )
      continue;
    if (depth >= limit) {
      const { line, col } = lines.linePos(token.offset);
      return { segments: namedPart(segments), location: { line, column: col } };
    }
    const isMap =
      token.type === 'block-map' ||
      (token.type === 'flow-collection' && token.start.type === 'flow-map-start');
    token.items.forEach((item, index) => {
      const key = 'key' in item ? item.key : undefined;
      const segment: PathSegment = isMap && key ? keyText(key) : index;
      stack.push({ token: item.value, segments: [...segments, segment], depth: depth + 1 });
    });
  }
  return null;
}

/** The path up to its last mapping key: `values`, not `values[0][0][0]…` sixty times. */
function namedPart(segments: readonly PathSegment[]): readonly PathSegment[] {
  const lastKey = segments.findLastIndex((segment) => typeof segment === 'string');
  return segments.slice(0, lastKey >= 0 ? lastKey + 1 : 1);
}

function keyText(key: CST.Token): string {
  if (key.type === 'scalar') return key.source;
  if (key.type === 'double-quoted-scalar' || key.type === 'single-quoted-scalar') {
    return key.source.slice(1, -1);
  }
  return '?';
}

/**
 * What to say of a too-deep file, after its YAML path.
 *
 * @example
 * ```ts
 * tooDeepMessage(); // 'nested deeper than 64 levels of lists and mappings; flatten it'
 * ```
 */
export function tooDeepMessage(): string {
  return `nested deeper than ${MAX_YAML_DEPTH} levels of lists and mappings; flatten it`;
}
