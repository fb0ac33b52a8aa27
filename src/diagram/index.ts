export { diagramHtmlPage, type PageDiagram } from './diagramHtml.js';
export { UnknownMachineError } from './errors.js';
export { type MachineName, machineNamed, machinesByName } from './machineCatalog.js';
export {
  type DiagramState,
  type DiagramStateKind,
  type DiagramTransition,
  machineGraph,
} from './machineGraph.js';
export { markdownDiagramBlock, markdownDiagrams } from './markdownDiagrams.js';
export { mermaidFromGraph, toMermaid } from './mermaid.js';
export { mermaidClientScript, mermaidScript } from './mermaidClient.js';
export { mermaidStateIds } from './mermaidIds.js';
export { type SvgOptions, svgFromGraph, svgFromLayout, toSvg } from './svg.js';
export { clipAtEntry, type Point, type Rect, smoothPath, svgNumber } from './svgGeometry.js';
export {
  type ArrowTransition,
  layoutMachineGraph,
  type MachineLayout,
  type StateBox,
  type StateText,
  stateText,
  type TransitionArrow,
} from './svgLayout.js';
export { escapeXml, svgFontFamily, type TextStyle, textWidth } from './svgText.js';
export { guardName, transitionEventLabel } from './transitionLabel.js';
