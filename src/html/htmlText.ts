const htmlEntities: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made safe anywhere in HTML content or a quoted attribute value.
 *
 * @example
 * ```ts
 * escapeHtml('<img src=x onerror="alert(1)">');
 * // '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEntities[character]!);
}

/**
 * A value as JSON text for a `<script type="application/json">` element: every
 * `<` is written `\u003c` (and U+2028, U+2029 escaped), so no text in the data
 * can close the element, and `JSON.parse` of the element's text gives the value
 * back.
 *
 * @example
 * ```ts
 * scriptJson({ name: '</script><script>alert(1)</script>' });
 * // '{"name":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}'
 * ```
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
