import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  API_REFERENCE_PATH,
  firstSentence,
  renderApiReference,
} from '../../../scripts/docs-api.js';
import { CLI_REFERENCE_PATH, renderCliReference } from '../../../scripts/docs-cli.js';
import { imagePath, PICTURED_MACHINES, renderMachineImage } from '../../../scripts/docs-images.js';
import { createProgram } from '../../../src/cli/program.js';
import { repoRoot } from '../../support/cli.js';

const committed = (file: string): string => readFileSync(path.join(repoRoot, file), 'utf8');
const stale = (file: string): string =>
  `${file} is out of date: regenerate it with \`npm run docs\` and commit the result`;

describe('the generated references', () => {
  it('docs/cli.md is what commander defines today', async () => {
    const page = renderCliReference(await createProgram());
    expect(committed(CLI_REFERENCE_PATH) === page, stale(CLI_REFERENCE_PATH)).toBe(true);
  });

  it('docs/api.md is what the entry points export today', () => {
    const page = renderApiReference(repoRoot);
    expect(committed(API_REFERENCE_PATH) === page, stale(API_REFERENCE_PATH)).toBe(true);
  });

  it.each(PICTURED_MACHINES)('docs/images/%s.svg is the machine as it is drawn today', (name) => {
    expect(committed(imagePath(name)) === renderMachineImage(name), stale(imagePath(name))).toBe(
      true,
    );
  });

  it('names every command and option commander knows, and every exported name', async () => {
    const cli = committed(CLI_REFERENCE_PATH);
    const program = await createProgram();
    for (const command of program.commands.filter((sub) => sub.name() !== 'help')) {
      expect(cli).toContain(`## arena ${command.name()}\n`);
      for (const option of command.options) expect(cli).toContain(`| \`${option.flags}\` |`);
    }
    const api = committed(API_REFERENCE_PATH);
    expect(api).toContain('| `runExperiment` | function |');
    expect(api).toContain('| `TerminationConfigError` | class |');
    expect(api).toContain('## arena-runtime/nats\n');
  });

  it('reads the first sentence of a doc comment, not its tags or the next paragraph', () => {
    const doc = `/**
 * Open the store at a location. SQLite only,
 * as \`openStore\` does.
 *
 * More text.
 * @example
 * \`\`\`ts
 * openStore('x');
 * \`\`\`
 */`;
    expect(firstSentence(doc)).toBe('Open the store at a location.');
    expect(firstSentence('/** One line, no stop */')).toBe('One line, no stop');
    expect(
      firstSentence('/**\n * At an episode end:\n * - after a reason: stop\n * - else: go on\n */'),
    ).toBe('At an episode end:');
    expect(firstSentence(null)).toBe('');
  });
});
