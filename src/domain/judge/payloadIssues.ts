import type { z } from 'zod';

/** What each field of the verdict must be, in the words a detail line uses. */
const FIELD_RULES: Readonly<Record<string, string>> = {
  status: 'passed, failed or skipped',
  score: 'a finite number or null',
  label: 'a string of 1 to 128 characters, or null',
  explanation: 'a string of at most 8192 characters, or null',
  evidence: 'a list of at most 64 strings (absent is none)',
};

/** What one evidence value must be (the schema's refinement says it in these words too). */
export const EVIDENCE_VALUE_RULE = 'a non-empty string of at most 8192 UTF-8 bytes';
const FIELDS = Object.keys(FIELD_RULES).join(', ');
const MOST_ISSUES = 3;
/** A status this short and made of letters is a near miss worth showing (`"pass"`); other text is never quoted. */
const QUOTABLE_STATUS = /^[A-Za-z_ -]{1,16}$/;

/**
 * One line saying what is wrong with a rejected verdict: each field, its rule
 * and what came instead (`status: expected passed, failed or skipped, got
 * "pass"`). Model text is described by type and size, never repeated, except a
 * short one-word `status`; unexpected keys are counted, not named.
 *
 * @example
 * ```ts
 * payloadIssuesLine({ status: 'pass', score: 1 }, issues);
 * // 'status: expected passed, failed or skipped, got "pass"'
 * ```
 */
export function payloadIssuesLine(
  parsed: unknown,
  issues: readonly z.core.$ZodIssue[],
  rules: Readonly<Record<string, string>> = FIELD_RULES,
): string {
  const lines = new Map<string, string>();
  for (const issue of issues) {
    const where = issue.path.map(String).join('.') || '(root)';
    if (!lines.has(where)) lines.set(where, issueLine(where, parsed, issue, rules));
  }
  const shown = [...lines.values()].slice(0, MOST_ISSUES);
  const more = lines.size - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

function issueLine(
  where: string,
  parsed: unknown,
  issue: z.core.$ZodIssue,
  rules: Readonly<Record<string, string>>,
): string {
  const fields = rules === FIELD_RULES ? FIELDS : Object.keys(rules).join(', ');
  if (issue.code === 'unrecognized_keys') {
    const count = issue.keys.length;
    return `${where}: ${count} unexpected key${count === 1 ? '' : 's'} (expected only ${fields})`;
  }
  const rule =
    issue.code === 'custom' ? issue.message : ruleAt(issue.path.map(String), rules, fields);
  const value = valueAt(parsed, issue.path);
  if (value === undefined) return `${where}: missing, expected ${rule}`;
  const quotable = issue.path[0] === 'status' || issue.path[0] === 'winner';
  return `${where}: expected ${rule}, got ${describeValue(value, quotable)}`;
}

function ruleAt(
  path: readonly string[],
  rules: Readonly<Record<string, string>>,
  fields: string,
): string {
  if (path.length === 0) return `a JSON object with ${fields}`;
  if (path[0] === 'evidence' && path.length > 1) return EVIDENCE_VALUE_RULE;
  return rules[path[0]!] ?? 'nothing here';
}

function valueAt(parsed: unknown, path: readonly PropertyKey[]): unknown {
  let value = parsed;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A value as a detail names it: its type and size, never its text (but a near-miss status). */
function describeValue(value: unknown, isStatus: boolean): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (isStatus && QUOTABLE_STATUS.test(value)) return JSON.stringify(value);
    const length = [...value].length;
    return length === 0
      ? 'an empty string'
      : `a string of ${length} character${length === 1 ? '' : 's'}`;
  }
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  return 'an object';
}
