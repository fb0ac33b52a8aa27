/**
 * The first key given twice in the object at top-level key `field` of valid
 * JSON text, or `null`. `JSON.parse` keeps the last of two equal keys without a
 * word; a pairwise case that names one system twice must be refused instead.
 *
 * @example
 * ```ts
 * repeatedKeyIn('{"candidates":{"a":"x","b":"y","a":"z"}}', 'candidates'); // 'a'
 * repeatedKeyIn('{"candidates":{"a":"x","b":"y"}}', 'candidates'); // null
 * ```
 */
export function repeatedKeyIn(text: string, field: string): string | null {
  let depth = 0;
  let inField = false;
  let fieldDepth = -1;
  let pendingKey: string | null = null;
  const seen = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      const value = JSON.parse(text.slice(i, end + 1)) as string;
      i = end;
      if (nextNonSpace(text, i + 1) === ':') {
        if (depth === 1) pendingKey = value;
        else if (inField && depth === fieldDepth) {
          if (seen.has(value)) return value;
          seen.add(value);
        }
      }
      continue;
    }
    if (char === '{' || char === '[') {
      depth++;
      if (pendingKey === field && depth === 2 && char === '{') {
        inField = true;
        fieldDepth = depth;
      }
      pendingKey = null;
    } else if (char === '}' || char === ']') {
      if (inField && depth === fieldDepth) return null;
      depth--;
    }
  }
  return null;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

function nextNonSpace(text: string, from: number): string | undefined {
  for (let i = from; i < text.length; i++) {
    const char = text[i]!;
    if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return char;
  }
  return undefined;
}
