/**
 * The CSS of a `.diagram` frame that holds a statechart's SVG at its own size
 * (its labels at the 12-16 px it was laid out with), scrolled when it is
 * larger than the page: shrunk to the page's width, a 2,491 px drawing has
 * labels of 5 px.
 *
 * @example
 * ```ts
 * htmlPage({ title, style: `${diagramFrameStyle}\nbody { margin: 0; }\n`, body });
 * ```
 */
export const diagramFrameStyle = `.diagram { overflow: auto; max-height: 90vh; border: 1px solid #e4e7eb; }
.diagram svg { display: block; max-width: none; }`;
