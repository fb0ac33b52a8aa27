import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { repoRoot, runArena } from '../support/cli.js';
import { manualText } from '../support/manual.js';

// The only test that starts the Stately inspector relay.

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-inspect-e2e-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface StatelyEvent {
  type: string;
  name?: string;
  sessionId: string;
  snapshot?: { status?: string; value?: unknown };
  event?: { type?: string };
}

interface InspectedRun {
  /** The page and WebSocket URLs arena printed. */
  readonly urls: Promise<{ page: string; relay: string }>;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Resolves once stderr matches `pattern`. */
  stderrMatches(pattern: RegExp): Promise<void>;
  readonly output: () => { stdout: string; stderr: string };
}

/** Start `arena run` on the short fixture, off a terminal (stdin is a closed pipe). */
function startInspectedRun(name: string, extraArgs: readonly string[]): InspectedRun {
  const child = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'cli/bin/arena.js'),
      'run',
      'test/fixtures/inspect/short-run.yaml',
      '--store',
      `sqlite:${path.join(folder, `${name}.db`)}`,
      '--inspect-port',
      '0',
      ...extraArgs,
    ],
    { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal });
    }),
  );
  let stdout = '';
  let stderr = '';
  const stderrListeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const listener of stderrListeners) listener();
  });
  const stderrMatches = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(stderr)) {
          stderrListeners.delete(check);
          resolve();
        }
      };
      stderrListeners.add(check);
      child.on('exit', () =>
        reject(new Error(`arena exited before printing ${pattern}: ${stderr}`)),
      );
      check();
    });
  const pattern = /inspector at (http:\S+) \(open it in a browser; relay (ws:[^)\s]+)\)/;
  const urls = stderrMatches(pattern).then(() => {
    const match = pattern.exec(stderr)!;
    return { page: match[1]!, relay: match[2]! };
  });
  return { urls, exited, stderrMatches, output: () => ({ stdout, stderr }) };
}

/** A WebSocket viewer that keeps what it receives and how it was closed. */
function watch(relay: string) {
  const received: StatelyEvent[] = [];
  const client = new WebSocket(relay);
  client.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8'))));
  const closedWith = new Promise<number>((resolve) =>
    client.on('close', (code: number) => resolve(code)),
  );
  return { received, closedWith };
}

/** What every viewer of the short run must have seen, from first registration to the end. */
function expectTheWholeRun(received: readonly StatelyEvent[]): void {
  const actors = received.filter((event) => event.type === '@xstate.actor');
  expect(actors.map((event) => event.name)).toEqual(
    expect.arrayContaining(['simulationController', 'termination', 'runEpisode']),
  );
  const root = actors.find((event) => event.name === 'simulationController')!;
  const rootSnapshots = received.filter(
    (event) => event.type === '@xstate.snapshot' && event.sessionId === root.sessionId,
  );
  expect(rootSnapshots.at(-1)?.snapshot).toMatchObject({ status: 'done', value: 'stopped' });
  expect(
    received.some(
      (event) => event.type === '@xstate.event' && event.event?.type === 'episode.ended',
    ),
  ).toBe(true);
}

describe('arena run --inspect', () => {
  it('relays the run to a WebSocket client that connects during it, and exits by itself', async () => {
    const run = startInspectedRun('relay', ['--inspect-wait', '30']);
    const { page, relay } = await run.urls;
    expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const viewer = watch(relay);
    const html = await fetch(page).then((response) => response.text());
    expect(html).toContain('<iframe id="inspector" src="https://stately.ai/inspect">');
    expect(html).toContain(JSON.stringify(relay));

    expect(await run.exited).toEqual({ code: 0, signal: null });
    const { stdout, stderr } = run.output();
    expect(stdout).toContain(': succeeded (seed 11)');
    expect(stderr).toContain('arena: a viewer has the whole run; closing the inspector\n');
    expect(await viewer.closedWith).toBe(1001);
    expectTheWholeRun(viewer.received);
    const root = viewer.received.find((event) => event.name === 'simulationController')!;
    const firstRootSnapshot = viewer.received.find(
      (event) => event.type === '@xstate.snapshot' && event.sessionId === root.sessionId,
    );
    expect(firstRootSnapshot?.snapshot?.value).toBe('idle');
  });

  it('--inspect-wait: a viewer that connects after the run gets all of it, then arena exits', async () => {
    const run = startInspectedRun('wait', ['--inspect-wait', '30']);
    const { page, relay } = await run.urls;
    await run.stderrMatches(/waiting up to 30 s for a viewer/);
    expect(run.output().stderr).toContain(
      `arena: the run is over; waiting up to 30 s for a viewer at ${page} (relay ${relay})\n`,
    );
    const viewer = watch(relay);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output().stderr).toContain(
      'arena: a viewer has the whole run; closing the inspector\n',
    );
    // docs/lifecycles.md quotes the lines that name no port (its runnable block has no viewer)
    const port = new URL(page).port;
    const manual = manualText().replace(/\s+/g, ' ');
    const quoted = run
      .output()
      .stderr.split('\n')
      .filter((line) => line !== '' && !line.includes(`:${port}`));
    expect(quoted).toEqual(['arena: a viewer has the whole run; closing the inspector']);
    for (const line of quoted) expect(manual).toContain(line);
    expect(await viewer.closedWith).toBe(1001);
    expectTheWholeRun(viewer.received);
    // A late viewer is given the registrations first, the root controller's at the head.
    const registrations = viewer.received.findIndex((event) => event.type !== '@xstate.actor');
    expect(registrations).toBeGreaterThan(0);
    expect(viewer.received[0]).toMatchObject({
      type: '@xstate.actor',
      name: 'simulationController',
    });
    const registered = new Set(
      viewer.received.slice(0, registrations).map((event) => event.sessionId),
    );
    expect(viewer.received.every((event) => registered.has(event.sessionId))).toBe(true);
  });

  it('--inspect-wait: without a viewer, gives up after the seconds and exits with the run', async () => {
    const run = startInspectedRun('no-viewer', ['--inspect-wait', '0.2']);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output().stderr).toContain(
      'arena: no viewer connected within 0.2 s; closing the inspector\n',
    );
  });

  it('rejects an --inspect-wait that is not a number of seconds, before the run', async () => {
    const { code, stdout, stderr } = await runArena([
      'run',
      'test/fixtures/inspect/short-run.yaml',
      '--store',
      `sqlite:${path.join(folder, 'bad-wait.db')}`,
      '--inspect-wait',
      'soon',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'arena: --inspect-wait must be a number of seconds from 0 to 86400, got "soon"\n',
    );
  });

  it('reports a taken port in one line with exit code 2', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const { code, stderr } = await runArena([
        'run',
        'test/fixtures/inspect/short-run.yaml',
        '--store',
        `sqlite:${path.join(folder, 'taken.db')}`,
        '--inspect-port',
        String(port),
      ]);
      expect(code).toBe(2);
      expect(stderr).toBe(
        `arena: --inspect: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); choose another port with --inspect-port N (0 for any free port)\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('rejects a port that is not a number', async () => {
    const { code, stderr } = await runArena([
      'run',
      'test/fixtures/inspect/short-run.yaml',
      '--store',
      `sqlite:${path.join(folder, 'bad-port.db')}`,
      '--inspect-port',
      'http',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'arena: --inspect-port must be a port number from 0 to 65535 (0 picks a free one), got "http"\n',
    );
  });
});
