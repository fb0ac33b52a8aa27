import { vendorScriptOnce } from '../html/vendorScript.js';

/**
 * The browser code that draws Mermaid diagrams in an arena page. The page
 * holds the diagram sources as a JSON list in the `<script
 * type="application/json">` element with id `sourcesElementId`, and one empty
 * element `data-diagram="<index>"` per source. Each diagram is rendered with
 * Mermaid's strict security level; one that fails shows its error in its place
 * and on the console. When all are done, `<html data-diagrams="rendered">` is
 * set, so a test (or a person) can tell a finished page from a loading one.
 * Needs Mermaid's bundle (see `mermaidScript`) earlier in the page.
 *
 * @example
 * ```ts
 * const html = `<script>${mermaidScript()}</script><script>${mermaidClientScript('diagrams')}</script>`;
 * ```
 */
export function mermaidClientScript(sourcesElementId: string): string {
  return `(async () => {
  const sources = JSON.parse(document.getElementById(${JSON.stringify(sourcesElementId)}).textContent);
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral' });
  for (const [index, source] of sources.entries()) {
    const target = document.querySelector('[data-diagram="' + index + '"]');
    try {
      const { svg } = await mermaid.render('mermaid-diagram-' + index, source);
      target.innerHTML = svg;
    } catch (error) {
      target.textContent = 'This diagram could not be drawn: ' + error;
      console.error('diagram ' + index + ' could not be drawn:', error);
    }
  }
  document.documentElement.dataset.diagrams = 'rendered';
})();`;
}

/**
 * Mermaid's browser bundle (`mermaid/dist/mermaid.min.js`), ready to inline,
 * read once per process.
 *
 * @example
 * ```ts
 * mermaidScript().length > 1_000_000; // true
 * ```
 */
export const mermaidScript: () => string = vendorScriptOnce(
  'mermaid',
  'mermaid.min.js',
  'arena-runtime/diagram (HTML diagram pages)',
);
