import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagramHtmlPage } from '../../src/diagram/diagramHtml.js';
import { machinesByName } from '../../src/diagram/machineCatalog.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { toSvg } from '../../src/diagram/svg.js';
import { launchChromium } from '../support/browser.js';
import { runArena } from '../support/cli.js';
import { fontGlyphsMissing, smallestSvgLabel } from '../support/pageText.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'arena-diagram-e2e-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('arena diagram', () => {
  it('prints the Mermaid text of each machine, generated from its definition', async () => {
    const names = [...machinesByName.keys()];
    const runs = await Promise.all(names.map((name) => runArena(['diagram', name])));
    runs.forEach(({ code, stdout, stderr }, index) => {
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toBe(toMermaid(machinesByName.get(names[index]!)!));
    });
  });

  it('writes an HTML page with --format html --out, creating the folder', async () => {
    const out = path.join(folder, 'pages', 'judge.html');
    const { code, stdout } = await runArena(['diagram', 'judge', '--format', 'html', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote ${out}\n`);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.includes('<title>arena: judge (judge)</title>')).toBe(true);
  });

  it('exits 2 and names the file when --out cannot be written', async () => {
    const blocker = path.join(folder, 'blocker');
    writeFileSync(blocker, 'a file, not a folder');
    const out = path.join(blocker, 'judge.mmd');
    const { code, stdout, stderr } = await runArena(['diagram', 'judge', '--out', out]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.startsWith(`arena: --out: cannot write ${out}: E`)).toBe(true);
  });

  it('exits 2 and names the machines for an unknown machine', async () => {
    const { code, stdout, stderr } = await runArena(['diagram', 'ctrl']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      "arena: unknown machine 'ctrl': expected one of controller, meta-turn, evaluation-termination, judge, panel, sweep\n",
    );
  });

  it('prints the SVG image with --format svg', async () => {
    const { code, stdout, stderr } = await runArena(['diagram', 'judge', '--format', 'svg']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(toSvg(machinesByName.get('judge')!));
  });

  it('exits 2 for a format it does not write', async () => {
    const { code, stderr } = await runArena(['diagram', 'judge', '--format', 'png']);
    expect(code).toBe(2);
    expect(stderr).toBe("arena: --format must be one of mermaid, html, svg, got 'png'\n");
  });
});

describe('the diagram page in headless Chromium', () => {
  it('draws every machine as SVG offline, without console errors', async () => {
    const file = path.join(folder, 'machines.html');
    const machines = [...machinesByName.values()];
    writeFileSync(
      file,
      diagramHtmlPage({
        title: 'arena machines',
        diagrams: machines.map((machine) => ({ heading: machine.id, mermaid: toMermaid(machine) })),
      }),
    );
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') {
          problems.push(`${message.type()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) problems.push(`request ${request.url()}`);
      });
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('html[data-diagrams="rendered"]', { timeout: 30_000 });
      expect(problems).toEqual([]);
      const drawn = await page.locator('.diagram').evaluateAll((elements) =>
        elements.map((element) => ({
          svgs: element.querySelectorAll('svg').length,
          text: element.textContent ?? '',
        })),
      );
      expect(drawn).toHaveLength(machines.length);
      machines.forEach((machine, index) => {
        const firstState = machine.root.initial?.target[0]?.key;
        expect(firstState).toBeDefined();
        expect(drawn[index]?.svgs).toBe(1);
        expect(drawn[index]?.text).toContain(firstState);
      });
    } finally {
      await browser.close();
    }
  });
});

