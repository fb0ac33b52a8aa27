import { escapeHtml, scriptJson } from './htmlText.js';
import { mermaidClientScript } from './mermaidClient.js';
import { mermaidScript } from './vendorScript.js';

/** One diagram of a page: a heading and its Mermaid text. */
export interface PageDiagram {
  readonly heading: string;
  readonly mermaid: string;
}

/**
 * A self-contained HTML page that draws Mermaid diagrams in the browser, with
 * Mermaid's bundle inlined: it needs no network and no server. Each diagram's
 * Mermaid text is also kept under it, in a `<details>` element.
 *
 * @example
 * ```ts
 * const html = diagramHtmlPage({
 *   title: 'arena: controller',
 *   diagrams: [{ heading: 'simulationController', mermaid: toMermaid(simulationControllerMachine) }],
 * });
 * writeFileSync('controller.html', html); // open it in any browser, offline
 * ```
 */
export function diagramHtmlPage(page: {
  readonly title: string;
  readonly diagrams: readonly PageDiagram[];
}): string {
  const sections = page.diagrams
    .map(
      (diagram, index) => `<section>
<h2>${escapeHtml(diagram.heading)}</h2>
<div class="diagram" data-diagram="${index}"></div>
<details><summary>Mermaid source</summary><pre>${escapeHtml(diagram.mermaid)}</pre></details>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2933; }
.diagram svg { max-width: 100%; height: auto; }
pre { background: #f5f7fa; padding: 0.75rem; overflow-x: auto; }
</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
${sections}
<script type="application/json" id="diagram-sources">${scriptJson(page.diagrams.map((diagram) => diagram.mermaid))}</script>
<script>${mermaidScript()}</script>
<script>${mermaidClientScript('diagram-sources')}</script>
</body>
</html>
`;
}
