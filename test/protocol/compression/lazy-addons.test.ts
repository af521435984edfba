// The native addons are mapped only once a codec (or a long CRC) needs them: an idle broker stays small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

const compression = new URL('../../../src/protocol/compression/index.js', import.meta.url).href;
const crc = new URL('../../../src/protocol/crc32c.js', import.meta.url).href;

/** Runs `body` in a fresh process (nothing loaded yet) and returns the addon files it has mapped, per step. */
function addonsMapped(body: string): Record<string, string[]> {
  const script = `
    import { readFileSync } from 'node:fs';
    const mapped = () => [...new Set([...readFileSync('/proc/self/maps', 'utf8').matchAll(/([^/\\s]+)\\.node$/gm)].map((m) => m[1].split('.')[0]))].sort();
    const steps = {};
    const { compress, decompress } = await import(${JSON.stringify(compression)});
    const { crc32c } = await import(${JSON.stringify(crc)});
    steps.imported = mapped();
    ${body}
    console.log(JSON.stringify(steps));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<string, string[]>;
}

test('importing the codecs and CRC-32C maps no native addon; each is loaded by its first use', () => {
  const steps = addonsMapped(`
    crc32c(Buffer.alloc(16));
    steps.shortCrc = mapped();
    crc32c(Buffer.alloc(4096));
    steps.longCrc = mapped();
    const data = Buffer.alloc(1000, 7);
    if (decompress(3, compress(3, data), 1 << 20).compare(data) !== 0) throw new Error('lz4 round trip');
    steps.lz4 = mapped();
    decompress(2, compress(2, data), 1 << 20);
    decompress(4, compress(4, data), 1 << 20);
    steps.all = mapped();`);
  assert.deepEqual(steps.imported, []);
  assert.deepEqual(steps.shortCrc, [], 'short inputs take the JS path');
  assert.deepEqual(steps.longCrc, ['crc32']);
  assert.deepEqual(steps.lz4, ['crc32', 'lz4-napi', 'xxhash']);
  assert.deepEqual(steps.all, ['crc32', 'lz4-napi', 'node-zstd', 'snappy', 'xxhash']);
});
