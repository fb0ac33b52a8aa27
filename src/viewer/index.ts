/**
 * arena's own inspector page, offline: a server on 127.0.0.1 fed by XState
 * inspection events (live) or a recorded trace (replayed), and a page
 * bundled at build time that draws each machine with `arena diagram`'s SVG
 * code. See docs/viewer.md.
 * @module
 */
export {
  checkedHistory,
  DEFAULT_VIEW_HISTORY,
  type LiveViewer,
  MAX_VIEW_HISTORY,
  startTraceViewer,
  startViewer,
  type Viewer,
  type ViewerOptions,
} from './startViewer.js';
export { ViewerOptionError, ViewerServerError } from './viewerErrors.js';
