import type { Page } from 'playwright-core';

/** A box in CSS pixels, with the text it holds. */
export interface TextBox {
  readonly text: string;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/**
 * The characters of a page's visible text (HTML and inline SVG) that paint no
 * ink in the font their element names: each drawn alone on a canvas in that
 * element's computed font, a glyph that none of the fonts has is blank. Listed
 * as `'→' (U+2192) in <font>`, so `[]` means every glyph renders.
 *
 * @example
 * ```ts
 * expect(await fontGlyphsMissing(page)).toEqual([]);
 * ```
 */
export function fontGlyphsMissing(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the page's DOM, typed by no DOM library here.
    const window = globalThis as any;
    const { document } = window;
    await document.fonts.ready;
    const walker = document.createTreeWalker(document.body, 4);
    const byFont = new Map<string, Set<string>>();
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent === null || ['SCRIPT', 'STYLE'].includes(parent.tagName)) continue;
      const style = window.getComputedStyle(parent);
      const font = `${style.fontStyle} ${style.fontWeight} 32px ${style.fontFamily}`;
      const characters = byFont.get(font) ?? new Set<string>();
      for (const character of node.textContent ?? '') {
        if (character.trim() !== '') characters.add(character);
      }
      byFont.set(font, characters);
    }
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const missing: string[] = [];
    for (const [font, characters] of byFont) {
      for (const character of characters) {
        context.clearRect(0, 0, 64, 64);
        context.font = font;
        context.fillText(character, 8, 44);
        const { data } = context.getImageData(0, 0, 64, 64);
        let ink = 0;
        for (let alpha = 3; alpha < data.length; alpha += 4) if (data[alpha] !== 0) ink += 1;
        const code = character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
        // A full stop and similar marks paint a few pixels; a missing glyph paints none.
        if (ink === 0) missing.push(`'${character}' (U+${code}) in ${font}`);
      }
    }
    return missing;
  });
}

/**
 * The smallest size, in CSS pixels on the screen, at which the page draws a
 * label of the inline SVG matched by `selector`: each `<text>`'s font size
 * times the scale the page shows the drawing at (its width on the page over
 * its `viewBox` width).
 *
 * @example
 * ```ts
 * expect(await smallestSvgLabel(page, '.diagram svg')).toBeGreaterThanOrEqual(11);
 * ```
 */
export function smallestSvgLabel(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((element) => {
    // biome-ignore lint/suspicious/noExplicitAny: an SVG element, typed by no DOM library here.
    const svg = element as any;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll('text')].map(
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      (text: any) => Number.parseFloat(text.getAttribute('font-size')) * scale,
    );
    return Math.min(...sizes);
  });
}
