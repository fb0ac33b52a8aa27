import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { type CliRun, runArena } from '../support/cli.js';

/** What the test reads of a chart's canvas (the type check has no DOM types). */
interface ChartCanvas {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, width: number, height: number): { data: ArrayLike<number> };
  };
}

let folder: string;
let storeUri: string;
let meteredRunId: string;
let plateauRunId: string;
let feedersRunId: string;
/** The reports `arena report` wrote, and what it printed doing so. */
let meteredReport: string;
let plateauReport: string;
let feedersReport: string;
let meteredWrite: CliRun;
let plateauWrite: CliRun;

async function storedRun(example: string): Promise<string> {
  const { code, stdout, stderr } = await runArena(['run', example, '--store', storeUri, '--json']);
  if (code !== 0) throw new Error(`arena run ${example} exited ${code}: ${stderr}`);
  return (JSON.parse(stdout) as { runId: string }).runId;
}

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-report-e2e-'));
  storeUri = `sqlite:${path.join(folder, 'arena.db')}`;
  meteredRunId = await storedRun('examples/hosting-capacity.yaml');
  plateauRunId = await storedRun('examples/cap-free-plateau.yaml');
  feedersRunId = await storedRun('examples/two-feeders.yaml');
  meteredReport = path.join(folder, 'reports', 'hosting.html');
  plateauReport = path.join(folder, `${plateauRunId}.html`);
  meteredWrite = await runArena([
    'report',
    meteredRunId,
    '--store',
    storeUri,
    '--out',
    meteredReport,
  ]);
  plateauWrite = await runArena(['report', plateauRunId, '--store', storeUri], { cwd: folder });
  feedersReport = path.join(folder, 'feeders.html');
  const feedersWrite = await runArena([
    'report',
    feedersRunId,
    '--store',
    storeUri,
    '--out',
    feedersReport,
  ]);
  if (feedersWrite.code !== 0)
    throw new Error(`arena report exited ${feedersWrite.code}: ${feedersWrite.stderr}`);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('arena report', () => {
  it('writes a self-contained HTML page for a stored run and says where', () => {
    expect(meteredWrite.stderr).toBe('');
    expect(meteredWrite.code).toBe(0);
    expect(meteredWrite.stdout).toBe(`wrote ${meteredReport}\n`);
    const html = readFileSync(meteredReport, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.includes(`arena run report: ${meteredRunId}`)).toBe(true);
  });

  it('writes <run-id>.html in the current folder without --out, and prints the page with --out -', async () => {
    expect(plateauWrite.code).toBe(0);
    expect(plateauWrite.stdout).toBe(`wrote ${plateauRunId}.html\n`);
    const printed = await runArena(['report', plateauRunId, '--store', storeUri, '--out', '-']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(readFileSync(plateauReport, 'utf8'));
  });

  it('exits 2 and names the file when --out cannot be written, and writes nothing', async () => {
    const blocker = path.join(folder, 'blocker');
    writeFileSync(blocker, 'a file, not a folder');
    const out = path.join(blocker, 'report.html');
    const { code, stdout, stderr } = await runArena([
      'report',
      plateauRunId,
      '--store',
      storeUri,
      '--out',
      out,
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.startsWith(`arena: --out: cannot write ${out}: E`)).toBe(true);
    expect(readFileSync(blocker, 'utf8')).toBe('a file, not a folder');
  });

  it('names the store and exits 2 for a run it does not have', async () => {
    const { code, stdout, stderr } = await runArena(['report', 'no-such-run', '--store', storeUri]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `arena: no run 'no-such-run' in ${path.join(folder, 'arena.db')} (arena runs --store sqlite:${path.join(folder, 'arena.db')} lists the runs)\n`,
    );
  });
});

describe('the report in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Open a report written by `arena report`, collecting console problems and outside requests. */
  async function openReport(file: string) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) problems.push(`request: ${request.url()}`);
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('html[data-charts="rendered"][data-diagrams="rendered"]', {
      timeout: 30_000,
    });
    return { page, problems };
  }

  /** The dataset labels of every chart, in page order. */
  function chartLabels(page: Page): Promise<string[][]> {
    return page.evaluate(() =>
      (
        globalThis as unknown as {
          arenaCharts: Array<{ data: { datasets: Array<{ label: string }> } }>;
        }
      ).arenaCharts.map((chart) => chart.data.datasets.map((dataset) => dataset.label)),
    );
  }

  /** How many pixels each chart painted on its canvas. */
  function paintedPixels(page: Page): Promise<number[]> {
    return page.evaluate(() =>
      (globalThis as unknown as { arenaCharts: Array<{ canvas: ChartCanvas }> }).arenaCharts.map(
        ({ canvas }) => {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          let painted = 0;
          for (let alpha = 3; alpha < data.length; alpha += 4) if (data[alpha] !== 0) painted += 1;
          return painted;
        },
      ),
    );
  }

  it('loads without console errors or network, draws every chart and the lifecycle diagram', async () => {
    const { page, problems } = await openReport(meteredReport);
    try {
      const canvases = await page.locator('canvas[data-chart]').count();
      expect(canvases).toBeGreaterThanOrEqual(3);
      const painted = await paintedPixels(page);
      expect(painted).toHaveLength(canvases);
      for (const pixels of painted) expect(pixels).toBeGreaterThan(2_000);
      const labels = await chartLabels(page);
      const objective = labels.find((chart) => chart[0] === 'operator objective') ?? [];
      expect(objective[1]).toBe('success threshold ≥ 33');
      expect(objective[2]).toBe('smoothed: mean of the last 2 (the plateau rule reads it)');
      expect(objective[3]).toMatch(/^best smoothed -?\d+(\.\d+)? \(after \d+ training episodes\)$/);
      expect(await page.locator('.lifecycle .diagram svg').count()).toBe(1);
      expect(await page.locator('.lifecycle .diagram svg title').first().textContent()).toBe(
        'simulationController',
      );
      expect(await page.locator('.lifecycle .diagram svg').textContent()).toContain(
        'episodeBarrier',
      );
      expect(await page.locator('table.meta td').first().textContent()).toBe(
        'midas.definition.pv_bus_6_peak_mw',
      );
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("opens with the study's answer: chosen PV size against each phase's outcome, on the first screen", async () => {
    const { page, problems } = await openReport(meteredReport);
    try {
      const [first] = await chartLabels(page);
      expect(first?.[0]).toBe('phase outcome');
      expect(first?.[1]).toMatch(/^last decision \(test\): \d+(\.\d+)?$/);
      const chartBottom = await page
        .locator('section.study canvas')
        .first()
        .evaluate((canvas) => canvas.getBoundingClientRect().bottom);
      expect(chartBottom).toBeLessThan(900);
      const findings = await page.locator('ul.findings li').allTextContents();
      expect(findings[0]).toMatch(
        /^The best outcome is -?[\d.]+ \(evaluation mean return\) in phase explore_\d, with midas\.definition\.pv_bus_6_peak_mw = [\d.]+\.$/,
      );
      expect(findings[1]).toMatch(/^Best outcome per midas\.definition\.pv_bus_6_peak_mw: /);
      expect(await page.locator('table.study-table tbody tr').count()).toBe(7);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('says a constant metric is constant instead of drawing a flat chart', async () => {
    const { page, problems } = await openReport(meteredReport);
    try {
      const labels = await chartLabels(page);
      expect(labels.some((chart) => chart[0] === 'operator episodes')).toBe(false);
      expect(await page.locator('p.constant').first().textContent()).toMatch(
        /^operator episodes is 1 at all \d+ checkpoints \(constant\)\.$/,
      );
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('draws the returns of each agent of two-feeders, the learner beside the random baseline', async () => {
    const { page, problems } = await openReport(feedersReport);
    try {
      const labels = await chartLabels(page);
      expect(labels).toContainEqual(['north_operator training', 'south_operator training']);
      expect(labels).toContainEqual(['north_operator test', 'south_operator test']);
      // The test phase runs 2 episodes: its axis is ticked at 1 and 2, never between.
      const episodeTicks = await page.evaluate(() =>
        (
          globalThis as unknown as {
            arenaCharts: Array<{ scales: { x: { ticks: Array<{ value: number }> } } }>;
          }
        ).arenaCharts.map((chart) => chart.scales.x.ticks.map((tick) => tick.value)),
      );
      expect(episodeTicks.at(-1)).toEqual([1, 2]);
      expect((await paintedPixels(page)).every((pixels) => pixels > 2_000)).toBe(true);
      expect(await page.locator('section.study').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows the evidence that ended a plateaued phase and stars the same best on the smoothed series', async () => {
    const { page, problems } = await openReport(plateauReport);
    try {
      expect(await page.locator('.reason strong').first().textContent()).toBe('plateau');
      const evidence = (await page.locator('.evidence').first().textContent()) ?? '';
      expect(evidence).toMatch(
        /^plateau: operator objective \(maximize, window \d+\) did not improve by [\d.]+ on its best /,
      );
      const best = evidence.match(/on its best (-?[\d.]+) /)?.[1];
      expect(best).toBeDefined();
      const labels = await chartLabels(page);
      const objective = labels.find((chart) => chart[0] === 'operator objective') ?? [];
      expect(objective.at(-1)).toMatch(
        new RegExp(
          `^best smoothed ${best?.replace('.', '\\.')} \\(after \\d+ training episodes\\)$`,
        ),
      );
      expect((await paintedPixels(page)).every((pixels) => pixels > 2_000)).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
