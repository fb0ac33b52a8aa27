import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, repoRoot, runProcess } from '../support/cli.js';
import { manualText } from '../support/manual.js';

/** The environment for npm in the scratch app, without what `npm test` says about this repo. */
function scratchNpmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    // npm run exports the repo as local prefix and its package.json fields; they would leak in.
    if (/^npm_(config_local_prefix|config_call|package_|lifecycle_)/i.test(key)) delete env[key];
  }
  return env;
}

interface Manifest {
  version: string;
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const repoManifest = JSON.parse(
  readFileSync(path.join(repoRoot, 'package.json'), 'utf8'),
) as Manifest;
/** `name@version` as the library is tested with it. */
const tested = (name: string): string => `${name}@${repoManifest.devDependencies[name]}`;
/** The `npm install` a missing optional peer's message names. */
const installHint = (...names: string[]): string =>
  `npm install ${names.map((name) => `${name}@${repoManifest.peerDependencies[name]}`).join(' ')}`;

/** Every file under a folder (symbolic links not followed), with its size in bytes. */
function filesUnder(folder: string): { file: string; bytes: number }[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [{ file: full, bytes: lstatSync(full).size }] : [];
  });
}
const mebibytes = (files: readonly { bytes: number }[]): number =>
  files.reduce((sum, { bytes }) => sum + bytes, 0) / 2 ** 20;
/** The name of every package installed under `folder`, once per copy. */
function installedPackages(folder: string): string[] {
  return filesUnder(folder)
    .filter(({ file }) =>
      /[\\/]node_modules[\\/](@[^\\/]+[\\/])?[^\\/@]+[\\/]package\.json$/.test(file),
    )
    .map(({ file }) => path.relative(folder, path.dirname(file)).split(path.sep))
    .map((parts) => parts.slice(parts.lastIndexOf('node_modules') + 1).join('/'));
}

/** A consumer's code: the root entry's values and types, one name from each subpath, and calls its types must refuse. */
const consumerSource = `import {
  type EvaluationTerminationInput,
  type MigratableDatabase,
  type RunStore,
  type TerminationConfig,
  createLogger,
  evaluationTerminationMachine,
  migrateStore,
  openSqliteStore,
  parseTerminationConfig,
} from 'arena-runtime';
import { machineNamed } from 'arena-runtime/diagram';
import { type ScenarioState, parsePointer } from 'arena-runtime/definition';
import { type RunSpec, runExperiment$ } from 'arena-runtime/experiment';
import { fuzzTermination } from 'arena-runtime/fuzz';
import { type TraceRecord, parseTrace } from 'arena-runtime/inspect';
import { type JudgeResult, judgeMany } from 'arena-runtime/judge';
import { type QueueLocation, parseQueueUri } from 'arena-runtime/nats';
import { type RunReport, collectRunReport } from 'arena-runtime/report';
import { type LeaseOwner, createMemoryStore } from 'arena-runtime/store';
import { type CheckpointDecision, applyCheckpoint, createTerminationState } from 'arena-runtime/termination';

export const logger = createLogger({ level: 'warn', json: true });
export const machineId: string = evaluationTerminationMachine.id;
export const openStore: (path: string) => RunStore = (path) => openSqliteStore(path);
export const migrate = (db: MigratableDatabase): number => migrateStore(db, ':memory:');
export const parse = (input: unknown): TerminationConfig => parseTerminationConfig(input);
// @ts-expect-error: the declarations are real types, not any; a level is one of LOG_LEVELS.
createLogger({ level: 'loud' });

export const judgeMachineId: string = machineNamed('judge').id;
export const tokens: string[] = parsePointer('/feeder/lines/0');
export const run = (spec: RunSpec) => runExperiment$(spec, { store: createMemoryStore(), builtins: new Map() });
export const fuzz = (config: TerminationConfig) => fuzzTermination(config, { runs: 10 });
export const trace = (text: string): TraceRecord[] => parseTrace(text, 'trace.jsonl');
export const judging = judgeMany;
export const queue: QueueLocation = parseQueueUri('nats://127.0.0.1:4222');
export const report = (store: RunStore, runId: string): RunReport => collectRunReport(store, runId);
export const decide = (config: TerminationConfig): CheckpointDecision =>
  applyCheckpoint(createTerminationState(config), []).decision;
export type Used = [ScenarioState, JudgeResult, LeaseOwner];
const upward = { SAC: { success: { metric: 'o', threshold: 1, direction: 'up', consecutive: 1, min_evaluations: 1 } } } as const;
// @ts-expect-error: the rules are typed from the schema; a direction is greater_equal or less_equal.
export const badRules: EvaluationTerminationInput = { agents: upward };
`;

