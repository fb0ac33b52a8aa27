import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli.js';

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('single-machine use loads nothing of NATS', () => {
  it('imports the NATS clients only inside src/ports/nats, and that folder only dynamically', () => {
    const natsFolder = path.join(repoRoot, 'src/ports/nats');
    const offenders = sourceFiles(path.join(repoRoot, 'src')).flatMap((file) => {
      if (file.startsWith(natsFolder)) return [];
      const text = readFileSync(file, 'utf8');
      const staticImports = [...text.matchAll(/^(?:import|export)[^;]*?from\s+'([^']+)'/gms)].map(
        (match) => match[1] as string,
      );
      return staticImports
        .filter((source) => source.startsWith('@nats-io/') || /\/nats\//.test(source))
        .map((source) => `${path.relative(repoRoot, file)} imports ${source}`);
    });
    expect(offenders).toEqual([]);
  });
});
