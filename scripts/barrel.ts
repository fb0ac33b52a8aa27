/**
 * Regenerate the explicit export lists of `src/index.ts` from the area
 * barrels it names: `npx tsx scripts/barrel.ts` (then `npx biome check --write src/index.ts`).
 * Each `// from <path>` section of src/index.ts is rewritten with the names that
 * barrel exports, values and types separately, sorted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const indexPath = path.join(root, 'src/index.ts');

function exportsOf(file: string): { values: string[]; types: string[] } {
  const text = readFileSync(path.join(root, 'src', file.replace(/\.js$/, '.ts')), 'utf8');
  const values = new Set<string>();
  const types = new Set<string>();
  for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    const isType = match[1] !== undefined;
    for (const raw of (match[2] ?? '').split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const entryIsType = isType || entry.startsWith('type ');
      const name =
        entry
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .pop()
          ?.trim() ?? '';
      if (name === '') continue;
      (entryIsType ? types : values).add(name);
    }
  }
  for (const match of text.matchAll(
    /export\s+(?:declare\s+)?(?:async\s+)?(const|function|class|interface|type)\s+([A-Za-z0-9_$]+)/g,
  )) {
    (match[1] === 'interface' || match[1] === 'type' ? types : values).add(match[2] as string);
  }
  return { values: [...values].sort(), types: [...types].sort() };
}

/** The areas of the public API, in reading order; each is an area barrel or a module. */
const sections: readonly [title: string, files: readonly string[]][] = [
  ['Shared building blocks', ['domain/shared/index.js']],
  ['Evaluation-aware termination', ['domain/termination/index.js']],
  [
    'The definition layer and the meta-objective',
    ['domain/definition/index.js', 'domain/objective/index.js'],
  ],
  ['Judges', ['domain/judge/index.js']],
  [
    'Machines',
    [
      'machines/evaluationTermination.js',
      'machines/metaTurn.js',
      'machines/metaTurnTypes.js',
      'machines/simulationController.js',
      'machines/simulationControllerTypes.js',
      'machines/judge.js',
    ],
  ],
  [
    'Running machines',
    [
      'actors/index.js',
      'actors/judges.js',
      'actors/judgeFromConfig.js',
      'actors/judgeAgentModule.js',
      'actors/judgeMany.js',
      'actors/inspection.js',
    ],
  ],
  [
    'Run files and configuration',
    ['config/index.js', 'config/judgeConfig.js', 'config/orderedYaml.js'],
  ],
  [
    'Ports and adapters',
    [
      'ports/index.js',
      'ports/runStore.js',
      'ports/modelProvider.js',
      'ports/openaiProvider.js',
      'ports/replayProvider.js',
      'ports/judgeAgent.js',
    ],
  ],
  ['Built-in environments and brains', ['builtins/index.js']],
  ['Diagrams', ['diagram/index.js']],
  ['Run reports', ['report/index.js']],
  ['Fuzzing termination rules', ['fuzz/index.js']],
];

const header = `/**
 * arena's public API: everything a host app may import, area by area.
 * Generated from each area's own explicit barrel by \`npx tsx scripts/barrel.ts\`.
 *
 * @example
 * \`\`\`ts
 * import { createActor } from 'xstate';
 * import { evaluationTerminationMachine } from 'arena-runtime';
 * const actor = createActor(evaluationTerminationMachine, { input: { agents } });
 * \`\`\`
 */
`;

const seen = new Map<string, string>();
const body = sections.map(([title, files]) => {
  const lines = [`// ${title}`];
  for (const file of files) {
    const { values, types } = exportsOf(file);
    const fresh = (name: string) => {
      const first = seen.get(name);
      if (first !== undefined) {
        console.warn(`${name}: exported by ${first} and ${file}; keeping ${first}'s`);
        return false;
      }
      seen.set(name, file);
      return true;
    };
    const ownValues = values.filter(fresh);
    const ownTypes = types.filter(fresh);
    if (ownValues.length > 0) lines.push(`export { ${ownValues.join(', ')} } from './${file}';`);
    if (ownTypes.length > 0) lines.push(`export type { ${ownTypes.join(', ')} } from './${file}';`);
  }
  return lines.join('\n');
});
writeFileSync(indexPath, `${header}\n${body.join('\n\n')}\n`);
console.log('src/index.ts regenerated');