/** One name from each entry point, used as an app without a single driver uses them. */
const driverlessSource = `import { evaluationTerminationMachine, MissingPeerDependencyError } from 'arena-runtime';
import { parsePointer } from 'arena-runtime/definition';
import { toSvg } from 'arena-runtime/diagram';
import { runExperiment$ } from 'arena-runtime/experiment';
import { fuzzTermination } from 'arena-runtime/fuzz';
import { startInspectorRelay } from 'arena-runtime/inspect';
import { createOpenAIProvider } from 'arena-runtime/judge';
import { openRunQueue, runRunWorker } from 'arena-runtime/nats';
import { openPostgresStore } from 'arena-runtime/postgres';
import { collectRunReport } from 'arena-runtime/report';
import { openSqliteStore } from 'arena-runtime/store';
import { applyCheckpoint } from 'arena-runtime/termination';
export const used = [evaluationTerminationMachine, MissingPeerDependencyError, parsePointer, toSvg,
  runExperiment$, fuzzTermination, startInspectorRelay, createOpenAIProvider, openRunQueue,
  runRunWorker, openPostgresStore, collectRunReport, openSqliteStore, applyCheckpoint];
`;

/** Each driver-backed feature used once in an app without the driver: what each one says. */
const missingPeersSource = `import { PassThrough } from 'node:stream';
import { createLogger, parseTerminationConfig } from 'arena-runtime';
import { diagramHtmlPage, machineNamed, toMermaid, toSvg } from 'arena-runtime/diagram';
import { fuzzTermination } from 'arena-runtime/fuzz';
import { startInspectorRelay } from 'arena-runtime/inspect';
import { createOpenAIProvider } from 'arena-runtime/judge';
import { openRemoteComponents, openRunQueue } from 'arena-runtime/nats';
import { openPostgresStore } from 'arena-runtime/postgres';
import { openSqliteStore } from 'arena-runtime/store';

const rules = parseTerminationConfig({
  SAC: { success: { metric: 'o', threshold: 1, direction: 'greater_equal', consecutive: 1, min_evaluations: 1 } },
});
const terminal = Object.assign(new PassThrough(), { isTTY: true });
const judge = machineNamed('judge');
const uses = {
  sqlite: () => openSqliteStore('runs.db'),
  postgres: () => openPostgresStore('postgres://arena@127.0.0.1:5432/arena'),
  svg: () => toSvg(judge),
  mermaid: () => diagramHtmlPage({ title: 'judge', diagrams: [{ heading: 'judge', mermaid: toMermaid(judge) }] }),
  fuzz: () => fuzzTermination(rules, { runs: 5 }),
  inspect: () => startInspectorRelay({ port: 0 }),
  openai: () => createOpenAIProvider({ baseURL: 'http://127.0.0.1:9/v1', model: 'm' }),
  queue: () => openRunQueue('nats://127.0.0.1:4222'),
  remote: () => openRemoteComponents('nats://127.0.0.1:4222'),
  pretty: () => createLogger({ destination: terminal }),
};
for (const [name, use] of Object.entries(uses)) {
  try {
    await use();
    console.log(name + ': no error');
  } catch (error) {
    console.log(name + ': ' + error.name + ' ' + error.code + ': ' + error.message);
  }
}
`;

/** What a CommonJS app requires: the root and every subpath, all of them ES modules. */
const requireSource = (subpaths: readonly string[]) => `const arena = require('arena-runtime');
const { createActor } = require('xstate');
const actor = createActor(arena.evaluationTerminationMachine, {
  input: { agents: { SAC: { success: { metric: 'o', threshold: 1, direction: 'greater_equal', consecutive: 1, min_evaluations: 1 } } } },
}).start();
actor.send({ type: 'evaluation.checkpoint', outcomes: [{ agentName: 'SAC', evaluationId: 'e0', evaluationEpisode: 0, metrics: { o: 1 } }] });
console.log('root: ' + actor.getSnapshot().value);
for (const subpath of ${JSON.stringify(subpaths)}) {
  console.log(subpath + ': ' + Object.keys(require(subpath)).length + ' names');
}
`;

