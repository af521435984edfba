// SSL listeners beside PLAINTEXT ones, spoken to by the raw client over node:tls: each keystore form Kafka takes,
// listener-prefixed settings, client certificates (required, requested), the principal from the certificate,
// and what a failed handshake or a plaintext client on an SSL port does (only that connection closes; Kafka's INFO line).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { apiVersionsApi, createApiVersionsRequest } from '../../src/protocol/generated/api-versions.js';
import { createMetadataRequest, metadataApi } from '../../src/protocol/generated/metadata.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { makeTestCa, STORE_PASSWORD, CLIENT_DN, type TestCa } from '../security/tls/test-ca.js';
import { RawClient } from './raw-client.js';
import { roundTrip } from './broker-harness.js';

let ca: TestCa;
before(() => {
  ca = makeTestCa();
});
after(() => ca.remove());

interface Line {
  level: number;
  msg: string;
  [key: string]: unknown;
}

async function start(settings: Record<string, string>, level: 'info' | 'debug' = 'info'): Promise<{ broker: Broker; lines: Line[] }> {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const config = resolveBrokerConfig({ 'gregor.log.engine': 'memory', 'node.id': '1', ...settings });
  return { broker: await startBroker(config, { logger }), lines };
}

const PKCS12_SSL = {
  listeners: 'PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0',
  'ssl.keystore.type': 'PKCS12',
  'ssl.keystore.password': STORE_PASSWORD,
};

async function apiVersionsOk(client: RawClient): Promise<void> {
  const response = await roundTrip(client, apiVersionsApi, 3, { ...createApiVersionsRequest(), clientSoftwareName: 'tls-test', clientSoftwareVersion: '1' });
  assert.equal(response.errorCode, 0);
}

test('an SSL listener beside a PLAINTEXT one, PKCS12 keystore: both serve, each advertises itself', async () => {
  const { broker } = await start({ ...PKCS12_SSL, 'ssl.keystore.location': ca.serverP12 });
  try {
    const [plainPort, sslPort] = broker.addresses.map((a) => a.port);
    const tls = await RawClient.connectTls(sslPort!, { ca: ca.read(ca.caCert), servername: 'localhost' });
    const plain = await RawClient.connect(plainPort!);
    await apiVersionsOk(tls);
    await apiVersionsOk(plain);
    const metadata = await roundTrip(tls, metadataApi, 12, { ...createMetadataRequest(), topics: [] });
    assert.deepEqual(metadata.brokers.map((b) => [b.nodeId, b.port]), [[1, sslPort]]);
    const plainMetadata = await roundTrip(plain, metadataApi, 12, { ...createMetadataRequest(), topics: [] });
    assert.deepEqual(plainMetadata.brokers.map((b) => [b.nodeId, b.port]), [[1, plainPort]]);
    await tls.close();
    await plain.close();
  } finally {
    await broker.close();
  }
});

test('a PEM keystore file, and inline PEM in listener-prefixed keys (one-line values, as a properties file holds them)', async () => {
  const oneLine = (path: string) => ca.read(path).replace(/\n/g, ' ');
  const forms: Record<string, string>[] = [
    { 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem },
    {
      // Each listener-prefixed key overrides its broker-wide one (Kafka's valuesWithPrefixOverride, key by key).
      'ssl.keystore.type': 'PKCS12',
      'listener.name.ssl.ssl.keystore.type': 'PEM',
      'listener.name.ssl.ssl.keystore.certificate.chain': oneLine(ca.serverCert),
      'listener.name.ssl.ssl.keystore.key': oneLine(ca.serverKey),
    },
  ];
  for (const settings of forms) {
    const { broker } = await start({ listeners: 'SSL://127.0.0.1:0', ...settings });
    try {
      const client = await RawClient.connectTls(broker.addresses[0]!.port, { ca: ca.read(ca.caCert), servername: 'localhost' });
      await apiVersionsOk(client);
      await client.close();
    } finally {
      await broker.close();
    }
  }
});

