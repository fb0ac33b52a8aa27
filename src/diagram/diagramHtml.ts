import { diagramFrameStyle } from '../html/diagramFrame.js';
import { htmlPage, jsonScriptElement } from '../html/htmlPage.js';
import { escapeHtml } from '../html/htmlText.js';
import { mermaidClientScript, mermaidScript } from './mermaidClient.js';

const style = `
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2933; }
${diagramFrameStyle}
pre { background: #f5f7fa; padding: 0.75rem; overflow-x: auto; }
`;

/** One diagram of a page: a heading (shown when the page has several), its Mermaid text, and optionally its drawing as SVG. */
export interface PageDiagram {
  readonly heading: string;
  readonly mermaid: string;
  /** A drawing made without a browser (`toSvg`): shown as it is instead of Mermaid's rendering. */
  readonly svg?: string;
}

/**
 * A self-contained HTML page of diagrams: it needs no network and no server.
 * A diagram with `svg` is shown as that inline SVG (laid out and measured by
 * arena, so no label is cut off); any other is drawn by Mermaid in the
 * browser, with Mermaid's bundle inlined only then. Each diagram's Mermaid
 * text is also kept under it, in a `<details>` element. An SVG is shown at its
 * own size in a frame that scrolls, so its labels stay as legible as it drew
 * them. A page of several diagrams gives each its heading; a page of one has
 * only its title. When every diagram is drawn, `<html data-diagrams="rendered">`
 * is set.
 *
 * @example
 * ```ts
 * const html = diagramHtmlPage({
 *   title: 'arena: controller',
 *   diagrams: [{
 *     heading: 'simulationController',
 *     mermaid: toMermaid(simulationControllerMachine),
 *     svg: toSvg(simulationControllerMachine),
 *   }],
 * });
 * writeFileSync('controller.html', html); // open it in any browser, offline
 * ```
 */
export function diagramHtmlPage(page: {
  readonly title: string;
  readonly diagrams: readonly PageDiagram[];
}): string {
  // Mermaid draws only the diagrams without a drawing of their own, numbered among themselves.
  const sources: string[] = [];
  const sections = page.diagrams
    .map((diagram) => {
      let body = `<div class="diagram">${diagram.svg}</div>`;
      if (diagram.svg === undefined) {
        sources.push(diagram.mermaid);
        body = `<div class="diagram" data-diagram="${sources.length - 1}"></div>`;
      }
      // The page's own title heads a page of one diagram: no second heading saying the same.
      const heading = page.diagrams.length > 1 ? `<h2>${escapeHtml(diagram.heading)}</h2>\n` : '';
      return `<section>
${heading}${body}
<details><summary>Mermaid source</summary><pre>${escapeHtml(diagram.mermaid)}</pre></details>
</section>`;
    })
    .join('\n');
  const scripts =
    sources.length === 0
      ? ''
      : `${jsonScriptElement('diagram-sources', sources)}
<script>${mermaidScript()}</script>
<script>${mermaidClientScript('diagram-sources')}</script>
`;
  return htmlPage({
    title: page.title,
    htmlAttributes: sources.length === 0 ? ' data-diagrams="rendered"' : '',
    style,
    body: `${sections}\n${scripts}`,
  });
}
