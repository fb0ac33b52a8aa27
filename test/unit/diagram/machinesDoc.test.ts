import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machinesByName } from '../../../src/diagram/machineCatalog.js';
import { markdownDiagrams } from '../../../src/diagram/markdownDiagrams.js';
import { toMermaid } from '../../../src/diagram/mermaid.js';

const docPath = path.resolve(import.meta.dirname, '../../../docs/machines.md');
const regenerate = 'docs/machines.md is out of date: regenerate it with `npm run docs`';

describe('docs/machines.md', () => {
  const blocks = markdownDiagrams(readFileSync(docPath, 'utf8'));

  it('has one diagram block per machine and no other', () => {
    expect([...blocks.keys()], regenerate).toEqual([...machinesByName.keys()]);
  });

  for (const [name, machine] of machinesByName) {
    it(`shows the ${name} machine as its definition draws it`, () => {
      expect(blocks.get(name), regenerate).toBe(toMermaid(machine));
    });
  }
});
