// `gregor cluster` without etcd on PATH, and with bad flags: one line and an exit status, nothing started.
// (The cluster itself, with a real etcd, is test/e2e/cluster-command.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './gregor-process.js';

test('without etcd on PATH: exit 1 and one line saying how to install it, nothing started', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-no-etcd-'));
  try {
    const result = run(['cluster', '--brokers', '2', '--data-dir', join(dir, 'data')], { PATH: join(dir, 'empty') });
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, 'gregor: the etcd binary is not on PATH (gregor cluster runs it): install it with `apt-get install etcd-server` ' +
      '(Debian, Ubuntu; scripts/install-etcd.sh does it), `brew install etcd` (macOS), or from https://etcd.io/docs/latest/install/\n');
    assert.equal(existsSync(join(dir, 'data')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad --brokers or ports: exit 2 with one line', () => {
  for (const [args, line] of [
    [['--brokers', '0'], 'gregor: --brokers: a whole number of at least 1\n'],
    [['--brokers', '2', '--port', '65535'], 'gregor: --port and --etcd-port: ports between 1 and 65535 (the brokers\' and etcd\'s peer port included)\n'],
  ] as const) {
    const result = run(['cluster', ...args]);
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stderr, line);
  }
});
