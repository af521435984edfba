// Runs the built `gregor` command as a user would, and checks its exit status and output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiVersions, lineReader, remainingLines, run, spawnGregor, waitForExit } from './gregor-process.js';

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
  assertOneLineUsageError(run([], { GREGOR_LISTENERS: 'SSL://:9093' }), 'listeners', 'PLAINTEXT');
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
  assert.match(result.stdout, /^retention\.ms\n.*\n.*broker default from log\.retention\.ms, log\.retention\.minutes, log\.retention\.hours$/m);
});

test('starts on a free port with --port 0, answers, and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gregor-cli-run-'));
  const child = spawnGregor(['--port', '0', '--in-memory', '--log-format', 'json', '-o', 'made.up.key=1'], { cwd });
  try {
    const nextLine = lineReader(child.stdout!);
    const records: { level: number; msg: string; [key: string]: unknown }[] = [];
    while (records.at(-1)?.level !== 30) {
      const line = await nextLine();
      assert.notEqual(line, null, 'the command stopped before its start-up line');
      records.push(JSON.parse(line!) as (typeof records)[number]);
    }
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

    assert.deepEqual(await apiVersions(port, 4242), { correlationId: 4242, errorCode: 0 });

    child.kill('SIGTERM');
    const rest = await remainingLines(nextLine);
    assert.equal(await waitForExit(child), 0);
    assert.ok(rest.some((line) => line.includes('gregor stopped')), rest.join('\n'));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  }
});
