import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A fenced block of a Markdown page: where it opens, its info string and its lines. */
export interface FencedBlock {
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** What follows the fence: `console`, `text illustrative`, `yaml`... */
  readonly info: string;
  /** The indentation of the fence (a block inside a list item), removed from `body`. */
  readonly indent: string;
  /** The lines between the fences, without the fence's indentation. */
  readonly body: readonly string[];
}

/** One `$ command` of a console block and the output shown under it. */
export interface ShownCommand {
  /** The 1-based line of the `$` in the page. */
  readonly line: number;
  /** The command as the page shows it, without `$ `. */
  readonly command: string;
  /** The expected output, one string, each line ending in a newline. */
  readonly expected: string;
}

/** Every fenced block of a Markdown page, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^([ \t]*)(```+|~~~+)(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const [, indent = '', fence = '```', info = ''] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const text = lines[end]!;
      if (text.trim() === fence) break;
      body.push(text.startsWith(indent) ? text.slice(indent.length) : text.trimStart());
    }
    blocks.push({ line: index + 1, info: info.trim(), indent, body });
    index = end;
  }
  return blocks;
}

/** The commands of a console block, each with the output lines under it. */
export function shownCommands(block: FencedBlock): ShownCommand[] {
  const commands: ShownCommand[] = [];
  let current: { line: number; command: string; output: string[] } | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const output = current.output.map((line) => `${line}\n`).join('');
    commands.push({ line: current.line, command: current.command, expected: output });
  };
  block.body.forEach((text, offset) => {
    if (text.startsWith('$ ')) {
      flush();
      current = { line: block.line + 1 + offset, command: text.slice(2), output: [] };
    } else if (current !== undefined) {
      current.output.push(text);
    }
  });
  flush();
  return commands;
}

/** Whether a block shows an `arena` command as a user types it. */
export function showsArenaCommand(block: FencedBlock): boolean {
  return block.body.some((line) => /^\$ .*\bnpx arena\b/.test(line));
}

/**
 * The masks a shown output may use where a value varies from run to run. Each
 * is named in the block as it stands; docs/contributing.md lists them.
 */
export const MASKS = {
  /** A run, sweep or evaluation run id: `hosting-capacity-20261201T085847-4d5b`. */
  '[RUN_ID]': '[a-z0-9][a-z0-9._-]*-\\d{8}T\\d{6}-[0-9a-f]{4}',
  /** A date or a time stamp: `2026-12-01`, `2026-12-01T09:15:16Z`, `2026-12-01 09:15:16.123`. */
  '[DATE]': '\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?Z?)?',
  /** A duration: `13 s`, `250ms`, `1.5 min`, `66.94` (a duration field in JSON). */
  '[DURATION]': '\\d+(?:\\.\\d+)?(?:\\s?(?:µs|ms|s|min|h))?',
  /** A size: `1962 bytes`, `1.2 MiB`, `197 MB`, `4096`. */
  '[BYTES]': '\\d+(?:\\.\\d+)?(?:\\s?(?:bytes|B|KiB|MiB|GiB|kB|KB|MB|GB))?',
} as const;

/** A regular expression's text matching `text` literally. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const maskToken = /\[RUN_ID\]|\[DATE\]|\[DURATION\]|\[BYTES\]|\[PATH\]|\[\.\.\]/g;

/**
 * The expected output as a regular expression: its masks as their patterns,
 * `[PATH]` as the folder the block ran in, `[..]` as the rest of a line, `...`
 * alone on a line as any number of lines, the rest literally. Each `[RUN_ID]`
 * is a capture group, so the ids a block printed can be read back.
 */