/** Whether util-linux's script(1) is there to run a command on a pseudo-terminal. */
const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** The embed examples an app with the library and xstate alone runs as shipped. */
const embedPrograms = [
  'termination.mjs',
  'persistence.mjs',
  'pure-transitions.mjs',
  'programmatic-run.mjs',
] as const;

const subpaths = Object.keys(repoManifest.exports).map((subpath) =>
  subpath === '.' ? 'arena-runtime' : `arena-runtime/${subpath.slice(2)}`,
);
const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
/** Node 20.19 and later load an ES module with require() (the exports' require condition). */
const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split('.').map(Number);
const requireLoadsEsm = nodeMajor > 20 || (nodeMajor === 20 && nodeMinor >= 19);

let folder: string;
let tarballs: { library: string; cli: string };
const installs: Record<'embed' | 'typed' | 'global', { run: CliRun; seconds: number }> =
  {} as never;
const apps = { embed: '', typed: '', global: '' };

/** One `npm install` into a scratch folder, timed; the registry only where npm's cache has nothing. */
async function install(name: keyof typeof installs, args: readonly string[]): Promise<void> {
  const started = performance.now();
  const run = await runProcess(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', ...args],
    { cwd: folder, env: scratchNpmEnv() },
  );
  const seconds = (performance.now() - started) / 1000;
  installs[name] = { run, seconds };
  // Measured, never asserted (the machine is shared): how long each audience waits.
  process.stderr.write(
    `consumer e2e: npm install of the ${name} app took ${seconds.toFixed(1)} s\n`,
  );
}

