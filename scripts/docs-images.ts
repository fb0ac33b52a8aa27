/**
 * Write the pictures of the manual: docs/images/<machine>.svg, each machine's
 * statechart as `arena diagram <machine> --format svg` draws it from the
 * machine definition. Run it with the other generated pages:
 *
 *     npm run docs
 *
 * test/unit/docs/generatedDocs.test.ts fails when a picture no longer matches.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type MachineName, machinesByName } from '../src/diagram/machineCatalog.js';
import { toSvg } from '../src/diagram/svg.js';

/** The machines the manual shows as pictures: the README's, and the lifecycles page's. */
export const PICTURED_MACHINES: readonly MachineName[] = ['controller', 'evaluation-termination'];

/** Where a machine's picture lives, from the repository root. */
export function imagePath(name: MachineName): string {
  return `docs/images/${name}.svg`;
}

/**
 * The SVG of one pictured machine.
 *
 * @example
 * ```ts
 * renderMachineImage('controller').startsWith('<svg'); // true
 * ```
 */
export function renderMachineImage(name: MachineName): string {
  const machine = machinesByName.get(name);
  if (machine === undefined) throw new Error(`no machine named ${name}`);
  return toSvg(machine);
}

function main(): void {
  for (const name of PICTURED_MACHINES) {
    const target = path.resolve(import.meta.dirname, '..', imagePath(name));
    writeFileSync(target, renderMachineImage(name), 'utf8');
    process.stdout.write(`wrote ${imagePath(name)}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
