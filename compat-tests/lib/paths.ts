// Where the compat-tests files live, found from the compiled module's own location (dist/compat-tests/...).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'gregor') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`compat-tests: no gregor package.json above ${start}`);
    dir = parent;
  }
}

export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
/** The source folder (scripts, launchers, client projects), not the compiled one. */
export const compatDir = join(repoRoot, 'compat-tests');
export const binDir = join(compatDir, 'bin');
export const cacheDir = process.env.COMPAT_CACHE ?? join(compatDir, '.cache');
export const referenceDir = join(compatDir, 'reference');
export const wireFixturesDir = join(repoRoot, 'test', 'fixtures', 'wire');
