import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/ports/store/sqlite/sqliteStore.js';
import { repoRoot, runArena, runProcess } from '../support/cli.js';
import { manualText } from '../support/manual.js';
import { fillSampleRun, sampleClock } from '../unit/store/sampleRun.js';

const cli = path.join(repoRoot, 'cli/bin/arena.js');
const baseRunFile = readFileSync(path.join(repoRoot, 'examples/two-feeders.yaml'), 'utf8');
const scenarioLine = '              scenario:\n';

let folder: string;
const file = (name: string) => path.join(folder, name);

/** The shipped two-feeder run file with `lines` added to the north feeder's scenario mapping. */
function runFileWithScenario(lines: string): string {
  expect(baseRunFile).toContain(scenarioLine);
  return baseRunFile.replace(scenarioLine, `${scenarioLine}${lines}`);
}

/** Scenario lines of an alias bomb whose last level expands to 9^levels scalars. */
function aliasBomb(levels: number, indent = '                '): string {
  const lines = [`${indent}lol0: &lol0 [${Array(9).fill('lol').join(', ')}]`];
  for (let level = 1; level < levels; level += 1) {
    lines.push(
      `${indent}lol${level}: &lol${level} [${Array(9)
        .fill(`*lol${level - 1}`)
        .join(', ')}]`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const limitMessage =
  'alias *lol2 passes the alias limit: anchor &lol2 is used 2 times and holds 100 aliased nodes, 200 > maxAliasCount 100 (an alias bomb?)';

/** Rules that succeed on the last of `lines` checkpoints whose metric is the line number. */
const countingRules = [
  'agents:',
  '  A:',
  '    success: {metric: m, threshold: LAST, direction: greater_equal, consecutive: 2, min_evaluations: 3}',
  '    plateau: {metric: m, direction: maximize, min_delta: 0.5, patience: 3, min_evaluations: 4, window: 1}',
].join('\n');

/** Write a checkpoint log of `lines` lines, one agent, metric = line number. */
async function writeCountingLog(target: string, lines: number): Promise<void> {
  const out = createWriteStream(target);
  let batch: string[] = [];
  for (let line = 1; line <= lines; line += 1) {
    const outcome = {
      agentName: 'A',
      evaluationId: `e${line}`,
      evaluationEpisode: line,
      metrics: { m: line },
    };
    batch.push(JSON.stringify({ outcomes: [outcome] }));
    if (batch.length === 10_000 || line === lines) {
      if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
      batch = [];
    }
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/**
 * Run arena with its stdout reader gone: the read end of the pipe is closed
 * before arena writes, so its first write meets EPIPE.
 */
function runWithClosedStdout(
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** `arena ... | head -1` through a real shell pipe; arena's own exit code comes back on stderr. */
function runThroughHead(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const quoted = [process.execPath, cli, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`);
  const pipeline = `{ ${quoted.join(' ')}; echo "arena exit $?" >&2; } | head -1`;
  return runProcess('sh', ['-c', pipeline], { cwd: repoRoot });
}

const runId = 'grid-demo-20261129T200702-3fa2';

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-hostile-'));
  mkdirSync(file('store'));
  const store = openSqliteStore(file('store/arena.db'), { clock: sampleClock() });
  fillSampleRun(store, runId);
  store.close();
  writeFileSync(file('counting-100k.yaml'), countingRules.replace('LAST', '99999'));
  await writeCountingLog(file('counting-100k.jsonl'), 100_000);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('alias bombs are refused in every YAML entry point', () => {
  it.each([6, 7])(
    'arena validate refuses a 9^%i alias bomb with exit 2, naming the file and the limit',
    async (levels) => {
      const target = file(`bomb-${levels}.yaml`);
      writeFileSync(target, runFileWithScenario(aliasBomb(levels)));
      const { code, stdout, stderr } = await runArena(['validate', target]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `arena: ${target}: invalid run file, 1 problem:\n  YAML error: ${limitMessage} (line 23, column 30)\n`,
      );
    },
  );

  it('arena run refuses the bomb before it starts', async () => {
    const target = file('bomb-run.yaml');
    writeFileSync(target, runFileWithScenario(aliasBomb(7)));
    const { code, stderr } = await runArena([
      'run',
      target,
      '--store',
      `sqlite:${file('run-store.db')}`,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${target}: invalid run file, 1 problem:\n  YAML error: ${limitMessage}`,
    );
  });

  it('arena judge refuses a judge config that is an alias bomb', async () => {
    const target = file('bomb-judge.yaml');
    writeFileSync(target, aliasBomb(7, ''));
    const cases = path.join(repoRoot, 'examples/judge/cases.jsonl');
    const { code, stderr } = await runArena(['judge', cases, '--config', target]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `arena: JudgeConfigurationError: ${target}: not valid YAML (line 4, column 14: ${limitMessage})\n`,
    );
  });

  it.each([
    ['termination', 'replay'],
    ['fuzz', 'termination'],
  ])('arena %s %s refuses a rules file that is an alias bomb', async (...command) => {
    const target = file('bomb-rules.yaml');
    writeFileSync(target, `agents: {}\n${aliasBomb(7, '')}`);
    const args =
      command[0] === 'termination'
        ? [...command, target, file('counting-100k.jsonl')]
        : [...command, target];
    const { code, stderr } = await runArena(args);
    expect(code).toBe(2);
    expect(stderr).toBe(`arena: ${target}: invalid YAML: line 5, column 14: ${limitMessage}\n`);
  });
});

describe('input files over the cap are refused; --max-input-bytes raises the cap', () => {
  it('refuses a run file over the 1 MiB default, naming it, its size and the cap', async () => {
    const target = file('padded.yaml');
    const text = runFileWithScenario(`                padding: "${'x'.repeat(1024 * 1024)}"\n`);
    writeFileSync(target, text);
    const size = Buffer.byteLength(text);
    const refused = await runArena(['validate', target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `arena: InputTooLargeError: ${target} is ${size} bytes, over the input cap of 1048576 bytes (raise it with --max-input-bytes <n>)\n`,
    );
    const raised = await runArena(['--max-input-bytes', '2M', 'validate', target]);
    expect(raised.stderr).toBe('');
    expect(raised.stdout).toBe('ok: two-feeders, 2 phases (train, test), profile generic\n');
    expect(raised.code).toBe(0);
  });

  it('caps rules files and judge configs too', async () => {
    const rules = path.join(repoRoot, 'examples/termination/rules.yaml');
    const size = readFileSync(rules).length;
    const replay = await runArena([
      '--max-input-bytes',
      '100',
      'termination',
      'replay',
      rules,
      file('counting-100k.jsonl'),
    ]);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toBe(
      `arena: InputTooLargeError: ${rules} is ${size} bytes, over the input cap of 100 bytes (raise it with --max-input-bytes <n>)\n`,
    );
    const config = path.join(repoRoot, 'examples/judge/replay.yaml');
    const cases = path.join(repoRoot, 'examples/judge/cases.jsonl');
    const judge = await runArena(['--max-input-bytes', '100', 'judge', cases, '--config', config]);
    expect(judge.code).toBe(2);
    expect(judge.stderr).toMatch(
      /^arena: InputTooLargeError: .*replay\.yaml is \d+ bytes, over the input cap of 100 bytes/,
    );
  });

  it('refuses a --max-input-bytes that is not a byte count with exit 2', async () => {
    const { code, stderr } = await runArena(['--max-input-bytes', 'lots', 'schema']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'arena: --max-input-bytes: expected a positive number of bytes such as 1048576 or 8M, got "lots"\n',
    );
  });
});

describe('a command line arena cannot read is bad input', () => {
  it.each([
    [['bogus'], "arena: unknown command 'bogus'", 'Usage: arena [options] [command]'],
    [['run', '--bogus'], "arena: unknown option '--bogus'", 'Usage: arena run'],
    [['report'], "arena: missing required argument 'run-id'", 'Usage: arena report'],
    [
      ['judge', 'cases.jsonl'],
      "arena: required option '--config <file>' not specified",
      'Usage: arena judge',
    ],
    [
      ['judge', 'cases.jsonl', '--config'],
      "arena: option '--config <file>' argument missing",
      'Usage: arena judge',
    ],
    [
      ['--log-level', 'loud', 'schema'],
      "arena: option '--log-level <level>' argument 'loud' is invalid. Allowed choices are trace, debug, info, warn, error, fatal, silent.",
      'Usage: arena',
    ],
  ])('arena %j exits 2 with one error line, then the help', async (args, line, usage) => {
    const { code, stdout, stderr } = await runArena(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const [first, blank, help] = stderr.split('\n');
    expect(first).toBe(line);
    expect(blank).toBe('');
    expect(help).toContain(usage);
  });

  it('--help and --version still exit 0, on standard output', async () => {
    const help = await runArena(['judge', '--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^Usage: arena judge \[options\] <cases>/);
    const version = await runArena(['--version']);
    expect([version.code, version.stdout, version.stderr]).toEqual([0, '0.1.0\n', '']);
  });
});

describe('large inputs complete', () => {
  it('validates a run file with 400k keys in one mapping', { timeout: 240_000 }, async () => {
    const keys = Array.from(
      { length: 400_000 },
      (_, index) => `                k${index}: ${index}\n`,
    );
    const target = file('keys-400k.yaml');
    writeFileSync(target, runFileWithScenario(keys.join('')));
    const { code, stdout, stderr } = await runArena(
      ['--max-input-bytes', '16M', 'validate', target],
      {
        timeoutMs: 230_000,
      },
    );
    expect(stderr).toBe('');
    expect(stdout).toBe('ok: two-feeders, 2 phases (train, test), profile generic\n');
    expect(code).toBe(0);
  });

  it('reports a duplicate among 400k keys at its line', { timeout: 240_000 }, async () => {
    const keys = Array.from(
      { length: 400_000 },
      (_, index) => `                k${index}: ${index}\n`,
    );
    keys.push('                k7: again\n');
    const target = file('keys-400k-duplicate.yaml');
    writeFileSync(target, runFileWithScenario(keys.join('')));
    const { code, stderr } = await runArena(['--max-input-bytes', '16M', 'validate', target], {
      timeoutMs: 230_000,
    });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `arena: ${target}: invalid run file, 1 problem:\n  YAML syntax error: Map keys must be unique (line 400020, column 17)\n`,
    );
  });

  it('replays a checkpoint log of 1M lines as a table', { timeout: 300_000 }, async () => {
    writeFileSync(file('counting-1m.yaml'), countingRules.replace('LAST', '999999'));
    await writeCountingLog(file('counting-1m.jsonl'), 1_000_000);
    const { code, stdout, stderr } = await runArena(
      ['termination', 'replay', file('counting-1m.yaml'), file('counting-1m.jsonl')],
      { timeoutMs: 290_000 },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1_000_002);
    expect(lines[1]).toMatch(/^1 {8}A {6}e1 #1 {14}accepted {2}1 /);
    expect(lines.at(-2)).toMatch(
      /^1000000 {2}A {6}e1000000 #1000000 {2}accepted .* STOP_PHASE success$/,
    );
    expect(lines.at(-1)).toBe('final reason: success (line 1000000)');
  });

  it('replays 100k lines as JSON lines', { timeout: 120_000 }, async () => {
    const { code, stdout } = await runArena(
      ['termination', 'replay', file('counting-100k.yaml'), file('counting-100k.jsonl'), '--json'],
      { timeoutMs: 110_000 },
    );
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(100_001);
    expect(JSON.parse(lines[99_999]!)).toMatchObject({
      line: 100_000,
      decision: { reason: 'success' },
    });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ final: { reason: 'success', line: 100_000 } });
  });
});

describe('every command exits quietly when its reader goes away', () => {
  const commands: [string, () => string[]][] = [
    ['show --json', () => ['show', runId, '--json', '--store', `sqlite:${file('store/arena.db')}`]],
    ['runs', () => ['runs', '--store', `sqlite:${file('store/arena.db')}`]],
    [
      'termination replay',
      () => ['termination', 'replay', file('counting-100k.yaml'), file('counting-100k.jsonl')],
    ],
    ['schema', () => ['schema']],
  ];

  it.each(commands)(
    'arena %s with its stdout closed: exit 0, nothing on stderr',
    async (_name, args) => {
      const { code, stderr } = await runWithClosedStdout(args());
      expect(stderr).toBe('');
      expect(code).toBe(0);
    },
  );

  it.each(commands)('arena %s | head -1 prints one line and exits 0', async (_name, args) => {
    const { stdout, stderr } = await runThroughHead(args());
    expect(stderr).toBe('arena exit 0\n');
    expect(stdout.split('\n')).toHaveLength(2);
  });
});

describe('README hostile input section', () => {
  const readme = manualText();

  it.each([
    [['validate', 'examples/hostile/alias-bomb.yaml']],
    [['--max-input-bytes', '1K', 'validate', 'examples/two-feeders.yaml']],
  ])('shows what arena %j really prints, and exit 2', async (args) => {
    const { code, stdout, stderr } = await runArena(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(readme).toContain(`$ npx arena ${args.join(' ')}\n${stderr}\`\`\``);
  });
});

describe('streamed inputs that cannot be read', () => {
  it('exits 2 with one line when the checkpoint log or the cases file is a folder', async () => {
    const rules = path.join(repoRoot, 'examples/termination/rules.yaml');
    const replay = await runArena(['termination', 'replay', rules, folder]);
    expect([replay.code, replay.stdout, replay.stderr]).toEqual([
      2,
      '',
      `arena: cannot read ${folder}: it is a folder\n`,
    ]);
    const config = path.join(repoRoot, 'examples/judge/replay.yaml');
    const judge = await runArena(['judge', folder, '--config', config]);
    expect([judge.code, judge.stderr]).toEqual([
      2,
      `arena: cannot read ${folder}: it is a folder\n`,
    ]);
  });
});
