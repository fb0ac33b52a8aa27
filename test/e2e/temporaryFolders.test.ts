import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nestedVitest } from '../support/nestedVitest.js';
import {
  leftBehindMessage,
  runRootPrefix,
  useRunTemporaryRoot,
} from '../support/runTemporaryRoot.js';
import { scratchFolder } from '../support/scratch.js';

describe('the test run’s temporary root', () => {
  it('is where os.tmpdir() points, in the tests and in the processes they start', () => {
    const root = tmpdir();
    expect(path.basename(root).startsWith(runRootPrefix)).toBe(true);
    expect(process.env.TMPDIR).toBe(root);
    const shared = process.env.ARENA_TEST_SHARED_TMPDIR as string;
    expect(root.startsWith(shared + path.sep)).toBe(true);
    const child = execFileSync(process.execPath, ['-p', "require('node:os').tmpdir()"], {
      encoding: 'utf8',
    });
    expect(child.trim()).toBe(root);
  });

  it('names what tests left in it, removes it and restores TMPDIR at teardown', () => {
    const before = process.env.TMPDIR;
    const lines: string[] = [];
    const teardown = useRunTemporaryRoot((line) => lines.push(line));
    const root = tmpdir();
    try {
      expect(path.dirname(root)).toBe(before);
      execFileSync(process.execPath, [
        '-e',
        "require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'arena-leak-'))",
      ]);
    } finally {
      teardown();
    }
    expect(existsSync(root)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^${leftBehindMessage} in .+ \\(1, removed now\\): arena-leak-\\w{6}\\n$`),
    );
  });
});

describe('scratchFolder', () => {
  let madeBeforeAll = '';
  let madeInFailingTest = '';
  beforeAll(() => {
    madeBeforeAll = scratchFolder('arena-scratch-file-');
  });

  it.fails('(a test that fails on purpose, leaving a folder behind)', () => {
    madeInFailingTest = scratchFolder('arena-scratch-failed-');
    expect(existsSync(madeInFailingTest)).toBe(false);
  });

  it('has removed the folder of the test before, which failed', () => {
    expect(madeInFailingTest).not.toBe('');
    expect(existsSync(madeInFailingTest)).toBe(false);
  });

  it('keeps a folder made in beforeAll for the file’s later tests', () => {
    expect(existsSync(madeBeforeAll)).toBe(true);
  });
});

describe('a test suite that makes many temporary folders', () => {
  it('test/e2e/termination.test.ts leaves none behind, even before the run’s root goes', async () => {
    const temp = scratchFolder('arena-nested-temp-');
    const report = path.join(scratchFolder('arena-nested-report-'), 'report.json');
    const run = await nestedVitest(['test/e2e/termination.test.ts'], {
      env: { TMPDIR: temp, ARENA_SKIP_BUILD: '1', ARENA_TEST_REPORT: report },
    });
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(report, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
    };
    expect(summary.numPassedTests).toBeGreaterThan(0);
    expect(summary.numFailedTests).toBe(0);
    expect(run.stderr).not.toContain(leftBehindMessage);
    expect(readdirSync(temp)).toEqual([]);
  });
});
