import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  fencedBlocks,
  githubSlug,
  lineDiff,
  maskOutput,
  matchOutput,
  shownCommands,
  updatedExpected,
} from '../../support/docBlocks.js';

const folder = '/tmp/arena-docs-abc123';

describe('console blocks', () => {
  it('reads each $ command of a block with the output under it and its line', () => {
    const page = 'intro\n\n```console\n$ npx arena a\none\ntwo\n$ npx arena b\n```\n';
    const [block] = fencedBlocks(page);
    expect(block?.info).toBe('console');
    expect(shownCommands(block!)).toEqual([
      { line: 4, command: 'npx arena a', expected: 'one\ntwo\n' },
      { line: 7, command: 'npx arena b', expected: '' },
    ]);
  });

  it('reads a block indented in a list item without its indentation', () => {
    const [block] = fencedBlocks('- item\n\n  ```text illustrative\n  $ x\n  y\n  ```\n');
    expect(block).toMatchObject({ info: 'text illustrative', body: ['$ x', 'y'], line: 3 });
  });
});

describe('the masks', () => {
  it('matches a masked value and nothing else on its line', () => {
    const shown = 'run [RUN_ID]: succeeded at [DATE] in [DURATION]\n';
    const printed = 'run study-20261201T085847-4d5b: succeeded at 2026-12-01T08:58:47Z in 1.2 s\n';
    expect(matchOutput(shown, printed, folder)).toEqual({
      matches: true,
      runIds: ['study-20261201T085847-4d5b'],
    });
    expect(matchOutput(shown, printed.replace('succeeded', 'failed'), folder).matches).toBe(false);
    expect(matchOutput('run [RUN_ID]\n', 'run 42\n', folder).matches).toBe(false);
  });

  it('takes [PATH] as the folder the block ran in, and no other', () => {
    expect(matchOutput('wrote [PATH]/a.html\n', `wrote ${folder}/a.html\n`, folder).matches).toBe(
      true,
    );
    expect(matchOutput('wrote [PATH]/a.html\n', 'wrote /elsewhere/a.html\n', folder).matches).toBe(
      false,
    );
  });

  it('takes [..] as the rest of one line and ... as any number of lines', () => {
    expect(matchOutput('a [..]\nz\n', 'a b c\nz\n', folder).matches).toBe(true);
    expect(matchOutput('a [..]\nz\n', 'a b\nc\nz\n', folder).matches).toBe(false);
    expect(matchOutput('a\n...\nz\n', 'a\nb\nc\nz\n', folder).matches).toBe(true);
    expect(matchOutput('a\n...\nz\n', 'a\nz\n', folder).matches).toBe(true);
    expect(matchOutput('a\n...\nz\n', 'a\nb\n', folder).matches).toBe(false);
  });

  it('matches byte sizes only where masked', () => {
    expect(matchOutput('is [BYTES], over\n', 'is 1962 bytes, over\n', folder).matches).toBe(true);
    expect(matchOutput('is 1962 bytes\n', 'is 1963 bytes\n', folder).matches).toBe(false);
  });

  it('masks what an update writes, keeping byte sizes unless asked', () => {
    const printed = `run s-20261201T085847-4d5b at 2026-12-01T08:58:47Z took 250 ms in ${folder}/x; 1962 bytes\n`;
    expect(maskOutput(printed, folder, false)).toBe(
      'run [RUN_ID] at [DATE] took [DURATION] in [PATH]/x; 1962 bytes\n',
    );
    expect(maskOutput(printed, folder, true)).toContain('; [BYTES]\n');
  });

  it('shows a difference line by line', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\n')).toBe('  a\n+ B\n- b\n  c');
  });
});

describe('anchors', () => {
  it("makes GitHub's slugs", () => {
    expect(githubSlug('TLS: `sslmode`, as libpq')).toBe('tls-sslmode-as-libpq');
    expect(githubSlug('arena-runtime/termination')).toBe('arena-runtimetermination');
    expect(githubSlug('What a worker imports: the trust boundary')).toBe(
      'what-a-worker-imports-the-trust-boundary',
    );
  });

  it('numbers repeated headings and ignores headings inside code blocks', () => {
    const anchors = anchorsOf('# A\n## A\n```sh\n# not a heading\n```\n<a id="here"></a>\n');
    expect([...anchors].sort()).toEqual(['a', 'a-1', 'here']);
  });
});

describe('ARENA_DOCS_UPDATE', () => {
  it('keeps what still matches, with its masks and ..., and writes what changed, masked', () => {
    const shown = 'run [RUN_ID]: ok\n...\nphase b: 2\n\nsee it with: arena show [RUN_ID]\n';
    const printed =
      'run s-20261201T000000-00ff: ok\nphase a: 1\nphase b: 2\n\nsee it with: npx arena show s-20261201T000000-00ff\n';
    expect(updatedExpected(shown, printed, folder, false)).toBe(
      'run [RUN_ID]: ok\n...\nphase b: 2\n\nsee it with: npx arena show [RUN_ID]\n',
    );
  });

  it('writes the whole output into an empty block, and keeps [..] where it still matches', () => {
    expect(updatedExpected('', `wrote ${folder}/a\n`, folder, false)).toBe('wrote [PATH]/a\n');
    expect(updatedExpected('a [..]\nb\n', 'a 1 2\nc\n', folder, false)).toBe('a [..]\nc\n');
  });
});

describe('the difference a failure shows', () => {
  it('leaves out unchanged lines far from a change', () => {
    const shown = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n');
    const printed = shown.replace('i', 'I');
    expect(lineDiff(shown, printed)).toBe('  (5 unchanged lines)\n  f\n  g\n  h\n+ I\n- i\n  j');
  });
});
