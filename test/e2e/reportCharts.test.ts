import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { runArena } from '../support/cli.js';
import { fontGlyphsMissing, smallestSvgLabel, type TextBox } from '../support/pageText.js';

/** What the tests read of a drawn chart (measured in CSS pixels of its canvas). */
interface DrawnChart {
  readonly title: string;
  readonly canvas: { readonly width: number; readonly height: number };
  readonly area: { left: number; right: number; top: number; bottom: number };
  readonly points: ReadonlyArray<{
    dataset: string;
    style: string;
    x: number;
    y: number;
    radius: number;
    value: number;
  }>;
  readonly labels: readonly TextBox[];
  readonly legend: ReadonlyArray<{ text: string; swatch: string; mark: string; colour: boolean }>;
  readonly axisTitles: ReadonlyArray<{ text: string; length: number; room: number }>;
}

/** Chart.js objects in the page, which the type check knows nothing of. */
// biome-ignore lint/suspicious/noExplicitAny: the one loose type of this file, for Chart.js in the page.
type Loose = any;

let folder: string;
let studyReport: string;
let loopReport: string;
let browser: Browser;

async function reportOf(example: string, store: string, out: string): Promise<void> {
  const run = await runArena(['run', example, '--store', store, '--json']);
  if (run.code !== 0) throw new Error(`arena run ${example} exited ${run.code}: ${run.stderr}`);
  const { runId } = JSON.parse(run.stdout) as { runId: string };
  const report = await runArena(['report', runId, '--store', store, '--out', out]);
  if (report.code !== 0) throw new Error(`arena report exited ${report.code}: ${report.stderr}`);
}

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-report-charts-'));
  const store = `sqlite:${path.join(folder, 'arena.db')}`;
  studyReport = path.join(folder, 'study.html');
  loopReport = path.join(folder, 'loop.html');
  await reportOf('examples/hosting-capacity.yaml', store, studyReport);
  await reportOf('examples/hosting-capacity-loop.yaml', store, loopReport);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function openPage(file: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('html[data-charts="rendered"]', { timeout: 30_000 });
  return page;
}

/** Every chart of the page as it was drawn: its points, point labels, legend and axis titles. */
function drawnCharts(page: Page): Promise<DrawnChart[]> {
  return page.evaluate(() => {
    const charts = (globalThis as unknown as { arenaCharts: Loose[] }).arenaCharts;
    return charts.map((chart) => {
      const points = chart.data.datasets.flatMap((dataset: Loose, index: number) =>
        chart.getDatasetMeta(index).data.map((element: Loose, pointIndex: number) => ({
          dataset: dataset.label,
          style: String(element.options.pointStyle),
          x: element.x,
          y: element.y,
          radius: element.options.radius,
          value: dataset.data[pointIndex].y,
        })),
      );
      const legendOptions = chart.legend.options.labels;
      const legend = chart.legend.legendItems.map((item: Loose) => {
        const dataset = chart.data.datasets[item.datasetIndex];
        const element = chart.getDatasetMeta(item.datasetIndex).data[0];
        const marked = dataset.showLine === false || (element?.options.radius ?? 0) > 0;
        return {
          text: item.text,
          swatch: legendOptions.usePointStyle ? String(item.pointStyle) : 'box',
          mark: marked ? String(element.options.pointStyle) : 'line',
          colour: item.strokeStyle === dataset.borderColor,
        };
      });
      const context = chart.ctx;
      const axisTitles = Object.values(chart.scales)
        .filter((scale: Loose) => scale.options.title?.display)
        .map((scale: Loose) => {
          const font = scale.options.title.font ?? {};
          context.save();
          context.font = `${font.size ?? 12}px ${font.family ?? 'sans-serif'}`;
          const length = context.measureText(scale.options.title.text).width;
          context.restore();
          // The title is centred on the axis: it fits when it reaches neither end of the canvas.
          const vertical =
            scale.axis === 'y' || scale.axis === 'r' || scale.isHorizontal() === false;
          const middle = vertical ? (scale.top + scale.bottom) / 2 : (scale.left + scale.right) / 2;
          const end = vertical ? chart.height : chart.width;
          return {
            text: scale.options.title.text,
            length,
            room: 2 * Math.min(middle, end - middle),
          };
        });
      return {
        title: chart.options.plugins.title.text,
        canvas: { width: chart.width, height: chart.height },
        area: { ...chart.chartArea },
        points,
        labels: chart.arenaPointLabels ?? [],
        legend,
        axisTitles,
      };
    });
  });
}

const overlaps = (a: TextBox, b: TextBox): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const pointBox = (point: DrawnChart['points'][number]): TextBox => ({
  text: point.dataset,
  left: point.x - point.radius,
  right: point.x + point.radius,
  top: point.y - point.radius,
  bottom: point.y + point.radius,
});
const inside = (box: TextBox, area: DrawnChart['area']): boolean =>
  box.left >= area.left - 0.5 &&
  box.right <= area.right + 0.5 &&
  box.top >= area.top - 0.5 &&
  box.bottom <= area.bottom + 0.5;

function studyChart(charts: DrawnChart[]): DrawnChart {
  const chart = charts.find((entry) => entry.title.includes('chosen by the meta agent'));
  if (chart === undefined) throw new Error('no study chart');
  return chart;
}

