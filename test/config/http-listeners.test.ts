// gregor.http.listeners: Kafka's listener form with the http scheme; none by default, the command's default, --http-port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatHttpListener, httpUrl, parseHttpListeners, resolveBrokerConfig } from '../../src/config/index.js';
import { resolveSettings } from '../../src/cli/config-sources.js';

test('http://host:port entries: empty host, IPv6 in brackets, port 0', () => {
  assert.deepEqual(parseHttpListeners(['http://localhost:8080', 'http://:0', ' HTTP://[::1]:9 ']), [
    { host: 'localhost', port: 8080 }, { host: '', port: 0 }, { host: '::1', port: 9 },
  ]);
  assert.equal(formatHttpListener({ host: '::1', port: 9 }), 'http://[::1]:9');
  assert.equal(httpUrl({ host: '', port: 80 }), 'http://localhost:80/');
  assert.equal(httpUrl({ host: '::1', port: 80 }), 'http://[::1]:80/');
});

test('a malformed entry, another scheme, a port out of range or a repeated address is a one-line ConfigError naming the key', () => {
  const cases: [string, string][] = [
    ['localhost:8080', 'Invalid value "localhost:8080" for configuration gregor.http.listeners: expects http://host:port (host may be empty, IPv6 in brackets)'],
    ['https://localhost:8443', 'Invalid value "https://localhost:8443" for configuration gregor.http.listeners: the scheme must be http (https is not served)'],
    ['http://localhost:65536', 'Invalid value "http://localhost:65536" for configuration gregor.http.listeners: port must be between 0 and 65535'],
    ['http://a:1,http://a:1', 'Invalid value "http://a:1" for configuration gregor.http.listeners: the same address is listed twice'],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => resolveBrokerConfig({ 'gregor.http.listeners': value }), { name: 'ConfigError', message });
  }
});

test('startBroker serves no HTTP unless asked; the command serves http://localhost:8080, moved by --http-port, off with an empty value', () => {
  assert.deepEqual(resolveBrokerConfig({})['gregor.http.listeners'], []);
  const command = (shortcuts: { httpPort?: number }, overrides: string[] = []) =>
    resolveSettings({ env: {}, overrides, shortcuts }, () => {})['gregor.http.listeners'];
  assert.deepEqual(command({}), ['http://localhost:8080']);
  assert.deepEqual(command({ httpPort: 0 }), ['http://localhost:0']);
  assert.deepEqual(command({ httpPort: 9000 }, ['gregor.http.listeners=http://0.0.0.0:1,http://[::1]:2']), ['http://0.0.0.0:9000', 'http://[::1]:2']);
  assert.deepEqual(command({}, ['gregor.http.listeners=']), []);
  assert.throws(() => command({}, ['gregor.http.listeners=ftp://x:1']), { message: /^--override gregor.http.listeners|gregor.http.listeners/ });
});
