import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyShortcuts, collectSettings, envNameForKey, settingsFromEnv, settingsFromOverrides, UsageError,
} from '../../src/cli/config-sources.js';
import { ConfigError } from '../../src/config/index.js';

test('environment names: GREGOR_ and the key upper-cased with dots as underscores, both ways', () => {
  assert.equal(envNameForKey('advertised.listeners'), 'GREGOR_ADVERTISED_LISTENERS');
  const warnings: string[] = [];
  const settings = settingsFromEnv({
    GREGOR_ADVERTISED_LISTENERS: 'PLAINTEXT://b:9092',
    GREGOR_LOG_RETENTION_HOURS: '24',
    GREGOR_GREGOR_LOG_ENGINE: 'memory',
    GREGOR_NO_SUCH_KEY: '1',
    PATH: '/bin',
  }, (w) => warnings.push(w));
  assert.deepEqual(settings, {
    'advertised.listeners': 'PLAINTEXT://b:9092',
    'log.retention.hours': '24',
    'gregor.log.engine': 'memory',
  });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /GREGOR_NO_SUCH_KEY/);
});

test('--override takes key=value; the value may itself hold = signs', () => {
  assert.deepEqual(settingsFromOverrides(['num.partitions=3', 'listeners=PLAINTEXT://:1', 'x=a=b', 'empty=']), {
    'num.partitions': '3', listeners: 'PLAINTEXT://:1', x: 'a=b', empty: '',
  });
  assert.throws(() => settingsFromOverrides(['num.partitions']), UsageError);
  assert.throws(() => settingsFromOverrides(['=3']), UsageError);
});

test('--port and --host rewrite the first listener, keeping its name and the other listeners', () => {
  assert.equal(applyShortcuts({}, { port: 0 })['listeners'], 'PLAINTEXT://localhost:0');
  assert.equal(applyShortcuts({}, { host: '0.0.0.0' })['listeners'], 'PLAINTEXT://0.0.0.0:9092');
  assert.equal(
    applyShortcuts({ listeners: 'CLIENT://10.0.0.1:9092,PLAINTEXT://:9093', 'listener.security.protocol.map': 'CLIENT:PLAINTEXT,PLAINTEXT:PLAINTEXT' }, { port: 19092 })['listeners'],
    'CLIENT://10.0.0.1:19092,PLAINTEXT://:9093',
  );
  assert.throws(() => applyShortcuts({ listeners: 'nonsense' }, { port: 1 }), ConfigError);
});

test('--data-dir sets log.dirs and --in-memory the memory engine', () => {
  assert.deepEqual(applyShortcuts({ 'log.dirs': '/a' }, { dataDir: '/b', inMemory: true }), { 'log.dirs': '/b', 'gregor.log.engine': 'memory' });
  assert.deepEqual(applyShortcuts({ 'gregor.log.engine': 'file' }, { inMemory: false }), { 'gregor.log.engine': 'file' });
});

test('precedence: config file < environment < --override < shortcuts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cli-'));
  try {
    const file = join(dir, 'server.properties');
    writeFileSync(file, [
      '# a Kafka server.properties',
      'num.partitions=2',
      'log.retention.hours=10',
      'log.segment.bytes=2000000',
      'log.dirs=/from/file',
      'node.id=5',
    ].join('\n'));
    const settings = collectSettings({
      configFile: file,
      env: { GREGOR_LOG_RETENTION_HOURS: '20', GREGOR_LOG_SEGMENT_BYTES: '3000000', GREGOR_LOG_DIRS: '/from/env' },
      overrides: ['log.segment.bytes=4000000', 'log.dirs=/from/override'],
      shortcuts: { dataDir: '/from/flag' },
    }, () => {});
    assert.equal(settings['num.partitions'], '2');
    assert.equal(settings['node.id'], '5');
    assert.equal(settings['log.retention.hours'], '20');
    assert.equal(settings['log.segment.bytes'], '4000000');
    assert.equal(settings['log.dirs'], '/from/flag');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a config file that cannot be read or parsed is a usage error naming it', () => {
  const sources = { env: {}, overrides: [], shortcuts: {} };
  assert.throws(() => collectSettings({ ...sources, configFile: '/no/such/server.properties' }, () => {}),
    (error: unknown) => error instanceof UsageError && error.message.includes('/no/such/server.properties'));
  const dir = mkdtempSync(join(tmpdir(), 'gregor-cli-'));
  try {
    const file = join(dir, 'bad.properties');
    writeFileSync(file, 'a=1\nb=\\uZZZZ\n');
    assert.throws(() => collectSettings({ ...sources, configFile: file }, () => {}),
      (error: unknown) => error instanceof UsageError && /bad\.properties, line 2/.test(error.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
