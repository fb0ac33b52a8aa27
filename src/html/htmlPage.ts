import { escapeHtml, scriptJson } from './htmlText.js';

/** What `htmlPage` wraps: the title (the `<title>` and the `<h1>`), the page's style and its body. */
export interface HtmlPageParts {
  readonly title: string;
  /** Attributes of `<html>` after `lang="en"`, written as given (e.g. `' data-diagrams="rendered"'`). */
  readonly htmlAttributes?: string;
  /** A `<meta name="viewport">` for phones. */
  readonly viewport?: boolean;
  /** The CSS of the page's `<style>` element. */
  readonly style: string;
  /** What follows the `<h1>` inside `<body>`, as HTML; it ends with its own newline. */
  readonly body: string;
}

/**
 * The shell of a self-contained arena page: doctype, `<html lang="en">`, a
 * head with charset, title and style, and a body that opens with the title
 * as `<h1>`. The title is escaped; `style` and `body` are written as given.
 *
 * @example
 * ```ts
 * htmlPage({ title: 'a < b', style: '\nbody { margin: 0; }\n', body: '<p>hi</p>\n' });
 * // '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>a &lt; b</title>\n…<h1>a &lt; b</h1>\n<p>hi</p>\n</body>\n</html>\n'
 * ```
 */
export function htmlPage(page: HtmlPageParts): string {
  const title = escapeHtml(page.title);
  const viewport =
    page.viewport === true
      ? '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
      : '';
  return `<!doctype html>
<html lang="en"${page.htmlAttributes ?? ''}>
<head>
<meta charset="utf-8">
${viewport}<title>${title}</title>
<style>${page.style}</style>
</head>
<body>
<h1>${title}</h1>
${page.body}</body>
</html>
`;
}

/**
 * A `<script type="application/json">` element holding `value` (see
 * `scriptJson`): the page's data, for its own scripts and for tests to read.
 *
 * @example
 * ```ts
 * jsonScriptElement('sources', ['a</script>']);
 * // '<script type="application/json" id="sources">["a\\u003c/script>"]</script>'
 * ```
 */
export function jsonScriptElement(id: string, value: unknown): string {
  return `<script type="application/json" id="${escapeHtml(id)}">${scriptJson(value)}</script>`;
}
