/** One element of a parsed XML document, with its attributes and text decoded. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
  /** The element's own text (not its children's), entities decoded. */
  text: string;
}

const namePattern = '[A-Za-z_:][-A-Za-z0-9_:.]*';
const tagPattern = new RegExp(
  `^<(/?)(${namePattern})((?:\\s+${namePattern}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`,
);
const attributePattern = new RegExp(`(${namePattern})\\s*=\\s*"([^"<]*)"`, 'g');
const entityPattern = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9A-Fa-f]+));/g;
const namedEntities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/**
 * Parse the subset of XML a generated SVG uses (elements, double-quoted
 * attributes, text, the five named entities and character references; no
 * declarations, comments, CDATA or processing instructions) and throw at the
 * first thing that is not well-formed: an unclosed or mismatched tag, a bad
 * entity or stray `&`, a `<` in text, a duplicate attribute, text outside the
 * single root element.
 */
export function parseXml(document: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let offset = 0;
  while (offset < document.length) {
    const rest = document.slice(offset);
    if (rest.startsWith('<')) {
      const match = tagPattern.exec(rest);
      if (match === null)
        throw new Error(`malformed tag at offset ${offset}: ${rest.slice(0, 40)}`);
      const [whole, closing, name, attributeText, selfClosing] = match;
      if (closing === '/') {
        const open = stack.pop();
        if (open?.name !== name) {
          throw new Error(`</${name}> at offset ${offset} closes <${open?.name ?? 'nothing'}>`);
        }
      } else {
        if (root !== undefined && stack.length === 0) {
          throw new Error(`second root element <${name}> at offset ${offset}`);
        }
        const element: XmlElement = {
          name: name!,
          attributes: parseAttributes(attributeText ?? '', offset),
          children: [],
          text: '',
        };
        stack.at(-1)?.children.push(element);
        root ??= element;
        if (selfClosing !== '/') stack.push(element);
      }
      offset += whole.length;
      continue;
    }
    const end = rest.indexOf('<');
    const text = end === -1 ? rest : rest.slice(0, end);
    const current = stack.at(-1);
    if (current === undefined && text.trim() !== '') {
      throw new Error(`text outside the root element at offset ${offset}`);
    }
    if (current !== undefined) current.text += decode(text, offset);
    offset += text.length;
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (root === undefined) throw new Error('no root element');
  return root;
}

/** Every element of a tree, depth first, the root included. */
export function allElements(element: XmlElement): XmlElement[] {
  return [element, ...element.children.flatMap(allElements)];
}

function parseAttributes(text: string, offset: number): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, value] of text.matchAll(attributePattern)) {
    if (attributes.has(name!)) throw new Error(`duplicate attribute ${name} at offset ${offset}`);
    attributes.set(name!, decode(value!, offset));
  }
  return attributes;
}

function decode(text: string, offset: number): string {
  const stray = text.replace(entityPattern, '').indexOf('&');
  if (stray !== -1) throw new Error(`a '&' that starts no entity near offset ${offset}`);
  return text.replace(entityPattern, (_entity, named: string | undefined, decimal, hex) => {
    if (named !== undefined) return namedEntities[named]!;
    return String.fromCodePoint(Number.parseInt(decimal ?? hex, decimal === undefined ? 16 : 10));
  });
}
