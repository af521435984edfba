// Layers import downward only: protocol < config < storage < security < broker < coordinator < server < http < cli. Every import
// (static, type-only, re-export or dynamic) of every file under src/ is read and checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const LAYERS = ['protocol', 'config', 'storage', 'security', 'broker', 'coordinator', 'server', 'http', 'cli'] as const;

// dist/test/architecture.test.js → the repository root.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer a file under src/ belongs to (undefined for the top-level files: index.ts, log.ts...). */
function layerOf(file: string): number | undefined {
  const first = relative(src, file).split(sep)[0]!;
  const index = (LAYERS as readonly string[]).indexOf(first);
  return index < 0 ? undefined : index;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(IMPORT)) specifiers.push((match[1] ?? match[2] ?? match[3])!);
  return specifiers;
}

function upwardImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(src)) {
    const from = layerOf(file);
    if (from === undefined) continue;
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(src + sep)) continue;
      const to = layerOf(target);
      if (to !== undefined && to > from) found.push(`${relative(root, file)} → ${specifier} (${LAYERS[from]} imports ${LAYERS[to]})`);
    }
  }
  return found;
}

test('no file under src/ imports a layer above its own', () => {
  assert.deepEqual(upwardImports(), []);
});

test('the import scanner sees every form of import', () => {
  const sample = [
    "import { a } from './a.js';",
    "import type { B } from '../b.js';",
    "export { c } from './c.js';",
    "export * from './d.js';",
    "const e = await import('./e.js');",
    "import './f.js';",
    "import {\n  g,\n  h,\n} from './gh.js';",
  ].join('\n');
  const specifiers = [...sample.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]);
  assert.deepEqual(specifiers, ['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './gh.js']);
});
