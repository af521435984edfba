// Runs every compiled test file (dist/{test,bench/test,compat-tests/test}/**/*.test.js) with node's test runner.
// Node 20's `node --test` does not expand globs, so the list is built here.
// First it installs the real peers the end-to-end tests run against (Apache Kafka's tools from Maven
// Central, kcat from Debian, confluent-kafka from PyPI); each installer is idempotent and cached.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir, out) {
  let entries;
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = ['dist/test', 'dist/bench/test', 'dist/compat-tests/test'].flatMap((dir) => collect(dir, []));
if (filter.length > 0) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
const PEER_INSTALLERS = [
  'compat-tests/reference/install.sh',
  'compat-tests/clients/kcat/install.sh',
  'compat-tests/clients/python/install.sh',
];
for (const installer of PEER_INSTALLERS) {
  const started = Date.now();
  const step = spawnSync('bash', [installer], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (step.status !== 0) {
    console.error(`${installer} failed (exit ${step.status}); the end-to-end tests need what it installs`);
    process.exit(1);
  }
  console.error(`installed peers: ${installer} (${Date.now() - started} ms)`);
}

const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
