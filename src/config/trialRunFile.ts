import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { parsePointer } from '../domain/definition/pointer.js';
import type { TrialParameters } from '../domain/sweep/types.js';
import type { ConfigIssue } from './configIssue.js';
import { SweepFileError } from './sweepFile.js';

/**
 * A trial's run file: the base run file's text with each parameter's value
 * set at its pointer (comments and key order kept). A pointer must name a
 * value the base file has: a missing one is a `SweepFileError` at
 * `parameters[i].pointer`, naming the deepest part of it that exists.
 *
 * @example
 * ```ts
 * trialRunFileText('uid: a\nseed: 3\n', [{ pointer: '/seed', value: 7 }], { path: 'sweep.yaml' });
 * // 'uid: a\nseed: 7\n'
 * ```
 */
export function trialRunFileText(
  baseText: string,
  parameters: TrialParameters,
  options: { readonly path: string },
): string {
  const document = parseDocument(baseText);
  const issues: ConfigIssue[] = [];
  for (const [index, { pointer, value }] of parameters.entries()) {
    const tokens = parsePointer(pointer);
    let node: unknown = document.contents;
    let found = '';
    for (const [depth, token] of tokens.entries()) {
      const last = depth === tokens.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((item) =>
          isScalar(item.key) ? String(item.key.value) === token : String(item.key) === token,
        );
        if (pair === undefined) break;
        if (last) {
          pair.value = document.createNode(value);
          found = pointer;
          break;
        }
        node = pair.value;
      } else if (isSeq(node) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.items.length) {
        if (last) {
          node.items[Number(token)] = document.createNode(value);
          found = pointer;
          break;
        }
        node = node.items[Number(token)];
      } else {
        break;
      }
      found = `${found}/${token}`;
    }
    if (found !== pointer) {
      issues.push({
        path: `parameters[${index}].pointer`,
        message: `the run file has no value at ${pointer} (it has ${found === '' ? 'only the top level' : found})`,
        location: null,
      });
    }
  }
  if (issues.length > 0) throw new SweepFileError(options.path, issues);
  return document.toString();
}
