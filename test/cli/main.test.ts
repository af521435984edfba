// Runs the built `gregor` command as a user would, and checks its exit status and output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { apiVersions, remainingLines, run, spawnGregor, untilStarted, waitForExit } from './gregor-process.js';

function assertOneLineUsageError(result: ReturnType<typeof run>, ...fragments: string[]): void {
  assert.equal(result.status, 2, `exit status 2, stderr: ${result.stderr}`);
  const lines = result.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${result.stderr}`);
  for (const fragment of fragments) assert.ok(lines[0]!.includes(fragment), `${JSON.stringify(fragment)} in ${lines[0]}`);
  assert.equal(result.stdout, '');
}

test('a bad value from --override exits 2 with one line naming the key and what it accepts', () => {
  assertOneLineUsageError(run(['--override', 'num.partitions=0']), 'num.partitions', 'expects a 32-bit integer in [1,...]');
  assertOneLineUsageError(run(['start', '-o', 'log.cleanup.policy=forever']), 'log.cleanup.policy', '[compact, delete]');
});

test('a bad value from the environment exits 2 the same way', () => {
  assertOneLineUsageError(run([], { GREGOR_AUTO_CREATE_TOPICS_ENABLE: 'maybe' }), 'auto.create.topics.enable', 'true or false');
  assertOneLineUsageError(run([], { GREGOR_LISTENERS: 'CLIENT://:9093' }), 'listeners', 'CLIENT:PLAINTEXT');
});

test('a bad value names where it came from: the config file, the environment variable or the flag', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cli-source-'));
  try {
    const file = join(dir, 'server.properties');
    writeFileSync(file, 'num.partitions=0\n');
    assertOneLineUsageError(run(['--config', file]), `config file ${file}: `, 'num.partitions', '[1,...]');
    assertOneLineUsageError(run([], { GREGOR_NUM_PARTITIONS: 'x' }), 'environment variable GREGOR_NUM_PARTITIONS: ', 'num.partitions');
    // --port rewrites the listeners the environment gave: an error in them is the variable's.
    assertOneLineUsageError(run(['--port', '1'], { GREGOR_LISTENERS: 'nonsense' }), 'environment variable GREGOR_LISTENERS: ', 'listeners');
    assertOneLineUsageError(run(['--listeners', 'nonsense']), '--listeners: ', 'listeners');
    assertOneLineUsageError(run(['-o', 'num.partitions=0']), '--override: ', 'num.partitions');
    // The highest-precedence source is the one named.
    assertOneLineUsageError(run(['--config', file], { GREGOR_NUM_PARTITIONS: '-1' }), 'environment variable GREGOR_NUM_PARTITIONS: ', '"-1"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an option without its value exits 2, as the help says', () => {
  assertOneLineUsageError(run(['--port']), 'port', 'see gregor --help');
  assertOneLineUsageError(run(['-p']), 'p', 'see gregor --help');
  assertOneLineUsageError(run(['--config']), 'config');
  assertOneLineUsageError(run(['--in-memory', '--data-dir']), 'data-dir');
});

test('bad flags and files exit 2 with one line', () => {
  assertOneLineUsageError(run(['--port', '70000']), '--port', '65535');
  assertOneLineUsageError(run(['--bogus-flag']), 'bogus-flag');
  assertOneLineUsageError(run(['--log-level', 'loud']), 'log-level', 'loud');
  assertOneLineUsageError(run(['--config', '/no/such/file.properties']), '/no/such/file.properties');
  assertOneLineUsageError(run(['--override', 'novalue']), '--override', 'key=value');
});

test('--help describes every option, the sources of settings and the exit statuses', () => {
  const result = run(['--help']);
  assert.equal(result.status, 0);
  for (const option of ['--config', '--override', '--port', '--host', '--listeners', '--advertised-listeners',
    '--data-dir', '--in-memory', '--log-level', '--log-format', '--list-configs', '--version', '--help']) {
    assert.ok(result.stdout.includes(option), option);
  }
  assert.match(result.stdout, /GREGOR_/);
  assert.match(result.stdout, /--config file < GREGOR_\* environment < --override < shortcut flags/);
  assert.match(result.stdout, /Exit status/);
});

test('--list-configs prints every key with its default and environment name', () => {
  const result = run(['--list-configs']);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /^num\.partitions\n.*\n.*default 1; valid \[1,\.\.\.\]; read-only; env GREGOR_NUM_PARTITIONS$/m);
  assert.match(result.stdout, /^group\.initial\.rebalance\.delay\.ms\n.*\n.*Kafka's default 3000/m);
  // Only the group protocol gregor serves is its default.
  assert.match(result.stdout, /^group\.coordinator\.rebalance\.protocols\n.*\n    list; default classic,consumer,streams; valid /m);
  assert.match(result.stdout, /^retention\.ms\n.*\n.*broker default from log\.retention\.ms, log\.retention\.minutes, log\.retention\.hours$/m);
});

test('starts on a free port with --port 0, answers, and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gregor-cli-run-'));
  const child = spawnGregor(['--port', '0', '--in-memory', '--log-format', 'json', '-o', 'made.up.key=1'], { cwd });
  try {
    const { records, nextLine } = await untilStarted(child);
    // Warnings first, then the start-up line: listener address and start-up time.
    assert.equal(records[0]!.level, 40);
    assert.match(records[0]!.msg, /made\.up\.key/);
    const started = records[1]!;
    assert.equal(started.level, 30);
    const addresses = started['addresses'] as string[];
    assert.equal(addresses.length, 1);
    const port = Number(addresses[0]!.split(':').at(-1));
    assert.ok(port > 0, `a real port in ${addresses[0]}`);
    assert.match(started.msg, new RegExp(`listening on localhost:${port} .*started in \\d+ ms`));
    assert.equal(typeof started['startupMs'], 'number');
    // The memory engine uses no directory and claims none.
    assert.equal(started['engine'], 'memory');
    assert.equal('logDirs' in started, false);
    assert.doesNotMatch(started.msg, /\.\/data/);

    assert.deepEqual(await apiVersions(port, 4242), { correlationId: 4242, errorCode: 0 });
    // The HTTP listener (cleanEnv: 127.0.0.1:0): its URL in the start-up line, ready.
    const http = started['http'] as string[];
    assert.equal(http.length, 1);
    assert.match(http[0]!, /^http:\/\/127\.0\.0\.1:[1-9]\d*\/$/);
    assert.ok(started.msg.endsWith(`; console, metrics and health on ${http[0]}`), started.msg);
    assert.equal((await fetch(`${http[0]}readyz`)).status, 200);

    child.kill('SIGTERM');
    const rest = await remainingLines(nextLine);
    assert.equal(await waitForExit(child), 0);
    assert.ok(rest.some((line) => line.includes('gregor stopped')), rest.join('\n'));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('keys gregor accepts but does not act on yet get one warning', { timeout: 60_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gregor-cli-run-'));
  const child = spawnGregor(['--port', '0', '--in-memory', '--log-format', 'json',
    '-o', 'ssl.keystore.password=hunter2', '-o', 'sasl.enabled.mechanisms=PLAIN',
    '-o', 'listener.name.plaintext.max.connections=5', '-o', 'listener.name.plaintext.ssl.client.auth=required',
    '-o', 'client.quota.callback.class=org.example.Quotas',
    '-o', 'num.partitions=2'], { cwd });
  try {
    const { records } = await untilStarted(child);
    const warnings = records.filter((r) => r.level === 40);
    assert.deepEqual(warnings.map((r) => [r.msg, r['keys']]), [
      // ssl.keystore.password is read by TLS listeners (there is none here, as on Kafka nothing is said).
      // sasl.enabled.mechanisms is read by SASL listeners (there is none here either).
      ['Config keys accepted but not acted on yet: client.quota.callback.class, listener.name.plaintext.max.connections',
        ['client.quota.callback.class', 'listener.name.plaintext.max.connections']],
    ]);
    assert.ok(records.every((r) => !JSON.stringify(r).includes('hunter2')), 'no value is logged');
    child.kill('SIGTERM');
    assert.equal(await waitForExit(child), 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  }
});
