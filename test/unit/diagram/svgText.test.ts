import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { escapeXml, textWidth } from '../../../src/diagram/svgText.js';
import { parseXml } from './svgXml.js';

const regular = { fontSize: 14, bold: false };
const bold = { fontSize: 14, bold: true };

describe('textWidth', () => {
  it('adds up Helvetica advance widths, with a margin', () => {
    // i (222) is narrow and m (833) wide; 1000 units are one em of 14 px.
    expect(textWidth('i', regular)).toBeCloseTo(0.222 * 14 * 1.08);
    expect(textWidth('m', regular)).toBeCloseTo(0.833 * 14 * 1.08);
    expect(textWidth('', regular)).toBe(0);
  });

  it('gets wider with bold type and a larger size', () => {
    expect(textWidth('running', bold)).toBeGreaterThan(textWidth('running', regular));
    expect(textWidth('running', { fontSize: 28, bold: false })).toBeCloseTo(
      2 * textWidth('running', regular),
    );
  });

  it('takes a character outside printable ASCII as a full em', () => {
    expect(textWidth('é', regular)).toBeCloseTo(14 * 1.08);
    expect(textWidth('😀', regular)).toBeCloseTo(14 * 1.08);
  });
});

describe('escapeXml', () => {
  it('writes the five XML special characters as entities', () => {
    expect(escapeXml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&apos;y&apos;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('replaces characters XML forbids with U+FFFD', () => {
    expect(escapeXml('a\u0001b\uD800c\uFFFEd')).toBe('a\uFFFDb\uFFFDc\uFFFDd');
    expect(escapeXml('tab\there\nnew 😀')).toBe('tab\there\nnew 😀');
  });

  test.prop([fc.string({ unit: 'binary' })], { numRuns: 300 })(
    'always gives text that parses, in an element and in an attribute',
    (text) => {
      const escaped = escapeXml(text);
      const root = parseXml(`<svg label="${escaped}"><text>${escaped}</text></svg>`);
      expect(root.children[0]?.text).toBe(root.attributes.get('label'));
    },
  );

  test.prop([fc.string({ unit: 'grapheme' })], { numRuns: 300 })(
    'gives back the same text once parsed, when every character is allowed in XML',
    (text) => {
      const root = parseXml(`<svg><text>${escapeXml(text)}</text></svg>`);
      expect(root.children[0]?.text).toBe(
        text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD'),
      );
    },
  );
});
