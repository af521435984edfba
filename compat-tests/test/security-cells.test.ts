// The security run's cells and client settings (compat-tests/security), on a hand-made target: no broker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPending } from '../runner/pending.js';
import type { Target } from '../runner/types.js';
import { securityCells } from '../security/cells.js';
import { securityEnv, type ClientSecurity } from '../security/settings.js';
import type { SecureTarget, Variant } from '../security/target.js';

const variant = (name: Variant['name']): Variant => ({ name, bootstrap: `127.0.0.1:${name === 'ssl' ? 2 : 1}`, env: {} });
const secure: SecureTarget = {
  target: {} as Target,
  variants: [variant('sasl_ssl'), variant('ssl')],
  failures: [{ label: 'sasl_ssl:wrong-password', variant: variant('sasl_ssl') }, { label: 'ssl:untrusted-cert', variant: variant('ssl') }],
  stop: async () => {},
};

test('every client runs the four data-path rows over each variant, then the refused logins', () => {
  const cells = securityCells(secure, 'kafkajs', []);
  assert.deepEqual(cells.map((c) => [c.label, c.scenario, c.variant.name, c.cannot]), [
    ...['sasl_ssl', 'ssl'].flatMap((v) => ['topic-admin', 'produce-consume', 'commit-resume', 'transactions'].map((s) => [`${v}:${s}`, s, v, undefined])),
    ['sasl_ssl:wrong-password', 'auth-failure', 'sasl_ssl', undefined],
    ['ssl:untrusted-cert', 'auth-failure', 'ssl', undefined],
  ]);
});

test('kcat skips every SASL_SSL cell with its reason; the stock tools run one row per variant; --scenario filters', () => {
  const kcat = securityCells(secure, 'kcat', []);
  assert.ok(kcat.filter((c) => c.variant.name === 'sasl_ssl').every((c) => /librdkafka#4895/.test(c.cannot ?? '')));
  assert.ok(kcat.filter((c) => c.variant.name === 'ssl').every((c) => c.cannot === undefined));
  assert.deepEqual(securityCells(secure, 'java-tools', []).map((c) => c.label),
    ['sasl_ssl:produce-consume', 'ssl:produce-consume', 'sasl_ssl:wrong-password', 'ssl:untrusted-cert']);
  assert.deepEqual(securityCells(secure, 'sarama', ['auth-failure']).map((c) => c.label), ['sasl_ssl:wrong-password', 'ssl:untrusted-cert']);
});

test('securityEnv writes the Java and librdkafka files each client form takes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-security-'));
  try {
    const security: ClientSecurity = { protocol: 'SASL_SSL', ca: '/ca.pem', sasl: { mechanism: 'SCRAM-SHA-512', username: 'u', password: 'p' } };
    const env = securityEnv(dir, 'x', security);
    assert.equal(env['COMPAT_SASL_PASSWORD'], 'p');
    assert.equal(env['KCAT_CONFIG'], env['COMPAT_LIBRDKAFKA_CONFIG']);
    assert.deepEqual(readFileSync(env['COMPAT_TOOL_CONFIG']!, 'utf8').split('\n'), ['security.protocol=SASL_SSL', 'ssl.truststore.type=PEM',
      'ssl.truststore.location=/ca.pem', 'sasl.mechanism=SCRAM-SHA-512',
      'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";', '']);
    assert.deepEqual(readFileSync(env['KCAT_CONFIG']!, 'utf8').split('\n'), ['security.protocol=sasl_ssl', 'ssl.ca.location=/ca.pem',
      'sasl.mechanisms=SCRAM-SHA-512', 'sasl.username=u', 'sasl.password=p', '']);
    const mtls = securityEnv(dir, 'y', { protocol: 'SSL', ca: '/ca.pem', cert: { pem: '/c.pem', key: '/c.key', p12: '/c.p12', password: 's' } });
    assert.equal(mtls['COMPAT_SASL_MECHANISM'], undefined);
    assert.match(readFileSync(mtls['COMPAT_TOOL_CONFIG']!, 'utf8'), /ssl\.keystore\.type=PKCS12\nssl\.keystore\.location=\/c\.p12\nssl\.keystore\.password=s\n/);
    assert.match(readFileSync(mtls['KCAT_CONFIG']!, 'utf8'), /ssl\.certificate\.location=\/c\.pem\nssl\.key\.location=\/c\.key\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pending.json may name a security row', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compat-pending-'));
  try {
    const file = join(dir, 'pending.json');
    writeFileSync(file, JSON.stringify({ pending: [{ client: 'kafkajs', scenario: 'ssl:untrusted-cert', reason: 'x' }] }));
    assert.equal(loadPending(file, ['kafkajs'])[0]!.scenario, 'ssl:untrusted-cert');
    writeFileSync(file, JSON.stringify({ pending: [{ client: 'kafkajs', scenario: 'ssl:no-such', reason: 'x' }] }));
    assert.throws(() => loadPending(file, ['kafkajs']), /unknown scenario ssl:no-such/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('against gregor the untrusted-certificate cell is excused (node:tls closes where Kafka alerts); against Kafka nothing is', () => {
  const excusedOn = (kind: Target['kind']) =>
    securityCells({ ...secure, target: { kind } as Target }, 'kafkajs', ['auth-failure']).map((c) => [c.label, c.excused !== undefined]);
  assert.deepEqual(excusedOn('gregor'), [['sasl_ssl:wrong-password', false], ['ssl:untrusted-cert', true]]);
  assert.deepEqual(excusedOn('reference'), [['sasl_ssl:wrong-password', false], ['ssl:untrusted-cert', false]]);
});
