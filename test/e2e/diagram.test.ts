import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagramHtmlPage } from '../../src/diagram/diagramHtml.js';
import { machinesByName } from '../../src/diagram/machineCatalog.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { launchChromium } from '../support/browser.js';
import { runArena } from '../support/cli.js';

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

  it('exits 1 and names the file when --out cannot be written', async () => {
    const blocker = path.join(folder, 'blocker');
    writeFileSync(blocker, 'a file, not a folder');
    const out = path.join(blocker, 'judge.mmd');
    const { code, stdout, stderr } = await runArena(['diagram', 'judge', '--out', out]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.startsWith(`arena: --out: cannot write ${out}: E`)).toBe(true);
  });

  it('exits 2 and names the machines for an unknown machine', async () => {
    const { code, stdout, stderr } = await runArena(['diagram', 'ctrl']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      "arena: unknown machine 'ctrl': expected one of controller, meta-turn, evaluation-termination, judge\n",
    );
  });

  it('exits 2 for a format it does not write', async () => {
    const { code, stderr } = await runArena(['diagram', 'judge', '--format', 'svg']);
    expect(code).toBe(2);
    expect(stderr).toBe("arena: --format must be one of mermaid, html, got 'svg'\n");
  });
});

describe('the diagram page in headless Chromium', () => {
  it('draws all four machines as SVG offline, without console errors', async () => {
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
