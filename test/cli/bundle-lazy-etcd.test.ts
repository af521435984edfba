// A single broker loads no etcd code: the bundled command reaches the etcd3 client only through import(), which
// runs in cluster mode alone (a static import would be hoisted into every start, gRPC and protobuf with it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MAIN } from './gregor-process.js';

test('the bundled command imports etcd3 only dynamically', () => {
  const bundle = readFileSync(MAIN, 'utf8');
  const uses = [...bundle.matchAll(/.{0,8}["']etcd3["']/g)].map((m) => m[0]);
  assert.ok(uses.length > 0, 'cluster mode is in the bundle');
  for (const use of uses) assert.match(use, /import\(["']etcd3["']$/);
});
