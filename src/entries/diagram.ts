/**
 * `arena-runtime/diagram`: arena's machines drawn as state diagrams (Mermaid
 * text, SVG, an HTML page, Markdown blocks).
 *
 * @example
 * ```ts
 * import { machineNamed, toMermaid } from 'arena-runtime/diagram';
 * toMermaid(machineNamed('judge')).split('\n')[0]; // 'stateDiagram-v2'
 * ```
 */

export type {
  DiagramState,
  DiagramStateKind,
  DiagramTransition,
  MachineName,
  PageDiagram,
} from '../diagram/index.js';
export {
  diagramHtmlPage,
  machineGraph,
  machineNamed,
  machinesByName,
  markdownDiagramBlock,
  markdownDiagrams,
  mermaidFromGraph,
  svgFromGraph,
  toMermaid,
  toSvg,
  UnknownMachineError,
} from '../diagram/index.js';