/** A scratch app folder with its package.json. */
function app(name: string): string {
  const dir = path.join(folder, name);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `arena-${name}-app`, private: true, type: 'module' }, null, 2)}\n`,
  );
  return dir;
}

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-consumer-e2e-'));
  // Every package of the repository (the library and the arena command), packed as the build left
  // them: the global set-up built dist/ and cli/dist/, and packing must not rebuild them.
  const pack = await runProcess(
    'npm',
    ['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', folder],
    { cwd: repoRoot },
  );
  if (pack.code !== 0) throw new Error(`npm pack exited ${pack.code}: ${pack.stderr}`);
  const packed = JSON.parse(pack.stdout) as { name: string; filename: string }[];
  const tarballOf = (name: string) =>
    path.join(folder, packed.find((entry) => entry.name === name)?.filename ?? `${name}?`);
  tarballs = { library: tarballOf('arena-runtime'), cli: tarballOf('arena-cli') };
  apps.embed = app('embed');
  apps.typed = app('typed');
  apps.global = path.join(folder, 'global');
  await Promise.all([
    // An embedder of the machines: the library and its one peer, xstate; install scripts allowed,
    // so a native addon that came along would be built and found.
    install('embed', ['--prefix', apps.embed, tarballs.library, tested('xstate')]),
    // An app that type-checks every published declaration: Node's types and the optional peers
    // whose types the declarations of the adapters name.
    install('typed', [
      '--ignore-scripts',
      '--prefix',
      apps.typed,
      tarballs.library,
      tested('xstate'),
      tested('@types/node'),
      tested('fast-check'),
      tested('@nats-io/jetstream'),
      tested('@nats-io/transport-node'),
    ]),
    // A CLI user: every package of the repository in one global install (better-sqlite3 is built).
    install('global', ['--global', '--prefix', apps.global, tarballs.library, tarballs.cli]),
  ]);
}, 900_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Run a program of the app with the app as working folder. */
const nodeIn = (cwd: string, ...args: string[]) => runProcess(process.execPath, args, { cwd });

describe('an app that embeds the machines: the library and xstate, nothing else', () => {
  it('installs with no error', () => {
    expect(installs.embed.run.stderr).not.toMatch(/npm error/);
    expect(installs.embed.run.code).toBe(0);
    expect(existsSync(path.join(apps.embed, 'node_modules/arena-runtime/dist/index.d.ts'))).toBe(
      true,
    );
    expect(existsSync(path.join(apps.embed, 'node_modules/arena-runtime/dist/cli'))).toBe(false);
  });

  it('holds at most 30 MiB in node_modules, no native addon and exactly one xstate', () => {
    const files = filesUnder(path.join(apps.embed, 'node_modules'));
    expect(mebibytes(files)).toBeLessThanOrEqual(30);
    expect(files.filter(({ file }) => /\.node$|[\\/]binding\.gyp$/.test(file))).toEqual([]);
    const packages = installedPackages(path.join(apps.embed, 'node_modules'));
    expect(packages.filter((name) => name === 'xstate')).toEqual(['xstate']);
    // none of the drivers came along
    const peers = Object.keys(repoManifest.peerDependencies).filter((name) => name !== 'xstate');
    expect(packages.filter((name) => peers.includes(name))).toEqual([]);
  });

  it.each(embedPrograms)(
    'runs examples/embed/%s as shipped, printing what it prints in the repository',
    async (file) => {
      cpSync(path.join(repoRoot, 'examples/embed', file), path.join(apps.embed, file));
      const [inApp, inRepo] = await Promise.all([
        nodeIn(apps.embed, file),
        nodeIn(repoRoot, path.join('examples/embed', file)),
      ]);
      expect(inApp.stderr).toBe('');
      expect(inApp.code).toBe(0);
      expect(inApp.stdout).toBe(inRepo.stdout);
      expect(inApp.stdout.length).toBeGreaterThan(0);
    },
  );

  it.runIf(requireLoadsEsm)(
    'lets a CommonJS file require the library and every subpath (no top-level await anywhere)',
    async () => {
      writeFileSync(path.join(apps.embed, 'app.cjs'), requireSource(subpaths.slice(1)));
      const result = await nodeIn(apps.embed, 'app.cjs');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('root: success');
      expect(lines.slice(1).map((line) => line.split(':')[0])).toEqual(subpaths.slice(1));
    },
  );

  it('says, in one line, which npm install each feature without its driver needs', async () => {
    writeFileSync(path.join(apps.embed, 'missing.mjs'), missingPeersSource);
    const result = await nodeIn(apps.embed, 'missing.mjs');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const said = Object.fromEntries(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    const refusal = (feature: string, ...names: string[]) => {
      const listed = names.length === 1 ? `${names[0]} is` : `${names.join(' and ')} are`;
      const pronoun = names.length === 1 ? 'it' : 'them';
      return `MissingPeerDependencyError MISSING_PEER_DEPENDENCY: ${feature}: ${listed} not installed; add ${pronoun} with: ${installHint(...names)}`;
    };
    expect(said).toEqual({
      sqlite: refusal('arena-runtime/store (SQLite stores)', 'better-sqlite3'),
      postgres: refusal('arena-runtime/postgres (PostgreSQL stores)', 'pg'),
      svg: refusal('arena-runtime/diagram and /report (SVG diagrams)', '@dagrejs/dagre'),
      mermaid: refusal('arena-runtime/diagram (HTML diagram pages)', 'mermaid'),
      fuzz: refusal('arena-runtime/fuzz (the termination fuzzer)', 'fast-check'),
      inspect: refusal('arena-runtime/inspect (the inspector relay)', '@statelyai/inspect', 'ws'),
      openai: refusal('arena-runtime/judge (the OpenAI-compatible model provider)', 'openai'),
      queue: refusal(
        'arena-runtime/nats (NATS queues)',
        '@nats-io/jetstream',
        '@nats-io/transport-node',
      ),
      remote: refusal('arena-runtime/nats (remote components)', '@nats-io/transport-node'),
      pretty: refusal(
        'createLogger (pretty logs on a terminal; json: true needs none)',
        'pino-pretty',
      ),
    });
  });

  it('ends an app that does not catch it with that line', async () => {
    writeFileSync(
      path.join(apps.embed, 'store.mjs'),
      "import { openSqliteStore } from 'arena-runtime/store';\nopenSqliteStore('runs.db');\n",
    );
    const result = await nodeIn(apps.embed, 'store.mjs');
    expect(result.code).toBe(1);
    const line = `MissingPeerDependencyError: arena-runtime/store (SQLite stores): better-sqlite3 is not installed; add it with: ${installHint('better-sqlite3')}`;
    expect(result.stderr).toContain(`\n${line}\n`);
    // the README shows it as it is
    expect(manualText()).toContain(`\n${line}\n`);
  });

  it('type-checks code using every entry point with only xstate and Node types, no skipLibCheck', async () => {
    writeFileSync(path.join(apps.embed, 'driverless.ts'), driverlessSource);
    writeFileSync(
      path.join(apps.embed, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            module: 'nodenext',
            strict: true,
            noEmit: true,
            // Node's types from the repository, as the compiler is: the app installs nothing for them.
            typeRoots: [path.join(repoRoot, 'node_modules/@types')],
            types: ['node'],
          },
          include: ['driverless.ts'],
        },
        null,
        2,
      )}\n`,
    );
    const typeCheck = await nodeIn(apps.embed, tsc, '-p', apps.embed);
    expect(`${typeCheck.stdout}${typeCheck.stderr}`).toBe('');
    expect(typeCheck.code).toBe(0);
  });
});

