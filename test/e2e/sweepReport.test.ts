import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { runArena } from '../support/cli.js';

let folder: string;
let browser: Browser;
beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-sweep-report-'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Chart.js objects in the page, which the type check knows nothing of. */
// biome-ignore lint/suspicious/noExplicitAny: Chart.js in the page.
type Loose = any;

describe('arena report <sweep-id>', () => {
  it('draws each trial objective per checkpoint, a pruned trial ending crossed at its rung, with the leaderboard and the decisions', async () => {
    const store = `sqlite:${path.join(folder, 'arena.db')}`;
    const swept = await runArena(['sweep', 'examples/sweep.yaml', '--store', store, '--json']);
    expect(swept.code, swept.stderr).toBe(0);
    const table = JSON.parse(swept.stdout) as {
      sweepId: string;
      trials: { index: number; status: string; prunedAt: { checkpoints: number } | null }[];
    };
    const out = path.join(folder, 'sweep.html');
    const report = await runArena(['report', table.sweepId, '--store', store, '--out', out]);
    expect(report.code, report.stderr).toBe(0);

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(pathToFileURL(out).href);
    await page.waitForSelector('html[data-charts="rendered"]', { timeout: 30_000 });
    const drawn = await page.evaluate(() => {
      const [chart] = (globalThis as unknown as { arenaCharts: Loose[] }).arenaCharts;
      return chart.data.datasets.map((dataset: Loose, index: number) => ({
        label: dataset.label as string,
        points: chart.getDatasetMeta(index).data.length as number,
        lastX: dataset.data.at(-1)?.x as number,
        lastStyle: (Array.isArray(dataset.pointStyle)
          ? dataset.pointStyle.at(-1)
          : dataset.pointStyle) as string,
      }));
    });
    const trials = drawn.filter((dataset: { label: string }) => dataset.label.startsWith('trial '));
    expect(trials).toHaveLength(8);
    expect(
      drawn.filter((dataset: { label: string }) => dataset.label.startsWith('rung ')),
    ).toHaveLength(2);
    for (const row of table.trials.filter((trial) => trial.status === 'pruned')) {
      const line = trials.find((dataset: { label: string }) =>
        dataset.label.startsWith(`trial ${row.index} (`),
      );
      expect(line?.label).toMatch(/: pruned at rung \d$/);
      expect(line?.lastX).toBe(row.prunedAt?.checkpoints);
      expect(line?.lastStyle).toBe('crossRot');
    }
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('Leaderboard');
    expect(text).toMatch(/pruned at rung 1 \(3\)/);
    expect(await page.locator('table tbody tr').count()).toBe(2);
    await page.close();
  }, 120_000);
});
