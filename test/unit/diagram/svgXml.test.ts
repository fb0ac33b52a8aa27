import { describe, expect, it } from 'vitest';
import { allElements, parseXml } from './svgXml.js';

describe('parseXml, the well-formedness checker the SVG tests use', () => {
  it('reads elements, attributes and decoded text', () => {
    const root = parseXml(
      '<svg a="1 &amp; 2"><text x="0">a &lt;b&gt; &#38; &#x26;</text><g/></svg>\n',
    );
    expect(root.name).toBe('svg');
    expect(root.attributes.get('a')).toBe('1 & 2');
    expect(allElements(root).map((element) => element.name)).toEqual(['svg', 'text', 'g']);
    expect(root.children[0]?.text).toBe('a <b> & &');
  });

  it.each([
    ['an unclosed element', '<svg><g></svg>'],
    ['a mismatched end tag', '<svg><g></text></svg>'],
    ['a stray ampersand', '<svg><text>a & b</text></svg>'],
    ['an unknown entity', '<svg><text>&nbsp;</text></svg>'],
    ['a < in an attribute', '<svg a="<"></svg>'],
    ['an unquoted attribute', '<svg a=1></svg>'],
    ['a duplicate attribute', '<svg a="1" a="2"></svg>'],
    ['two root elements', '<svg></svg><svg></svg>'],
    ['text after the root', '<svg></svg>tail'],
    ['no element at all', '   '],
  ])('rejects %s', (_problem, document) => {
    expect(() => parseXml(document)).toThrow();
  });
});