describe('the packed package in a consumer app that type-checks every declaration', () => {
  it('installs the packed tarball, and no devDependency types come with it', () => {
    expect(installs.typed.run.stderr).not.toMatch(/npm error/);
    expect(installs.typed.run.code).toBe(0);
    const installed = path.join(apps.typed, 'node_modules');
    expect(existsSync(path.join(installed, 'arena-runtime/dist/index.d.ts'))).toBe(true);
    expect(existsSync(path.join(installed, '@types/better-sqlite3'))).toBe(false);
  });

  it('type-checks every published declaration with strict nodenext settings and no skipLibCheck', async () => {
    writeFileSync(path.join(apps.typed, 'index.ts'), consumerSource);
    writeFileSync(
      path.join(apps.typed, 'tsconfig.json'),
      `${JSON.stringify(
        {
          compilerOptions: { module: 'nodenext', strict: true, noEmit: true },
          // Every published declaration, not only those the entry reaches.
          include: ['index.ts', 'node_modules/arena-runtime/dist/**/*.d.ts'],
        },
        null,
        2,
      )}\n`,
    );
    const typeCheck = await nodeIn(apps.typed, tsc, '-p', apps.typed);
    // tsc reports on stdout; an empty report is the proof, the exit code the summary.
    expect(`${typeCheck.stdout}${typeCheck.stderr}`).toBe('');
    expect(typeCheck.code).toBe(0);
  });

  it("type-checks the same with the compiler's default settings (a tsconfig without compilerOptions)", async () => {
    writeFileSync(path.join(apps.typed, 'index.ts'), consumerSource);
    // An app that sets nothing gets the compiler's defaults: no compilerOptions at all.
    const defaultsConfig = path.join(apps.typed, 'tsconfig.defaults.json');
    writeFileSync(
      defaultsConfig,
      `${JSON.stringify({ include: ['index.ts', 'node_modules/arena-runtime/dist/**/*.d.ts'] }, null, 2)}\n`,
    );
    const typeCheck = await nodeIn(apps.typed, tsc, '-p', defaultsConfig);
    expect(`${typeCheck.stdout}${typeCheck.stderr}`).toBe('');
    expect(typeCheck.code).toBe(0);
  });
});

