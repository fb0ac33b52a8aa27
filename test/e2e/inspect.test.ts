import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { repoRoot, runArena } from '../support/cli.js';

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

describe('arena run --inspect', () => {
  it('relays the run to a WebSocket client and exits by itself when the run is over', async () => {
    const child = spawn(
      process.execPath,
      [
        path.join(repoRoot, 'dist/cli/main.js'),
        'run',
        'test/fixtures/inspect/short-run.yaml',
        '--store',
        `sqlite:${path.join(folder, 'relay.db')}`,
        '--inspect',
        '--inspect-port',
        '0',
      ],
      { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    child.stdin.end();
    const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    let stderr = '';
    const urls = new Promise<{ page: string; relay: string }>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const match = /inspector at (http:\S+) \(open it in a browser; relay (ws:[^)\s]+)\)/.exec(
          stderr,
        );
        if (match) resolve({ page: match[1]!, relay: match[2]! });
      });
      child.on('exit', () => reject(new Error(`arena exited before printing the URL: ${stderr}`)));
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });

    const { page, relay } = await urls;
    expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const received: StatelyEvent[] = [];
    const client = new WebSocket(relay);
    client.on('message', (data: Buffer) => received.push(JSON.parse(data.toString('utf8'))));
    const closedWith = new Promise<number>((resolve) =>
      client.on('close', (code: number) => resolve(code)),
    );
    const html = await fetch(page).then((response) => response.text());
    expect(html).toContain('<iframe id="inspector" src="https://stately.ai/inspect">');
    expect(html).toContain(JSON.stringify(relay));

    const { code, signal } = await exited;
    clearTimeout(killer);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stdout).toContain(': succeeded (seed 11)');
    expect(await closedWith).toBe(1001);

    const actors = received.filter((event) => event.type === '@xstate.actor');
    expect(actors.map((event) => event.name)).toEqual(
      expect.arrayContaining(['simulationController', 'termination', 'runEpisode']),
    );
    const root = actors.find((event) => event.name === 'simulationController')!;
    const rootSnapshots = received.filter(
      (event) => event.type === '@xstate.snapshot' && event.sessionId === root.sessionId,
    );
    expect(rootSnapshots[0]?.snapshot?.value).toBe('idle');
    expect(rootSnapshots.at(-1)?.snapshot).toMatchObject({ status: 'done', value: 'stopped' });
    expect(
      received.some(
        (event) => event.type === '@xstate.event' && event.event?.type === 'episode.ended',
      ),
    ).toBe(true);
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