describe("the study's-answer chart in headless Chromium", () => {
  for (const [name, file] of [
    ['hosting-capacity', () => studyReport],
    ['hosting-capacity-loop', () => loopReport],
  ] as const) {
    it(`draws every phase of ${name} as its own mark, labelled beside it and inside the chart`, async () => {
      const page = await openPage(file());
      try {
        const chart = studyChart(await drawnCharts(page));
        const phases = chart.points.filter((point) => point.dataset === 'phase outcome');
        expect(phases.length).toBe(7);
        const marks = chart.points.filter((point) => !point.dataset.startsWith('last decision'));
        for (const [index, mark] of marks.entries()) {
          for (const other of marks.slice(index + 1)) {
            expect(overlaps(pointBox(mark), pointBox(other)), `${mark.value} ${other.value}`).toBe(
              false,
            );
          }
          expect(inside(pointBox(mark), chart.area)).toBe(true);
        }
        expect(chart.labels.map((label) => label.text.split(' ')[0])).toHaveLength(7);
        for (const [index, label] of chart.labels.entries()) {
          expect(inside(label, chart.area), label.text).toBe(true);
          for (const other of chart.labels.slice(index + 1)) {
            expect(overlaps(label, other), `${label.text} / ${other.text}`).toBe(false);
          }
          for (const point of chart.points) {
            expect(overlaps(label, pointBox(point)), `${label.text} on ${point.value}`).toBe(false);
          }
          // At its point's height: the label's box is within a line of the mark it names.
          const mark = phases[index] as (typeof phases)[number];
          const centre = (label.top + label.bottom) / 2;
          expect(Math.abs(centre - mark.y), label.text).toBeLessThanOrEqual(mark.radius + 16);
        }
        const star = chart.points.find((point) => point.dataset.startsWith('last decision'));
        expect(star).toBeDefined();
        expect(inside(pointBox(star as (typeof chart.points)[number]), chart.area)).toBe(true);
      } finally {
        await page.close();
      }
    });
  }

  it('keeps the 11 MW collapse off the scale, so the outcomes near the peak stand apart', async () => {
    const page = await openPage(studyReport);
    try {
      const chart = studyChart(await drawnCharts(page));
      const labels = chart.labels.map((label) => label.text);
      expect(labels).toContain('explore_5 -193.751 (off scale)');
      expect(labels).toContain('explore_2 29.9433');
      const phases = chart.points.filter((point) => point.dataset === 'phase outcome');
      const at = (value: number) =>
        phases.find((point) => Math.abs(point.value - value) < 0.01) as (typeof phases)[number];
      // 29.9433 (explore_2) and 27.2035 (explore_3): apart by more than a mark's radius.
      expect(at(27.2035).y - at(29.9433).y).toBeGreaterThan(at(29.9433).radius);
      const inScale = phases.filter((point) => point.style !== 'triangle');
      for (const point of inScale) {
        for (const other of inScale) {
          if (point.value > other.value) expect(point.y).toBeLessThan(other.y);
        }
      }
      expect(phases.filter((point) => point.style === 'triangle')).toHaveLength(1);
    } finally {
      await page.close();
    }
  });
});

describe('every chart of the reports in headless Chromium', () => {
  it('draws each legend swatch as the mark it stands for, in its colour', async () => {
    for (const file of [studyReport, loopReport]) {
      const page = await openPage(file);
      try {
        for (const chart of await drawnCharts(page)) {
          for (const item of chart.legend) {
            expect({ chart: chart.title, text: item.text, swatch: item.swatch }).toEqual({
              chart: chart.title,
              text: item.text,
              swatch: item.mark,
            });
            expect(item.colour).toBe(true);
          }
        }
      } finally {
        await page.close();
      }
    }
  });

  it('keeps every axis title whole and every starred best inside its chart', async () => {
    for (const file of [studyReport, loopReport]) {
      const page = await openPage(file);
      try {
        for (const chart of await drawnCharts(page)) {
          for (const title of chart.axisTitles) {
            expect(title.length, `${chart.title}: ${title.text}`).toBeLessThanOrEqual(title.room);
          }
          for (const star of chart.points.filter((point) => point.style === 'star')) {
            expect(inside(pointBox(star), chart.area), `${chart.title}: ${star.dataset}`).toBe(
              true,
            );
          }
        }
      } finally {
        await page.close();
      }
    }
  });

  it('renders every character of the page text with a glyph of the fonts it names', async () => {
    const page = await openPage(studyReport);
    try {
      const text = await page.locator('ul.findings').textContent();
      expect(text).toContain('29.9433');
      expect(await fontGlyphsMissing(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("draws the controller's lifecycle with labels of 11 px or more, in a frame that scrolls", async () => {
    const page = await openPage(studyReport);
    try {
      expect(await smallestSvgLabel(page, '.lifecycle .diagram svg')).toBeGreaterThanOrEqual(11);
      const scrolls = await page
        .locator('.lifecycle .diagram')
        .evaluate((element) => element.scrollWidth > element.clientWidth);
      expect(scrolls).toBe(true);
    } finally {
      await page.close();
    }
  });
});
