import { describe, expect, it } from 'vitest';
import { diagramHtmlPage } from '../../../src/diagram/diagramHtml.js';

const svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>judge</title></svg>';

describe('diagramHtmlPage', () => {
  it('shows a diagram that has a drawing as that inline SVG, marked drawn, without Mermaid', () => {
    const html = diagramHtmlPage({
      title: 'arena: judge',
      diagrams: [{ heading: 'judge', mermaid: 'stateDiagram-v2\n  [*] --> a\n', svg }],
    });
    expect(html).toContain(`<div class="diagram">${svg}</div>`);
    expect(html).toContain('<html lang="en" data-diagrams="rendered">');
    expect(html).not.toContain('globalThis["mermaid"]');
    expect(html).not.toContain('id="diagram-sources"');
    expect(html).toContain('<pre>stateDiagram-v2\n  [*] --&gt; a\n</pre>');
  });

  it('leaves only the diagrams without a drawing to Mermaid, numbered among themselves', () => {
    const html = diagramHtmlPage({
      title: 'mixed',
      diagrams: [
        { heading: 'drawn', mermaid: 'stateDiagram-v2\n  [*] --> a\n', svg },
        { heading: 'mermaid', mermaid: 'stateDiagram-v2\n  [*] --> b\n' },
      ],
    });
    expect(html).toContain('<div class="diagram" data-diagram="0"></div>');
    expect(html).not.toContain('data-diagram="1"');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(
      '<script type="application/json" id="diagram-sources">["stateDiagram-v2\\n  [*] --> b\\n"]</script>',
    );
    expect(html).toContain('globalThis["mermaid"]');
  });
});
