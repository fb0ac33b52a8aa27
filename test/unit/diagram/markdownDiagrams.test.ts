import { describe, expect, it } from 'vitest';
import { markdownDiagramBlock, markdownDiagrams } from '../../../src/diagram/markdownDiagrams.js';

describe('markdownDiagrams', () => {
  it('reads back the blocks markdownDiagramBlock writes, by name', () => {
    const markdown = [
      '# machines',
      markdownDiagramBlock('judge', 'stateDiagram-v2\n  [*] --> a\n'),
      'prose between',
      markdownDiagramBlock('meta-turn', 'stateDiagram-v2\n  [*] --> b'),
    ].join('\n\n');
    expect([...markdownDiagrams(markdown)]).toEqual([
      ['judge', 'stateDiagram-v2\n  [*] --> a\n'],
      ['meta-turn', 'stateDiagram-v2\n  [*] --> b\n'],
    ]);
  });

  it('ignores Mermaid blocks without the naming comment', () => {
    expect(markdownDiagrams('```mermaid\nstateDiagram-v2\n```\n').size).toBe(0);
  });
});