describe('the arena command installed globally from the packed packages', () => {
  const arena = (args: readonly string[], cwd: string) =>
    runProcess(path.join(apps.global, 'bin', 'arena'), args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
  let work: string;
  beforeAll(() => {
    work = path.join(folder, 'work');
    mkdirSync(work);
    cpSync(path.join(repoRoot, 'examples'), path.join(work, 'examples'), { recursive: true });
  });

  it('installs from one npm install -g of every package, with the command on the PATH folder', () => {
    expect(installs.global.run.stderr).not.toMatch(/npm error/);
    expect(installs.global.run.code).toBe(0);
    expect(existsSync(path.join(apps.global, 'bin', 'arena'))).toBe(true);
    const packages = installedPackages(path.join(apps.global, 'lib', 'node_modules'));
    expect(packages).toContain('arena-runtime');
    expect(packages).toContain('better-sqlite3');
    // what no command loads stays out (see cli/package.json)
    expect(packages).not.toContain('mermaid');
    process.stderr.write(
      `consumer e2e: the global install holds ${mebibytes(filesUnder(apps.global)).toFixed(1)} MiB\n`,
    );
  });

  it('runs the main study', async () => {
    const result = await arena(['run', 'examples/hosting-capacity.yaml'], work);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^run hosting-capacity-\S+: succeeded \(seed 42\)$/m);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^stored in \.arena\/arena\.db; see it with: arena show hosting-capacity-\S+$/,
    );
  });

  it('writes the stored run as a report with its charts', async () => {
    const runs = await arena(['runs', '--json'], work);
    expect(runs.code).toBe(0);
    const [{ runId }] = JSON.parse(runs.stdout) as [{ runId: string }];
    const result = await arena(['report', runId, '--out', 'report.html'], work);
    expect(result.code, result.stderr).toBe(0);
    const page = readFileSync(path.join(work, 'report.html'), 'utf8');
    // Chart.js's browser bundle, read from the global install's node_modules, is inlined
    expect(page).toContain('Chart.js v4');
    expect(page).toContain('<svg');
  });

  it('judges offline with the replay provider', async () => {
    const result = await arena(
      [
        'judge',
        'examples/judge/cases.jsonl',
        '--config',
        'examples/judge/replay.yaml',
        '--out',
        'results.jsonl',
      ],
      work,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('judged 4 cases with strict: passed 2, failed 1, skipped 1');
    expect(
      readFileSync(path.join(work, 'results.jsonl'), 'utf8').trimEnd().split('\n'),
    ).toHaveLength(4);
  });

  it('draws a diagram as SVG and as an HTML page', async () => {
    const svg = await arena(['diagram', 'judge', '--format', 'svg'], work);
    expect(svg.code, svg.stderr).toBe(0);
    expect(svg.stdout).toMatch(/^<svg /);
    const page = await arena(['diagram', 'judge', '--format', 'html', '--out', 'judge.html'], work);
    expect(page.code, page.stderr).toBe(0);
    expect(readFileSync(path.join(work, 'judge.html'), 'utf8')).toContain('<svg');
  });

  it('fuzzes termination rules (fast-check loaded from the install)', async () => {
    const result = await arena(
      ['fuzz', 'termination', 'examples/termination/rules.yaml', '--metric', 'objective=0:1'],
      work,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('terminal reasons');
  });

  it('finds every package it loads by name from its own folder, as the library finds its drivers', () => {
    const installed = path.join(apps.global, 'lib', 'node_modules', 'arena-cli');
    const { dependencies } = JSON.parse(
      readFileSync(path.join(installed, 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    const fromBundle = createRequire(path.join(installed, 'dist', 'main.js'));
    const unresolved = Object.keys(dependencies).filter((name) => {
      try {
        fromBundle.resolve(name);
        return false;
      } catch {
        return true;
      }
    });
    expect(unresolved).toEqual([]);
  });

  it.runIf(hasScript)(
    'logs pretty on a terminal (pino-pretty loaded from the install)',
    async () => {
      // util-linux script(1) gives the command a pseudo-terminal
      const command = `${JSON.stringify(path.join(apps.global, 'bin', 'arena'))} --log-level info run examples/hosting-capacity.yaml --store sqlite::memory:`;
      const result = await runProcess('script', ['-qec', command, '/dev/null'], { cwd: work });
      expect(result.code).toBe(0);
      expect(stripVTControlCharacters(result.stdout)).toMatch(
        /^\[\d\d:\d\d:\d\d\] INFO \(\d+\): run started\r?$/m,
      );
    },
  );

  it('offers worker and submit, and reaches for NATS and PostgreSQL with their own clients', async () => {
    const help = await arena(['--help'], work);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}worker \[options\]/m);
    expect(help.stdout).toMatch(/^ {2}submit \[options\] <run-file>/m);
    // nothing listens on port 1: each client loads, tries and says so (not a missing module)
    const submit = await arena(
      ['submit', 'examples/hosting-capacity.yaml', '--nats', 'nats://127.0.0.1:1'],
      work,
    );
    expect(submit.code).toBe(1);
    expect(submit.stderr).toBe(
      'arena: cannot reach the NATS server at nats://127.0.0.1:1: connection refused\n',
    );
    const postgres = await arena(['runs', '--store', 'postgres://arena@127.0.0.1:1/arena'], work);
    expect(postgres.code).toBe(2);
    expect(postgres.stderr).toContain('cannot connect to 127.0.0.1:1 (ECONNREFUSED)');
  });
});
