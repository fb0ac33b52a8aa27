import {
  type Alias,
  type Document,
  isAlias,
  isCollection,
  isPair,
  isScalar,
  type Node,
} from 'yaml';
import { YamlAliasLimitError, YamlSyntaxError } from './yamlErrors.js';

/**
 * The `yaml` package's default `maxAliasCount`: how many nodes one alias may
 * expand to, in units of the aliased node's size, before parsing stops.
 *
 * @example
 * ```ts
 * parseYamlWithKeyOrder(text, { maxAliasCount: DEFAULT_MAX_ALIAS_COUNT * 10 }); // a larger budget
 * ```
 */
export const DEFAULT_MAX_ALIAS_COUNT = 100;

/** How often an anchor is used and how many aliased nodes it holds (the `yaml` package's counts). */
interface AnchorUse {
  count: number;
  aliasCount: number;
}

type Position = (node: unknown) => { line: number; col: number };

/**
 * Resolve every alias of `document` to the node it names, in one pass in
 * document order, and enforce `maxAliasCount` the way `yaml` 2 does in
 * `toJS`: an anchor starts at one use and each alias adds one; an alias fails
 * when its anchor's uses times the anchor's own aliased-node count pass the
 * limit. A negative limit turns the check off; 0 forbids aliases.
 *
 * One difference from `yaml`, because arena copies what an alias names instead
 * of sharing it: an empty collection counts as one node, so a bomb of empty
 * lists is caught too. Whatever this accepts, `yaml` accepts.
 *
 * @throws {YamlAliasLimitError} at the first alias over the limit.
 * @throws {YamlSyntaxError} for an alias with no anchor before it.
 * @example
 * ```ts
 * const document = parseDocument('a: &x 1\nb: *x\n');
 * resolveAliases(document, 100, position).size; // 1
 * ```
 */
export function resolveAliases(
  document: Document,
  maxAliasCount: number,
  position: Position,
): ReadonlyMap<Alias, Node> {
  const targets = new Map<Alias, Node>();
  const latestAnchor = new Map<string, Node>();
  const uses = new Map<Node, AnchorUse>();

  const weight = (node: unknown): number => {
    if (isAlias(node)) {
      const target = targets.get(node);
      const use = target === undefined ? undefined : uses.get(target);
      return use === undefined ? 0 : use.count * use.aliasCount;
    }
    if (isPair(node)) return Math.max(weight(node.key), weight(node.value));
    if (!isCollection(node)) return 1;
    let heaviest = 1;
    for (const item of node.items) heaviest = Math.max(heaviest, weight(item));
    return heaviest;
  };

  const visit = (node: unknown): void => {
    if (isAlias(node)) {
      const target = latestAnchor.get(node.source);
      if (target === undefined) {
        const { line, col } = position(node);
        throw new YamlSyntaxError(`unresolved alias *${node.source}`, line, col);
      }
      targets.set(node, target);
      if (maxAliasCount < 0) return;
      const use = uses.get(target) as AnchorUse;
      use.count += 1;
      if (use.aliasCount === 0) use.aliasCount = weight(target);
      if (use.count * use.aliasCount > maxAliasCount) {
        const counts = { uses: use.count, held: use.aliasCount };
        throw new YamlAliasLimitError(node.source, counts, maxAliasCount, position(node));
      }
      return;
    }
    if ((isScalar(node) || isCollection(node)) && node.anchor) {
      latestAnchor.set(node.anchor, node);
      uses.set(node, { count: 1, aliasCount: 0 });
    }
    if (!isCollection(node)) return;
    for (const item of node.items) {
      if (isPair(item)) {
        visit(item.key);
        visit(item.value);
      } else {
        visit(item);
      }
    }
  };

  visit(document.contents);
  return targets;
}