test('ssl.client.auth=required: a trusted client certificate gets in with its principal; none, or one of another CA, fails the handshake alone', async () => {
  const { broker, lines } = await start({
    ...PKCS12_SSL, 'ssl.keystore.location': ca.serverP12, 'ssl.client.auth': 'required',
    'ssl.truststore.type': 'PEM', 'ssl.truststore.location': ca.caCert,
  }, 'debug');
  try {
    const port = broker.addresses[1]!.port;
    const trusted = { ca: ca.read(ca.caCert), servername: 'localhost' };
    const good = await RawClient.connectTls(port, { ...trusted, cert: ca.read(ca.clientCert), key: ca.read(ca.clientKey) });
    await apiVersionsOk(good);
    const accepted = lines.filter((l) => l.msg.startsWith('Accepted connection') && l['listener'] === 'SSL');
    assert.deepEqual(accepted.map((l) => l['principal']), [`User:${CLIENT_DN}`]);

    // TLS 1.3: the client's handshake completes before the server's verdict, which comes as an alert on the first read.
    for (const bad of [trusted, { ...trusted, cert: ca.read(ca.otherClientCert), key: ca.read(ca.otherClientKey) }]) {
      const refused = await RawClient.connectTls(port, bad).catch((err: Error) => err);
      if (refused instanceof RawClient) {
        refused.send(Buffer.alloc(8));
        await refused.whenClosed;
        assert.equal(refused.received, 0);
      }
    }
    const failures = lines.filter((l) => l.msg.startsWith('Failed authentication with'));
    assert.deepEqual(failures.map((l) => l.msg), [
      'Failed authentication with /127.0.0.1 (SSL handshake failed)', 'Failed authentication with /127.0.0.1 (SSL handshake failed)',
    ]);
    assert.ok(failures.every((l) => l.level === 30));
    // The good connection is untouched.
    await apiVersionsOk(good);
    await good.close();
  } finally {
    await broker.close();
  }
});

test('ssl.client.auth=requested: no certificate is User:ANONYMOUS, a trusted one its DN, an untrusted one is refused', async () => {
  const { broker, lines } = await start({
    listeners: 'SSL://127.0.0.1:0', 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem,
    'ssl.client.auth': 'requested', 'ssl.truststore.type': 'PEM', 'ssl.truststore.location': ca.caCert,
    'ssl.principal.mapping.rules': 'RULE:^CN=(.*?),OU=(.*?),O=(.*?)$/$1@$3/L,DEFAULT',
  }, 'debug');
  try {
    const port = broker.addresses[0]!.port;
    const trusted = { ca: ca.read(ca.caCert), servername: 'localhost' };
    const anonymous = await RawClient.connectTls(port, trusted);
    await apiVersionsOk(anonymous);
    const named = await RawClient.connectTls(port, { ...trusted, cert: ca.read(ca.clientCert), key: ca.read(ca.clientKey) });
    await apiVersionsOk(named);
    const untrusted = await RawClient.connectTls(port, { ...trusted, cert: ca.read(ca.otherClientCert), key: ca.read(ca.otherClientKey) }).catch((e: Error) => e);
    if (untrusted instanceof RawClient) await untrusted.whenClosed;
    const accepted = lines.filter((l) => l.msg.startsWith('Accepted connection'));
    assert.deepEqual(accepted.map((l) => l['principal']), ['User:ANONYMOUS', 'User:client@acme']);
    await anonymous.close();
    await named.close();
  } finally {
    await broker.close();
  }
});

test('a client certificate no ssl.principal.mapping.rules rule maps is closed, with Kafka\'s message', async () => {
  const { broker, lines } = await start({
    listeners: 'SSL://127.0.0.1:0', 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.client.auth': 'required',
    'ssl.truststore.type': 'PEM', 'ssl.truststore.location': ca.caCert, 'ssl.principal.mapping.rules': 'RULE:^CN=admin,.*$/admin/',
  });
  try {
    const client = await RawClient.connectTls(broker.addresses[0]!.port,
      { ca: ca.read(ca.caCert), servername: 'localhost', cert: ca.read(ca.clientCert), key: ca.read(ca.clientKey) });
    await client.whenClosed;
    assert.equal(client.received, 0);
    assert.deepEqual(lines.filter((l) => l.msg.startsWith('Failed authentication')).map((l) => l.msg),
      [`Failed authentication with /127.0.0.1 (Failed to map name for '${CLIENT_DN}' based on SSL principal mapping rules.)`]);
  } finally {
    await broker.close();
  }
});

test('a plaintext client on an SSL port is closed with Kafka\'s INFO line; the TLS clients beside it go on', async () => {
  const { broker, lines } = await start({ listeners: 'SSL://127.0.0.1:0', 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem });
  try {
    const port = broker.addresses[0]!.port;
    const tls = await RawClient.connectTls(port, { ca: ca.read(ca.caCert), servername: 'localhost' });
    const plain = await RawClient.connect(port);
    plain.send(Buffer.from('0012000000030000000100047465737400', 'hex'));
    await plain.whenClosed;
    assert.equal(plain.received, 0);
    await apiVersionsOk(tls);
    const failed = lines.filter((l) => l.msg.startsWith('Failed authentication'));
    assert.deepEqual(failed.map((l) => [l.level, l.msg]), [[30, 'Failed authentication with /127.0.0.1 (SSL handshake failed)']]);
    await tls.close();
  } finally {
    await broker.close();
  }
});