describe('the `--format html` page in headless Chromium', () => {
  it("shows the judge as arena's SVG drawing, every label whole and inside the image", async () => {
    const out = path.join(folder, 'judge-page.html');
    const { code } = await runArena(['diagram', 'judge', '--format', 'html', '--out', out]);
    expect(code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(toSvg(machinesByName.get('judge')!));
    expect(html.includes('globalThis["mermaid"]')).toBe(false);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await page.goto(pathToFileURL(out).href);
      await page.waitForSelector('html[data-diagrams="rendered"]', { timeout: 30_000 });
      const texts = await page.locator('.diagram svg').evaluate((svg) => {
        const frame = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')].map((text) => {
          const box = text.getBoundingClientRect();
          return {
            text: text.textContent ?? '',
            inside:
              box.width > 0 &&
              box.left >= frame.left &&
              box.right <= frame.right &&
              box.top >= frame.top &&
              box.bottom <= frame.bottom,
          };
        });
      });
      expect(texts.map((entry) => entry.text)).toContain('always [inputTokenBudgetExceeded]');
      expect(texts.filter((entry) => !entry.inside)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('the controller page of `--format html` in headless Chromium', () => {
  it('shows the 2,491 px drawing at its own size, labels at 11 px or more in a frame that scrolls, under one heading', async () => {
    const out = path.join(folder, 'controller-page.html');
    const { code } = await runArena(['diagram', 'controller', '--format', 'html', '--out', out]);
    expect(code).toBe(0);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems = collectProblems(page);
      await page.goto(pathToFileURL(out).href);
      await page.waitForSelector('html[data-diagrams="rendered"]', { timeout: 30_000 });
      expect(await page.locator('h1, h2, h3, h4, h5, h6').allTextContents()).toEqual([
        'arena: simulationController (controller)',
      ]);
      expect(await smallestSvgLabel(page, '.diagram svg')).toBeGreaterThanOrEqual(11);
      const frame = await page.locator('.diagram').evaluate((element) => ({
        scrolls: element.scrollWidth > element.clientWidth,
        right: element.getBoundingClientRect().right,
      }));
      // The page keeps its width: the drawing scrolls inside its frame.
      expect(frame.scrolls).toBe(true);
      expect(frame.right).toBeLessThanOrEqual(1200);
      expect(await fontGlyphsMissing(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('the SVG image in headless Chromium', () => {
  it('loads `arena diagram controller --format svg` as an image with its size, without errors', async () => {
    const svgFile = path.join(folder, 'svg', 'controller.svg');
    const { code, stdout } = await runArena([
      'diagram',
      'controller',
      '--format',
      'svg',
      '--out',
      svgFile,
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote ${svgFile}\n`);
    const svg = readFileSync(svgFile, 'utf8');
    const declared = /^<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg);
    expect(declared).not.toBeNull();
    const pageFile = path.join(folder, 'svg', 'image.html');
    writeFileSync(
      pageFile,
      '<!doctype html><img id="diagram" src="controller.svg" alt="controller">',
    );
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems = collectProblems(page);
      await page.goto(pathToFileURL(pageFile).href);
      const image = await page.locator('#diagram').evaluate(
        (element) =>
          new Promise<{ loaded: boolean; width: number; height: number }>((resolve) => {
            const img = element as unknown as LoadingImage;
            const report = (loaded: boolean) =>
              resolve({ loaded, width: img.naturalWidth, height: img.naturalHeight });
            if (img.complete) report(img.naturalWidth > 0);
            img.addEventListener('load', () => report(true));
            img.addEventListener('error', () => report(false));
          }),
      );
      expect(image).toEqual({
        loaded: true,
        width: Number(declared?.[1]),
        height: Number(declared?.[2]),
      });

      // Opened on its own, the file parses as SVG (an XML error would show a parsererror page).
      await page.goto(pathToFileURL(svgFile).href);
      const root = page.locator(':root');
      expect(await root.evaluate((element) => element.localName)).toBe('svg');
      expect(await page.locator('parsererror').count()).toBe(0);
      const texts = await page.locator('text').allTextContents();
      expect(texts).toContain('simulating');
      expect(texts).toContain('runEpisode done');
      const box = await root.boundingBox();
      expect(box?.width).toBeGreaterThan(0);
      expect(box?.height).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

/** What the test reads of an `<img>` element (the type-check has no DOM library). */
interface LoadingImage {
  readonly complete: boolean;
  readonly naturalWidth: number;
  readonly naturalHeight: number;
  addEventListener(type: 'load' | 'error', listener: () => void): void;
}

/** Console errors and warnings, page errors and requests that leave the machine. */
function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) problems.push(`request ${request.url()}`);
  });
  return problems;
}
