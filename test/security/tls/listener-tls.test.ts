// A listener's TLS settings as Kafka resolves them, without a socket: the listener prefix over the broker-wide
// key, KIP-684's ssl.client.auth on SASL_SSL listeners, protocol ranges, cipher names, one-line PEM.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBrokerConfig } from '../../../src/config/index.js';
import { listenerTls, normalizePem } from '../../../src/security/tls/listener-tls.js';
import { makeTestCa, type TestCa } from './test-ca.js';

let ca: TestCa;
before(() => {
  ca = makeTestCa();
});
after(() => ca.remove());

const settingsFor = (extra: Record<string, string>) =>
  resolveBrokerConfig({ 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, ...extra });

test('ssl.client.auth: the listener\'s key over the broker-wide one; on SASL_SSL only the listener\'s (KIP-684)', () => {
  const config = settingsFor({ 'ssl.client.auth': 'required', 'listener.name.internal.ssl.client.auth': 'none' });
  assert.equal(listenerTls(config, 'SSL', 'SSL').clientAuth, 'required');
  assert.equal(listenerTls(config, 'INTERNAL', 'SSL').clientAuth, 'none');
  assert.equal(listenerTls(config, 'SASL_SSL', 'SASL_SSL').clientAuth, 'none');
  const prefixed = settingsFor({ 'listener.name.sasl_ssl.ssl.client.auth': 'requested' });
  const tls = listenerTls(prefixed, 'SASL_SSL', 'SASL_SSL');
  assert.equal(tls.clientAuth, 'requested');
  assert.deepEqual([tls.options.requestCert, tls.options.rejectUnauthorized], [true, false]);
});

test('protocols and ciphers become Node\'s range and OpenSSL names', () => {
  const tls = listenerTls(settingsFor({
    'ssl.enabled.protocols': 'TLSv1.3,TLSv1.2', 'ssl.cipher.suites': 'TLS_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,ECDHE-ECDSA-AES256-GCM-SHA384',
  }), 'SSL', 'SSL');
  assert.deepEqual([tls.options.minVersion, tls.options.maxVersion], ['TLSv1.2', 'TLSv1.3']);
  assert.equal(tls.options.ciphers, 'TLS_AES_128_GCM_SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384');
  assert.equal(listenerTls(settingsFor({}), 'SSL', 'SSL').options.ciphers, undefined);
});

test('inline PEM on one line is rewrapped as OpenSSL reads it', () => {
  const pem = ca.read(ca.clientCert);
  assert.equal(normalizePem(pem.replace(/\n/g, ' ')), pem);
  assert.equal(normalizePem(pem.replace(/\n/g, '\r\n')), pem);
});
