/** The font every SVG diagram asks for: Arial's metrics, which Helvetica and Liberation Sans share. */
export const svgFontFamily = 'Arial, Helvetica, Liberation Sans, sans-serif';

/** How a piece of diagram text is set: its size in px and whether it is bold. */
export interface TextStyle {
  readonly fontSize: number;
  readonly bold: boolean;
}

/** Advance widths of printable ASCII (`' '` to `'~'`) in thousandths of an em, Helvetica regular. */
const regularWidths = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** Advance widths of printable ASCII in thousandths of an em, Helvetica bold. */
const boldWidths = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
  611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
  278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/** Any character outside printable ASCII is taken as a full em wide, so its box is never too small. */
const unknownWidth = 1000;

/**
 * Rendering differs a little between fonts and browsers: every estimate is
 * made this much wider, so text stays inside the box drawn for it.
 */
const safetyFactor = 1.08;

/**
 * The estimated width in px of one line of text set in Arial (or a font with
 * its metrics) at the given size, without a browser: the sum of each
 * character's advance width from a table, plus a small margin.
 *
 * @example
 * ```ts
 * textWidth('running', { fontSize: 14, bold: false }); // 50.43…
 * textWidth('running', { fontSize: 14, bold: true }); // 56.28…
 * ```
 */
export function textWidth(text: string, style: TextStyle): number {
  const widths = style.bold ? boldWidths : regularWidths;
  let thousandths = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    thousandths += widths[code - 32] ?? unknownWidth;
  }
  return (thousandths / 1000) * style.fontSize * safetyFactor;
}

/** Any character outside XML 1.0's `Char` production (a lone surrogate among them, with the `u` flag). */
const notXmlCharacter = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const xmlEntities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text made safe in XML content and in quoted attribute values: `& < > " '`
 * become entities, and characters XML 1.0 forbids (control characters other
 * than tab, newline and carriage return, lone surrogates, U+FFFE and U+FFFF)
 * become U+FFFD, so the document always parses.
 *
 * @example
 * ```ts
 * escapeXml('done [a<b && "c"]'); // 'done [a&lt;b &amp;&amp; &quot;c&quot;]'
 * ```
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[&<>"']/g, (character) => xmlEntities[character]!)
    .replace(notXmlCharacter, '\uFFFD');
}