test('ssl.enabled.protocols=TLSv1.3 refuses a TLS 1.2 client; Java cipher names are mapped to OpenSSL\'s', async () => {
  const { broker } = await start({
    listeners: 'SSL://127.0.0.1:0', 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.enabled.protocols': 'TLSv1.2',
    'ssl.cipher.suites': 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  });
  try {
    const port = broker.addresses[0]!.port;
    const trusted = { ca: ca.read(ca.caCert), servername: 'localhost' };
    const client = await RawClient.connectTls(port, trusted);
    assert.equal((client.socket as import('node:tls').TLSSocket).getProtocol(), 'TLSv1.2');
    assert.equal((client.socket as import('node:tls').TLSSocket).getCipher().name, 'ECDHE-ECDSA-AES256-GCM-SHA384');
    await client.close();
    await assert.rejects(RawClient.connectTls(port, { ...trusted, minVersion: 'TLSv1.3' }));
  } finally {
    await broker.close();
  }
  const only13 = await start({ listeners: 'SSL://127.0.0.1:0', 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.enabled.protocols': 'TLSv1.3' });
  try {
    await assert.rejects(RawClient.connectTls(only13.broker.addresses[0]!.port, { ca: ca.read(ca.caCert), servername: 'localhost', maxVersion: 'TLSv1.2' }));
  } finally {
    await only13.broker.close();
  }
});

test('bad TLS settings stop start-up with one line naming the key, never a password', async () => {
  const refused = async (settings: Record<string, string>, message: RegExp) => {
    const err = await start({ listeners: 'SSL://127.0.0.1:0', ...settings }).then(async ({ broker }) => {
      await broker.close();
      return undefined;
    }, (e: Error) => e);
    assert.ok(err instanceof Error, `started with ${JSON.stringify(Object.keys(settings))}`);
    assert.match(err.message, message);
    assert.doesNotMatch(err.message, new RegExp(STORE_PASSWORD));
    assert.equal(err.message.includes('\n'), false);
  };
  await refused({ 'ssl.keystore.location': '/tmp/server.keystore.jks', 'ssl.keystore.password': STORE_PASSWORD },
    /keytool -importkeystore -srckeystore \/tmp\/server.keystore.jks -srcstoretype JKS -destkeystore \/tmp\/server.keystore.p12 -deststoretype PKCS12 and set ssl.keystore.type=PKCS12/);
  await refused({}, /needs a key store/);
  await refused({ 'ssl.keystore.type': 'PKCS12', 'ssl.keystore.location': ca.serverP12, 'ssl.keystore.password': 'wrong' }, /Failed to load the SSL key or trust material/);
  await refused({ 'ssl.keystore.type': 'PKCS12', 'ssl.keystore.location': ca.serverP12 }, /key store password is not specified/);
  await refused({ 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.keystore.password': STORE_PASSWORD },
    /SSL key store password cannot be specified with PEM format/);
  await refused({ 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.cipher.suites': 'TLS_FOO_WITH_BAR' }, /Unknown cipher suite TLS_FOO_WITH_BAR/);
  await refused({ 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.enabled.protocols': 'TLSv1.1,TLSv1.3' }, /leaves a gap/);
  await refused({ 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.truststore.location': ca.clientP12, 'ssl.truststore.type': 'PKCS12' },
    /openssl pkcs12 -in .*client.p12 -nokeys -out .*client.pem/);
  await refused({ 'ssl.keystore.type': 'PEM', 'ssl.keystore.location': ca.serverPem, 'ssl.principal.mapping.rules': 'RULE:x/y/Q' }, /Invalid rule/);
  // Prefixed keys merge with the broker-wide ones key by key: a broker-wide location beside a listener's inline key is both.
  await refused({ 'ssl.keystore.location': ca.serverP12, 'listener.name.ssl.ssl.keystore.type': 'PEM',
    'listener.name.ssl.ssl.keystore.certificate.chain': ca.read(ca.serverCert), 'listener.name.ssl.ssl.keystore.key': ca.read(ca.serverKey) },
  /Both SSL key store location and separate private key are specified/);
});
