/** The comment that names the machine of the Mermaid block right after it. */
const blockPattern = /<!-- arena diagram ([a-z][a-z-]*) -->\n```mermaid\n([\s\S]*?)```/g;

/**
 * The Mermaid blocks of a Markdown document written by
 * `scripts/docs-machines.ts`, by machine name: each block is a ```` ```mermaid ````
 * fence right after a `<!-- arena diagram <name> -->` comment.
 *
 * @example
 * ```ts
 * markdownDiagrams('<!-- arena diagram judge -->\n```mermaid\nstateDiagram-v2\n```\n');
 * // Map { 'judge' => 'stateDiagram-v2\n' }
 * ```
 */
export function markdownDiagrams(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(blockPattern)) blocks.set(match[1]!, match[2]!);
  return blocks;
}

/**
 * A Mermaid block that `markdownDiagrams` reads back as `mermaid` under `name`.
 *
 * @example
 * ```ts
 * markdownDiagramBlock('judge', 'stateDiagram-v2\n');
 * // '<!-- arena diagram judge -->\n```mermaid\nstateDiagram-v2\n```'
 * ```
 */
export function markdownDiagramBlock(name: string, mermaid: string): string {
  const text = mermaid.endsWith('\n') ? mermaid : `${mermaid}\n`;
  return `<!-- arena diagram ${name} -->\n\`\`\`mermaid\n${text}\`\`\``;
}
