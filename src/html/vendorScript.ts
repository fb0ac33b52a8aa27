import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { assertPeersInstalled, optionalPeers } from '../ports/runtime/optionalPeers.js';

const requireFromHere = createRequire(import.meta.url);

/**
 * The text of an installed package's browser bundle, made safe to inline in a
 * `<script>` element. `packageEntry` is a specifier Node can resolve (the
 * package's exported entry) and `bundleFile` the bundle's path relative to the
 * folder of that entry: packages such as chart.js do not export their UMD
 * bundle, so it is found beside the entry that is exported.
 *
 * @example
 * ```ts
 * const mermaid = readVendorScript('mermaid', 'mermaid.min.js');
 * const html = `<script>${mermaid}</script>`;
 * ```
 */
export function readVendorScript(packageEntry: string, bundleFile: string): string {
  const entry = requireFromHere.resolve(packageEntry);
  return inlineScriptText(readFileSync(path.join(path.dirname(entry), bundleFile), 'utf8'));
}

/**
 * A browser bundle as `readVendorScript` gives it, read on the first call and
 * kept for the rest of the process (bundles are megabytes: read once). The
 * package is an optional peer: a missing one fails with the line that names
 * `feature` and its `npm install`.
 *
 * @example
 * ```ts
 * const chartJsScript = vendorScriptOnce('chart.js', 'chart.umd.js', 'arena-runtime/report (HTML run reports)');
 * chartJsScript() === chartJsScript(); // true, and the file was read once
 * ```
 */
export function vendorScriptOnce(
  packageEntry: keyof typeof optionalPeers,
  bundleFile: string,
  feature: string,
): () => string {
  let source: string | undefined;
  return () => {
    if (source === undefined) {
      assertPeersInstalled([optionalPeers[packageEntry]], feature);
      source = readVendorScript(packageEntry, bundleFile);
    }
    return source;
  };
}

/**
 * JavaScript source made safe inside a `<script>` element: `</script` and
 * `<!--` would end or change the element, so their `<` is written as `\x3C`,
 * which means the same `<` inside the string and regular-expression literals
 * where bundles have them.
 *
 * @example
 * ```ts
 * inlineScriptText('const tag = "</script>";'); // 'const tag = "\\x3C/script>";'
 * ```
 */
export function inlineScriptText(source: string): string {
  return source.replace(/<(\/script|!--)/gi, '\\x3C$1');
}
