import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, formatListener, parseListeners, parseSecurityProtocolMap } from '../../src/config/index.js';

function failsWith(values: string[], pattern: RegExp, key = 'listeners', securityProtocolMap?: string): void {
  assert.throws(() => parseListeners(values, securityProtocolMap === undefined ? { key } : { key, securityProtocolMap }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.key, key);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes('\n'));
    return true;
  });
}

test('NAME://host:port, with the name upper-cased as Kafka normalises it', () => {
  assert.deepEqual(parseListeners(['PLAINTEXT://localhost:9092', 'plaintext2://10.0.0.1:0'], { securityProtocolMap: 'PLAINTEXT:PLAINTEXT,PLAINTEXT2:PLAINTEXT' }), [
    { name: 'PLAINTEXT', host: 'localhost', port: 9092, securityProtocol: 'PLAINTEXT' },
    { name: 'PLAINTEXT2', host: '10.0.0.1', port: 0, securityProtocol: 'PLAINTEXT' },
  ]);
});

test('an empty host means all interfaces; IPv6 hosts come in brackets', () => {
  assert.deepEqual(parseListeners(['PLAINTEXT://:9092']), [{ name: 'PLAINTEXT', host: '', port: 9092, securityProtocol: 'PLAINTEXT' }]);
  assert.deepEqual(parseListeners(['PLAINTEXT://[::1]:9092']), [{ name: 'PLAINTEXT', host: '::1', port: 9092, securityProtocol: 'PLAINTEXT' }]);
  assert.equal(formatListener({ name: 'PLAINTEXT', host: '::1', port: 9092 }), 'PLAINTEXT://[::1]:9092');
  assert.equal(formatListener({ name: 'PLAINTEXT', host: '', port: 1 }), 'PLAINTEXT://:1');
});

test('malformed entries and ports out of range are rejected', () => {
  failsWith(['localhost:9092'], /NAME:\/\/host:port/);
  failsWith(['PLAINTEXT://localhost'], /NAME:\/\/host:port/);
  failsWith(['PLAINTEXT://host:abc'], /NAME:\/\/host:port/);
  failsWith(['PLAINTEXT://host:65536'], /between 0 and 65535/);
  failsWith(['PLAINTEXT://host:-1'], /between 0 and 65535/, 'advertised.listeners');
});

test('each listener needs its own name', () => {
  failsWith(['PLAINTEXT://:9092', 'PLAINTEXT://:9093'], /used twice/);
});

test('PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL are served; a name without a protocol is named in the error', () => {
  failsWith(['CLIENT://:9093'], /no security protocol for listener CLIENT/);
  assert.deepEqual(parseListeners(['client://:9093'], { securityProtocolMap: 'CLIENT:PLAINTEXT' }),
    [{ name: 'CLIENT', host: '', port: 9093, securityProtocol: 'PLAINTEXT' }]);
  assert.deepEqual(parseListeners(['PLAINTEXT://:9092', 'client://:9093', 'SSL://:9094', 'SASL_PLAINTEXT://:9095', 'SASL_SSL://:9096'],
    { securityProtocolMap: 'CLIENT:SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL' }),
  [{ name: 'PLAINTEXT', host: '', port: 9092, securityProtocol: 'PLAINTEXT' },
    { name: 'CLIENT', host: '', port: 9093, securityProtocol: 'SSL' },
    { name: 'SSL', host: '', port: 9094, securityProtocol: 'SSL' },
    { name: 'SASL_PLAINTEXT', host: '', port: 9095, securityProtocol: 'SASL_PLAINTEXT' },
    { name: 'SASL_SSL', host: '', port: 9096, securityProtocol: 'SASL_SSL' }]);
});

test('the security protocol map is NAME:PROTOCOL pairs', () => {
  assert.deepEqual([...parseSecurityProtocolMap('a:plaintext, B:SSL')], [['A', 'PLAINTEXT'], ['B', 'SSL']]);
  assert.throws(() => parseSecurityProtocolMap('A:TLS'), ConfigError);
  assert.throws(() => parseSecurityProtocolMap('A'), ConfigError);
});
