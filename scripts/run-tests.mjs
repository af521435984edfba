// Runs every compiled test file (dist/{test,bench/test,compat-tests/test}/**/*.test.js) with node's test runner.
// Node 20's `node --test` does not expand globs, so the list is built here.
//   node scripts/run-tests.mjs [--unit] [path-substring...]
// First it installs the real peers the end-to-end tests run against (Apache Kafka's tools from Maven
// Central, kcat and openssl from Debian, confluent-kafka from PyPI); each installer is idempotent and cached.
// --unit runs only what needs none of them: every file outside dist/test/e2e/ (the convention: a test that runs
// Java, kcat, Python or another peer that is not an npm package lives in test/e2e/), and installs nothing.
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { spawnSync } from 'node:child_process';

/** Where the tests that need peers beyond node and the npm dependencies live. */
const PEER_TESTS = join('dist', 'test', 'e2e') + sep;
/**
 * Each test file fails after this long (on Node 20 --test-timeout bounds a whole file, as the runner runs it as one
 * test; on later lines each test too), so a hung test fails the run instead of holding it. In a full run here (986
 * tests in 6 min on 2 shared cores) the slowest tests took 105 s and 97 s (the Java tools' admin and group output)
 * and 92 s (frame fuzzing): the slowest file fits several times over.
 */
const TEST_TIMEOUT_MS = 15 * 60_000;

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

const args = process.argv.slice(2);
const unit = args.includes('--unit');
const filter = args.filter((a) => a !== '--unit');
let files = ['dist/test', 'dist/bench/test', 'dist/compat-tests/test'].flatMap((dir) => collect(dir, []));
if (unit) files = files.filter((f) => !f.startsWith(PEER_TESTS));
if (filter.length > 0) files = files.filter((f) => filter.some((part) => f.includes(part)));
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
const PEER_INSTALLERS = [
  'compat-tests/reference/install.sh',
  'compat-tests/clients/kcat/install.sh',
  'compat-tests/clients/python/install.sh',
  'scripts/install-openssl.sh',
  'scripts/install-prometheus.sh',
];
for (const installer of unit ? [] : PEER_INSTALLERS) {
  const started = Date.now();
  const step = spawnSync('bash', [installer], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (step.status !== 0) {
    console.error(`${installer} failed (exit ${step.status}); the end-to-end tests need what it installs`);
    process.exit(1);
  }
  console.error(`installed peers: ${installer} (${Date.now() - started} ms)`);
}

const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', `--test-timeout=${TEST_TIMEOUT_MS}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