export function expectedPattern(expected: string, folder: string): RegExp {
  const lines = expected.split('\n');
  const trailing = lines.at(-1) === '';
  if (trailing) lines.pop();
  const parts = lines.map((line) => {
    if (line === '...') return { any: true, source: '' };
    let source = '';
    let last = 0;
    for (const match of line.matchAll(maskToken)) {
      source += literal(line.slice(last, match.index));
      const token = match[0];
      if (token === '[PATH]') source += literal(folder);
      else if (token === '[..]') source += '[^\\n]*';
      else if (token === '[RUN_ID]') source += `(${MASKS[token]})`;
      else source += `(?:${MASKS[token as keyof typeof MASKS]})`;
      last = match.index + token.length;
    }
    return { any: false, source: `${source}${literal(line.slice(last))}\\n` };
  });
  const source = parts.map((part) => (part.any ? '(?:[^\\n]*\\n)*?' : part.source)).join('');
  return new RegExp(`^${source}$`);
}

/**
 * Whether `actual` is what `expected` shows, and the run ids it printed where
 * the block shows `[RUN_ID]`.
 *
 * @example
 * ```ts
 * matchOutput('run [RUN_ID]: ok\n', 'run a-20261201T000000-00ff: ok\n', '/tmp/x');
 * // { matches: true, runIds: ['a-20261201T000000-00ff'] }
 * ```
 */
export function matchOutput(
  expected: string,
  actual: string,
  folder: string,
): { matches: boolean; runIds: string[] } {
  const match = expectedPattern(expected, folder).exec(actual);
  if (!match) return { matches: false, runIds: [] };
  return { matches: true, runIds: match.slice(1).filter((id) => id !== undefined) };
}

/**
 * The output as `ARENA_DOCS_UPDATE=1` writes it into a block: the folder as
 * `[PATH]`, ids, dates and durations masked; byte sizes only where the old
 * block masked them (`1962 bytes` is a fact of a shipped example).
 */
export function maskOutput(actual: string, folder: string, maskBytes: boolean): string {
  let text = actual.split(folder).join('[PATH]');
  text = text.replace(new RegExp(MASKS['[RUN_ID]'], 'g'), '[RUN_ID]');
  text = text.replace(
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?\b/g,
    '[DATE]',
  );
  text = text.replace(/\b\d+(?:\.\d+)?\s?(?:µs|ms|min)\b|\b\d+(?:\.\d+)? s\b/g, '[DURATION]');
  if (maskBytes) {
    text = text.replace(/\b\d+(?:\.\d+)?\s?(?:bytes|KiB|MiB|GiB|kB|KB|MB|GB)\b/g, '[BYTES]');
  }
  return text;
}

/**
 * The block's new expected output for `ARENA_DOCS_UPDATE=1`: the printed lines,
 * masked, aligned with the old block so that what still matches keeps its
 * masks and `[..]`, and a `...` line still stands for the lines it covered.
 *
 * @example
 * ```ts
 * updatedExpected('a\n...\nz [..]\n', 'a\nb\nc\ny\nz 1\n', '/tmp/x', false);
 * // 'a\n...\ny\nz [..]\n'
 * ```
 */
