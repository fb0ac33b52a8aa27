/**
 * A count with its noun, singular for one: what every line arena prints says
 * `1 case`, `2 cases` with.
 *
 * @example
 * ```ts
 * counted(1, 'case'); // '1 case'
 * counted(3, 'malformed line'); // '3 malformed lines'
 * counted(0, 'problem'); // '0 problems'
 * ```
 */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
