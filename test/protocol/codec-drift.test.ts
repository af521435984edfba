// The committed generated code must be exactly what scripts/gen-protocol.mjs makes from the specs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const specDir = resolve(repoRoot, '..', 'shared', 'kafka-protocol-4.3.1');

function listFiles(dir: string, base = dir, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listFiles(p, base, out);
    else out.push(relative(base, p));
  }
  return out;
}

function compareTrees(committed: string, fresh: string): void {
  const a = listFiles(committed);
  const b = listFiles(fresh);
  assert.deepEqual(a, b, `${relative(repoRoot, committed)}: the set of generated files differs (run npm run gen:protocol)`);
  for (const file of a) {
    const same = readFileSync(join(committed, file)).equals(readFileSync(join(fresh, file)));
    assert.ok(same, `${relative(repoRoot, committed)}/${file} differs from a fresh generation (run npm run gen:protocol)`);
  }
}

test('committed generated code matches a fresh generation from ../shared/kafka-protocol-4.3.1', (t) => {
  if (!existsSync(join(specDir, 'message'))) {
    t.diagnostic(`no specs at ${specDir}: drift check not run (it runs wherever ../shared/kafka-protocol-4.3.1 exists, as in CI)`);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'gregor-gen-'));
  try {
    const srcOut = join(tmp, 'src');
    const testOut = join(tmp, 'test');
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'gen-protocol.mjs'), specDir, srcOut, testOut], { encoding: 'utf8' });
    assert.equal(run.status, 0, `gen-protocol failed: ${run.stderr}`);
    compareTrees(join(repoRoot, 'src', 'protocol', 'generated'), srcOut);
    compareTrees(join(repoRoot, 'test', 'protocol', 'generated'), testOut);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