export function updatedExpected(
  expected: string,
  actual: string,
  folder: string,
  maskBytes: boolean,
): string {
  const shown = expected.replace(/\n$/, '').split('\n');
  const printed = actual.replace(/\n$/, '').split('\n');
  if (expected === '') return maskOutput(actual, folder, maskBytes);
  if (actual === '') return '';
  const patterns = shown.map((line) =>
    line === '...' ? null : expectedPattern(`${line}\n`, folder),
  );
  const matches = (i: number, j: number): boolean => patterns[i]?.test(`${printed[j]}\n`) ?? false;
  // cost[i][j]: the fewest lines changed to align shown[i..] with printed[j..]
  const cost: number[][] = Array.from({ length: shown.length + 1 }, () =>
    new Array<number>(printed.length + 1).fill(0),
  );
  for (let i = shown.length; i >= 0; i--) {
    for (let j = printed.length; j >= 0; j--) {
      if (i === shown.length) cost[i]![j] = printed.length - j;
      else if (shown[i] === '...') {
        cost[i]![j] = Math.min(cost[i + 1]![j]!, j < printed.length ? cost[i]![j + 1]! : Infinity);
      } else {
        let best = 1 + cost[i + 1]![j]!;
        if (j < printed.length) {
          best = Math.min(best, 1 + cost[i]![j + 1]!);
          if (matches(i, j)) best = Math.min(best, cost[i + 1]![j + 1]!);
        }
        cost[i]![j] = best;
      }
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < shown.length || j < printed.length) {
    if (i < shown.length && shown[i] === '...') {
      // end the wildcard where that costs no more; else it covers this printed line
      if (cost[i + 1]![j] === cost[i]![j]) {
        out.push('...');
        i++;
      } else {
        j++;
      }
      continue;
    }
    if (
      i < shown.length &&
      j < printed.length &&
      matches(i, j) &&
      cost[i]![j] === cost[i + 1]![j + 1]
    ) {
      out.push(shown[i]!);
      i++;
      j++;
    } else if (j < printed.length && (i === shown.length || cost[i]![j] === 1 + cost[i]![j + 1]!)) {
      out.push(maskOutput(printed[j]!, folder, maskBytes));
      j++;
    } else {
      i++;
    }
  }
  return `${out.join('\n')}\n`;
}

/** The lines of `expected` and `actual` as a short diff: `-` shown only, `+` printed only. */
export function lineDiff(expected: string, actual: string): string {
  const a = expected.replace(/\n$/, '').split('\n');
  const b = actual.replace(/\n$/, '').split('\n');
  const common: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] =
        a[i] === b[j]
          ? common[i + 1]![j + 1]! + 1
          : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) {
      out.push(`+ ${b[j]}`);
      j++;
    } else {
      out.push(`- ${a[i]}`);
      i++;
    }
  }
  // unchanged lines more than three away from a change are left out, as a unified diff does
  const near = out.map((_, index) =>
    out.slice(Math.max(0, index - 3), index + 4).some((line) => !line.startsWith('  ')),
  );
  const shown: string[] = [];
  let skipped = 0;
  out.forEach((line, index) => {
    if (near[index]) {
      if (skipped > 0) shown.push(`  (${skipped} unchanged lines)`);
      skipped = 0;
      shown.push(line);
    } else skipped++;
  });
  if (skipped > 0) shown.push(`  (${skipped} unchanged lines)`);
  return shown.join('\n');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page offers: its headings' slugs (repeats numbered as GitHub does) and `id`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const outsideBlocks = withoutFencedBlocks(markdown);
  for (const line of outsideBlocks.split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const count = seen.get(slug) ?? 0;
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
      seen.set(slug, count + 1);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

/** The page with its fenced blocks blanked (their lines kept, so line numbers hold). */
export function withoutFencedBlocks(markdown: string): string {
  const lines = markdown.split('\n');
  for (const block of fencedBlocks(markdown)) {
    for (let line = block.line - 1; line <= block.line + block.body.length; line++) {
      if (line < lines.length) lines[line] = '';
    }
  }
  return lines.join('\n');
}

/** A relative link of a page that leads nowhere: where it is and why. */
export interface BrokenLink {
  readonly line: number;
  readonly target: string;
  readonly problem: string;
}

/**
 * The relative links and images of a page (`[text](path#anchor)`, `![alt](path)`,
 * `<img src>`, `[name]: path`) whose file or anchor does not exist.
 */
export function brokenLinks(file: string, markdown: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const text = withoutFencedBlocks(markdown).replace(/`[^`\n]*`/g, (code) =>
    ' '.repeat(code.length),
  );
  text.split('\n').forEach((line, index) => {
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/<img\s[^>]*src="([^"]+)"/g)].map((m) => m[1]!),
      ...[...line.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      const problem = linkProblem(file, target);
      if (problem !== null) broken.push({ line: index + 1, target, problem });
    }
  });
  return broken;
}

function linkProblem(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [pathPart = '', anchor] = target.split('#', 2);
  const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURI(pathPart));
  if (!existsSync(resolved)) {
    return 'no such file (a page another branch writes has not landed yet, or the name is wrong)';
  }
  if (anchor === undefined || anchor === '') return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) {
    return `an anchor into something that is not a Markdown page`;
  }
  const anchors = anchorsOf(readFileSync(resolved, 'utf8'));
  return anchors.has(decodeURIComponent(anchor)) ? null : `no heading makes the anchor #${anchor}`;
}
