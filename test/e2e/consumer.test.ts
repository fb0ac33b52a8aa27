import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, repoRoot, runProcess } from '../support/cli.js';

/** The environment for npm in the scratch app, without what `npm test` says about this repo. */
function scratchNpmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    // npm run exports the repo as local prefix and its package.json fields; they would leak in.
    if (/^npm_(config_local_prefix|config_call|package_|lifecycle_)/i.test(key)) delete env[key];
  }
  return env;
}

const repoManifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

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
export const report = (store: RunStore, runId: string): RunReport => collectRunReport(store, runId);
export const decide = (config: TerminationConfig): CheckpointDecision =>
  applyCheckpoint(createTerminationState(config), []).decision;
export type Used = [ScenarioState, JudgeResult, LeaseOwner];
const upward = { SAC: { success: { metric: 'o', threshold: 1, direction: 'up', consecutive: 1, min_evaluations: 1 } } } as const;
// @ts-expect-error: the rules are typed from the schema; a direction is greater_equal or less_equal.
export const badRules: EvaluationTerminationInput = { agents: upward };
`;

let folder: string;
let install: CliRun;
let typeCheck: CliRun;
let defaultsTypeCheck: CliRun;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-consumer-e2e-'));
  // dist/ is built by the global set-up; packing must not rebuild it.
  const pack = await runProcess(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', folder],
    { cwd: repoRoot },
  );
  if (pack.code !== 0) throw new Error(`npm pack exited ${pack.code}: ${pack.stderr}`);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  writeFileSync(
    path.join(folder, 'package.json'),
    `${JSON.stringify({ name: 'arena-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  // A Node app has Node's types; arena's public Logger is pino's, which needs them.
  const nodeTypes = `@types/node@${repoManifest.devDependencies['@types/node']}`;
  install = await runProcess(
    'npm',
    [
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--prefix',
      folder,
      `./${filename}`,
      nodeTypes,
    ],
    { cwd: folder, env: scratchNpmEnv() },
  );
  writeFileSync(path.join(folder, 'index.ts'), consumerSource);
  writeFileSync(
    path.join(folder, 'tsconfig.json'),
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
  typeCheck = await runProcess(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', folder],
    { cwd: folder },
  );
  // An app that sets nothing gets the compiler's defaults: no compilerOptions at all.
  const defaultsConfig = path.join(folder, 'tsconfig.defaults.json');
  writeFileSync(
    defaultsConfig,
    `${JSON.stringify({ include: ['index.ts', 'node_modules/arena-runtime/dist/**/*.d.ts'] }, null, 2)}\n`,
  );
  defaultsTypeCheck = await runProcess(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', defaultsConfig],
    { cwd: folder },
  );
}, 240_000);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the packed package in a consumer app', () => {
  it('installs the packed tarball, and no devDependency types come with it', () => {
    expect(install.stderr).not.toMatch(/npm error/);
    expect(install.code).toBe(0);
    const installed = path.join(folder, 'node_modules');
    expect(existsSync(path.join(installed, 'arena-runtime/dist/index.d.ts'))).toBe(true);
    expect(existsSync(path.join(installed, '@types/better-sqlite3'))).toBe(false);
  });

  it('type-checks every published declaration with strict nodenext settings and no skipLibCheck', () => {
    // tsc reports on stdout; an empty report is the proof, the exit code the summary.
    expect(`${typeCheck.stdout}${typeCheck.stderr}`).toBe('');
    expect(typeCheck.code).toBe(0);
  });

  it("type-checks the same with the compiler's default settings (a tsconfig without compilerOptions)", () => {
    expect(`${defaultsTypeCheck.stdout}${defaultsTypeCheck.stderr}`).toBe('');
    expect(defaultsTypeCheck.code).toBe(0);
  });
});
