import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { launchChromium } from '../support/browser.js';
import { type RunningProcess, repoRoot, runArena, startProcess } from '../support/cli.js';

// arena's own viewer in a real browser: a live run, a replayed trace, and an embedder's machine.

interface TimelineJson {
  sessionId: string;
  actorId: string;
  machineId: string | null;
  entries: { to: string; status: string }[];
}

let folder: string;
let browser: Browser;
beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-viewer-e2e-'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A page that records every request, console error and state lit on the chart. */
async function openPage(
  url: string,
  viewport = { width: 1280, height: 760 },
): Promise<{
  page: Page;
  requests: string[];
  errors: string[];
  lit: () => Promise<string[]>;
}> {
  const page = await browser.newPage({ viewport });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  // Every state the chart lights, in order, as the page sets data-active.
  await page.addInitScript({
    content: `window.__lit = [];
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target.getAttribute('data-active') === 'true') window.__lit.push(record.target.getAttribute('data-state'));
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-active'] });`,
  });
  await page.goto(url);
  const lit = () => page.evaluate('window.__lit') as Promise<string[]>;
  return { page, requests, errors, lit };
}

/** Resolve with the viewer URL once the process printed it. */
async function viewerUrl(running: RunningProcess): Promise<string> {
  const pattern =
    /arena: viewer at (http:\S+) \(open it in a browser; it loads nothing from the internet\)/;
  for (let waited = 0; waited < 50_000; waited += 20) {
    const match = pattern.exec(running.stderr());
    if (match !== null) return match[1]!;
    if (running.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no viewer URL printed: ${running.stderr()}`);
}

function onlyLocal(requests: readonly string[]): string[] {
  return requests.filter((url) => new URL(url).hostname !== '127.0.0.1');
}

/** Whether `observed` appears in `expected` in order (not necessarily next to each other). */
function isSubsequence(observed: readonly string[], expected: readonly string[]): boolean {
  let at = 0;
  for (const item of observed) {
    while (at < expected.length && expected[at] !== item) at += 1;
    if (at === expected.length) return false;
    at += 1;
  }
  return true;
}

function dedupe(items: readonly string[]): string[] {
  return items.filter((item, index) => index === 0 || items[index - 1] !== item);
}

const tracePath = () => path.join(folder, 'live.jsonl');

describe('arena run --view', () => {
  it("lights the controller's states in the order arena trace records them, live", async () => {
    // The slow fixture's run, short: each step sleeps 10 ms, so a page watches it run.
    const runFile = path.join(folder, 'run.yaml');
    copyFileSync(
      path.join(repoRoot, 'test/fixtures/runs/slow/components.js'),
      path.join(folder, 'components.js'),
    );
    writeFileSync(
      runFile,
      readFileSync(path.join(repoRoot, 'test/fixtures/runs/slow/run.yaml'), 'utf8')
        .replace('delay_ms: 1', 'delay_ms: 10')
        .replace(
          'episodes: 30, evaluate_every: 3, max_steps: 20',
          'episodes: 40, evaluate_every: 4, max_steps: 10',
        ),
    );
    const running = startProcess(
      process.execPath,
      [
        path.join(repoRoot, 'cli/bin/arena.js'),
        'run',
        runFile,
        '--store',
        `sqlite:${path.join(folder, 'live.db')}`,
        '--view-port',
        '0',
        '--view-history',
        '100000',
        '--view-wait',
        '30',
        '--trace',
        tracePath(),
      ],
      { cwd: folder, env: { ...process.env, NO_COLOR: '1' }, timeoutMs: 55_000 },
    );
    const url = await viewerUrl(running);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/$/);
    const { page, requests, errors, lit } = await openPage(url);
    const run = await running.exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('arena: a page has everything; closing the viewer\n');

    const traced = JSON.parse(
      (await runArena(['trace', tracePath(), '--json'])).stdout,
    ) as TimelineJson[];
    const controller = traced.find((actor) => actor.machineId === 'simulationController')!;
    const expected = dedupe(controller.entries.map((entry) => `simulationController.${entry.to}`));
    const observed = dedupe((await lit()).filter((state) => expected.includes(state)));
    expect(observed.length).toBeGreaterThanOrEqual(3);
    expect(
      isSubsequence(observed, expected),
      `${observed.join(' ')}\nin\n${expected.join(' ')}`,
    ).toBe(true);
    expect(observed.at(-1)).toBe(expected.at(-1));

    // Scrubbed from the start to the end, the same page shows the trace's states in its order.
    const total = Number(await page.getAttribute('.scrubber', 'data-total'));
    const row = `[data-session="${controller.sessionId}"]`;
    const scrubbed: string[] = [];
    for (let step = 0; step <= 80; step++) {
      const position = Math.round((step / 80) * total);
      await page.evaluate(`(() => {
        const range = document.querySelector('.scrub-range');
        range.value = '${position}';
        range.dispatchEvent(new Event('input'));
      })()`);
      await page.waitForSelector(`body[data-position="${position}"]`);
      const label = await page.getAttribute(row, 'data-state-label');
      if (label !== null && label !== '') scrubbed.push(`simulationController.${label}`);
    }
    expect(scrubbed.length).toBeGreaterThan(10);
    expect(isSubsequence(dedupe(scrubbed), expected)).toBe(true);
    expect(scrubbed.at(-1)).toBe(expected.at(-1));
    expect(onlyLocal(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('arena view <trace>', () => {
  it('replays a trace from its start; at the end each actor shows its final state as arena trace --json says', async () => {
    expect(existsSync(tracePath())).toBe(true);
    const running = startProcess(
      process.execPath,
      [path.join(repoRoot, 'cli/bin/arena.js'), 'view', 'live.jsonl', '--view-port', '0'],
      { cwd: folder, env: { ...process.env, NO_COLOR: '1' }, timeoutMs: 55_000 },
    );
    const url = await viewerUrl(running);
    const { page, requests, errors } = await openPage(url);
    await page.waitForSelector('[data-actor]');
    expect(await page.getAttribute('.scrubber', 'data-position')).toBe('0');
    await page.click('[data-scrub="end"]');

    const traced = JSON.parse(
      (await runArena(['trace', tracePath(), '--json'])).stdout,
    ) as TimelineJson[];
    const rows = await page.$$eval('[data-session]', (nodes) =>
      nodes.map((node) => ({
        session: node.getAttribute('data-session'),
        actor: node.getAttribute('data-actor'),
        label: node.getAttribute('data-state-label'),
        status: node.getAttribute('data-status'),
      })),
    );
    const shown = traced.filter((actor) => rows.some((row) => row.session === actor.sessionId));
    expect(shown.length).toBeGreaterThanOrEqual(10);
    for (const actor of shown) {
      const last = actor.entries.at(-1)!;
      const row = rows.find((candidate) => candidate.session === actor.sessionId)!;
      expect(row, actor.sessionId).toEqual({
        session: actor.sessionId,
        actor: actor.actorId,
        label: last.to,
        status: last.status,
      });
    }
    const controller = traced.find((actor) => actor.machineId === 'simulationController')!;
    await page.click(`[data-session="${controller.sessionId}"]`);
    await page.waitForSelector(
      `[data-state="simulationController.${controller.entries.at(-1)!.to}"][data-active="true"]`,
    );
    expect(await page.locator('[data-last-transition="true"]').count()).toBe(1);
    // The docs' picture: the controller in the middle of the run, an episode's events listed.
    const middle = Math.round(Number(await page.getAttribute('.scrubber', 'data-total')) * 0.62);
    await page.evaluate(`(() => {
      const range = document.querySelector('.scrub-range');
      range.value = '${middle}';
      range.dispatchEvent(new Event('input'));
    })()`);
    await page.waitForSelector(`body[data-position="${middle}"]`);
    const screenshot = path.join(folder, 'viewer.png');
    await page.screenshot({ path: screenshot });
    if (process.env.ARENA_WRITE_DOCS_IMAGES === '1') {
      mkdirSync(path.join(repoRoot, 'docs/images'), { recursive: true });
      writeFileSync(path.join(repoRoot, 'docs/images/viewer.png'), readFileSync(screenshot));
    }
    expect(onlyLocal(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
    running.child.kill('SIGINT');
    const exited = await running.exited;
    expect(exited.code).toBe(0);
    expect(exited.stderr).toContain('arena: closing the viewer\n');
  });

  it('exits 2 naming the flag for a bad --view-port, --view-history or --view-wait', async () => {
    const bad = await runArena(['view', tracePath(), '--view-port', '70000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--view-port must be a port number from 0 to 65535 (0 picks a free one), got "70000"',
    );
    const store = path.join(folder, 'untouched.db');
    for (const [flag, value, message] of [
      [
        '--view-history',
        '0',
        '--view-history must be a whole number of events per actor from 1 to 100000, got "0"',
      ],
      [
        '--view-history',
        'lots',
        '--view-history must be a whole number of events per actor from 1 to 100000, got "lots"',
      ],
      [
        '--view-port',
        '-1',
        '--view-port must be a port number from 0 to 65535 (0 picks a free one), got "-1"',
      ],
      [
        '--view-wait',
        'soon',
        '--view-wait must be a number of seconds from 0 to 86400, got "soon"',
      ],
    ] as const) {
      const run = await runArena([
        'run',
        'test/fixtures/inspect/short-run.yaml',
        '--store',
        `sqlite:${store}`,
        flag,
        value,
      ]);
      expect(run.code, `${flag} ${value}`).toBe(2);
      expect(run.stderr).toContain(message);
      expect(existsSync(store), 'the store is never created').toBe(false);
    }
  });
});

/** Every row of the actor tree (tall enough a page draws them all): id, machine, state, status. */
function treeRows(page: Page) {
  return page.$$eval('[data-actor]', (nodes) =>
    nodes.map((node) => ({
      actor: node.getAttribute('data-actor') ?? '',
      session: node.getAttribute('data-session') ?? '',
      machine: node.querySelector('.actor-machine')?.textContent ?? '',
      state: node.getAttribute('data-state-label') ?? '',
      status: node.getAttribute('data-status') ?? '',
    })),
  );
}

/** An arena command started in the repository with the viewer on a free port, kept up 30 s for a page. */
function arenaWithView(args: readonly string[], timeoutMs: number): RunningProcess {
  const command = [path.join(repoRoot, 'cli/bin/arena.js'), ...args];
  return startProcess(process.execPath, [...command, '--view-port', '0', '--view-wait', '30'], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    timeoutMs,
  });
}

describe('arena judge --view and arena sweep --view', () => {
  it.each([
    ['in memory', 'judged.jsonl', ['--out']],
    ['into a store (--store, one process)', 'judged.db', ['--store', 'sqlite:']],
  ])("shows each case's judge actor, lit in its final state: %s", async (_how, file, flag) => {
    const target = path.join(folder, file);
    const where = flag.length === 1 ? [flag[0]!, target] : [flag[0]!, `${flag[1]}${target}`];
    const running = arenaWithView(
      ['judge', 'examples/judge/cases.jsonl', '--config', 'examples/judge/replay.yaml', ...where],
      55_000,
    );
    const url = await viewerUrl(running);
    const { page, requests, errors } = await openPage(url);
    const judged = await running.exited;
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stderr).toContain('arena: a page has everything; closing the viewer\n');
    const cases = readFileSync(path.join(repoRoot, 'examples/judge/cases.jsonl'), 'utf8')
      .trim()
      .split('\n');
    await page.waitForFunction(
      `document.querySelectorAll('[data-actor]').length >= ${cases.length}`,
    );
    const judges = (await treeRows(page)).filter((row) => row.machine === 'judge');
    expect(judges).toHaveLength(cases.length);
    for (const row of judges) {
      expect(row.status, row.actor).toBe('done');
      expect(['done', 'exhausted', 'budgetExceeded', 'rejected']).toContain(row.state);
    }
    // the chart of a judge actor lights its final state
    const last = judges.at(-1)!;
    await page.click(`[data-session="${last.session}"]`);
    await page.waitForSelector(`[data-state="judge.${last.state}"][data-active="true"]`, {
      state: 'attached',
    });
    expect(onlyLocal(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a sweep's trials: the sweep's actor and each trial's controller", async () => {
    const running = arenaWithView(
      [
        'sweep',
        'examples/sweep.yaml',
        '--store',
        `sqlite:${path.join(folder, 'sweep.db')}`,
        '--parallel',
        '2',
        '--json',
      ],
      110_000,
    );
    const url = await viewerUrl(running);
    const { page, requests, errors } = await openPage(url, { width: 1280, height: 8000 });
    const swept = await running.exited;
    expect(swept.code, swept.stderr).toBe(0);
    const table = JSON.parse(swept.stdout) as { trials: unknown[] };
    await page.waitForSelector('.connection[data-connected="false"]');
    const rows = await treeRows(page);
    const sweeps = rows.filter((row) => row.machine === 'sweep');
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]!.status).toBe('done');
    // a controller per trial, and another for each run a rung held and then released
    const controllers = rows.filter((row) => row.machine === 'simulationController');
    expect(controllers.length).toBeGreaterThanOrEqual(table.trials.length);
    for (const row of controllers) expect(row.status, row.actor).toBe('done');
    expect(onlyLocal(requests)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('refuses --view where the judging or the trials run elsewhere, exit 2', async () => {
    const judged = await runArena([
      'judge',
      'examples/judge/cases.jsonl',
      '--config',
      'examples/judge/replay.yaml',
      '--nats',
      'nats://127.0.0.1:1',
      '--view',
    ]);
    expect(judged.code).toBe(2);
    expect(judged.stderr).toContain(
      "--view shows the judges of this process, and with --nats the fleet's workers judge, each in its own process",
    );
    const bad = await runArena([
      'sweep',
      'examples/sweep.yaml',
      '--view-history',
      '0',
      '--store',
      `sqlite:${path.join(folder, 'never.db')}`,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--view-history must be a whole number');
    expect(existsSync(path.join(folder, 'never.db'))).toBe(false);
  });
});

describe('startViewer (arena-runtime/inspect)', () => {
  it("draws and lights an embedder's own machine through the exported inspect callback", async () => {
    const { startViewer } = (await import(
      'arena-runtime/inspect'
    )) as typeof import('../../src/entries/inspect.js');
    const vending = createMachine({
      id: 'vending',
      initial: 'idle',
      states: {
        idle: { on: { coin: 'paying' } },
        paying: {
          initial: 'counting',
          states: {
            counting: { on: { enough: 'vending' } },
            vending: { on: { dispensed: '#vending.idle' } },
          },
          on: { refund: 'idle' },
        },
      },
    });
    const viewer = await startViewer({ port: 0, title: 'vending machine' });
    try {
      const actor = createActor(vending, { inspect: viewer.inspect });
      actor.subscribe({ error: () => {} });
      actor.start();
      const { page, requests, errors } = await openPage(viewer.url);
      await page.waitForSelector('[data-state="vending.idle"][data-active="true"]');
      actor.send({ type: 'coin', cardNumber: 'tok', password: 'hunter2' });
      await page.waitForSelector('[data-state="vending.paying.counting"][data-active="true"]');
      expect(await page.getAttribute('[data-state="vending.paying"]', 'data-active')).toBe('true');
      expect(await page.getAttribute('[data-state="vending.idle"]', 'data-active')).toBeNull();
      expect(await page.getAttribute('[data-last-transition="true"]', 'data-edge')).toBe(
        'idle|0|idle|paying',
      );
      actor.send({ type: 'enough' });
      await page.waitForSelector('[data-state="vending.paying.vending"][data-active="true"]');
      expect(await page.getAttribute('[data-last-transition="true"]', 'data-edge')).toBe(
        'paying.counting|0|paying.counting|paying.vending',
      );
      expect(await page.getAttribute('[data-actor]', 'data-actor')).toMatch(/^x:\d+$/);
      const events = await page.textContent('.events');
      expect(events).toContain('"password":"[redacted]"');
      expect(events).not.toContain('hunter2');
      expect(onlyLocal(requests)).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
      actor.stop();
    } finally {
      await viewer.close();
    }
  });
});
