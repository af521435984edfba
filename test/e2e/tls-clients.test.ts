// Real clients over an SSL listener with client certificates required (mTLS), the test CA made by openssl: kafkajs
// (ssl option), kcat (librdkafka: security.protocol=SSL) and Kafka 4.3.1's Java tools (--command-config, a PKCS12
// truststore made by keytool) each create, produce and consume; without a client certificate each fails as it
// fails against Kafka 4.3.1 configured the same way (checked by hand against the reference broker: the same client
// error; the TLS alert differs, see README "TLS"), and a client that does not trust the broker's CA fails first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import kafkajs from 'kafkajs';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { makeTestCa, STORE_PASSWORD, type TestCa } from '../security/tls/test-ca.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';

const { Kafka, logLevel } = kafkajs;
const run = promisify(execFile);
const TRUST_PASSWORD = 'trust-secret-7';

let ca: TestCa;
let broker: Broker;
let bootstrap: string;

before(async () => {
  installJavaTools();
  ca = makeTestCa();
  execFileSync('keytool', ['-importcert', '-noprompt', '-alias', 'ca', '-file', ca.caCert, '-keystore', join(ca.dir, 'trust.p12'),
    '-storetype', 'PKCS12', '-storepass', TRUST_PASSWORD], { stdio: 'ignore' });
  broker = await startBroker(resolveBrokerConfig({
    'gregor.log.engine': 'memory', 'node.id': '1', listeners: 'SSL://127.0.0.1:0', 'listener.security.protocol.map': 'SSL:SSL',
    'ssl.keystore.type': 'PKCS12', 'ssl.keystore.location': ca.serverP12, 'ssl.keystore.password': STORE_PASSWORD,
    'ssl.truststore.type': 'PEM', 'ssl.truststore.location': ca.caCert, 'ssl.client.auth': 'required',
  }));
  bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
});

after(async () => {
  await broker?.close();
  ca?.remove();
});

test('kafkajs over mTLS: creates, produces, consumes; no client certificate or an untrusted broker fails the connection', { timeout: 120_000 }, async () => {
  const ssl = { ca: [ca.read(ca.caCert)], cert: ca.read(ca.clientCert), key: ca.read(ca.clientKey) };
  const kafka = new Kafka({ clientId: 'tls-kafkajs', brokers: [bootstrap], ssl, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const producer = kafka.producer();
  const consumer = kafka.consumer({ groupId: 'tls-kafkajs-group' });
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'tls-kafkajs', numPartitions: 1 }] });
    await producer.connect();
    await producer.send({ topic: 'tls-kafkajs', messages: [{ value: 'over tls' }] });
    await consumer.connect();
    await consumer.subscribe({ topic: 'tls-kafkajs', fromBeginning: true });
    const value = await new Promise<string>((resolve) => void consumer.run({ eachMessage: async ({ message }) => resolve(message.value!.toString()) }));
    assert.equal(value, 'over tls');
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await admin.disconnect();
  }
  const failure = async (clientSsl: object): Promise<string> => {
    const other = new Kafka({ brokers: [bootstrap], ssl: clientSsl, logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin();
    try {
      await other.connect();
      return 'connected';
    } catch (err) {
      return `${(err as Error).name}: ${(err as Error).message}`;
    } finally {
      await other.disconnect();
    }
  };
  // Kafka 4.3.1: the same error name, its TLS alert is bad_certificate (42) where OpenSSL sends certificate_required (116).
  assert.match(await failure({ ca: [ca.read(ca.caCert)] }), /^KafkaJSNumberOfRetriesExceeded: Connection error: .*alert certificate required/);
  // Identical against Kafka 4.3.1.
  assert.equal(await failure({ ...ssl, ca: [ca.read(ca.otherCaCert)] }), 'KafkaJSNumberOfRetriesExceeded: Connection error: self-signed certificate in certificate chain');
});

test('kcat over mTLS produces and consumes; without a client certificate the handshake is refused', { timeout: 120_000 }, async () => {
  const tls = ['-X', 'security.protocol=SSL', '-X', `ssl.ca.location=${ca.caCert}`];
  const mtls = [...tls, '-X', `ssl.certificate.location=${ca.clientCert}`, '-X', `ssl.key.location=${ca.clientKey}`];
  const produce = execFile('kcat', ['-P', '-b', bootstrap, '-t', 'tls-kcat', ...mtls], { timeout: 60_000 });
  produce.stdin!.end('one\ntwo\n');
  await new Promise<void>((resolve, reject) => produce.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`kcat -P exited ${code}`)))));
  const { stdout } = await run('kcat', ['-C', '-b', bootstrap, '-t', 'tls-kcat', '-o', 'beginning', '-c', '2', '-e', ...mtls], { timeout: 60_000 });
  assert.deepEqual(stdout.trim().split('\n'), ['one', 'two']);
  const refused = await run('kcat', ['-L', '-b', bootstrap, '-m', '3', ...tls], { timeout: 60_000 }).then(() => '', (err: { stderr: string }) => err.stderr);
  // Kafka 4.3.1: "Receive failed: ... sslv3 alert bad certificate: SSL alert number 42", in the same state.
  assert.match(refused, /Receive failed: .*alert certificate required: SSL alert number 116 .*in state APIVERSION_QUERY/);
});

test('Kafka\'s Java tools over mTLS with a PKCS12 truststore; without a client certificate SslAuthenticationException', { timeout: 300_000 }, async () => {
  const common = [
    'security.protocol=SSL', 'ssl.truststore.type=PKCS12', `ssl.truststore.location=${join(ca.dir, 'trust.p12')}`, `ssl.truststore.password=${TRUST_PASSWORD}`,
  ];
  const withCert = join(ca.dir, 'client.properties');
  writeFileSync(withCert, [...common, 'ssl.keystore.type=PKCS12', `ssl.keystore.location=${ca.clientP12}`, `ssl.keystore.password=${STORE_PASSWORD}`, ''].join('\n'));
  const withoutCert = join(ca.dir, 'nocert.properties');
  writeFileSync(withoutCert, [...common, ''].join('\n'));
  assert.equal((await runJavaToolOk('kafka-topics', ['--bootstrap-server', bootstrap, '--command-config', withCert, '--create', '--topic', 'tls-java'])).trim(),
    'Created topic tls-java.');
  await runJavaToolOk('kafka-console-producer', ['--bootstrap-server', bootstrap, '--command-config', withCert, '--topic', 'tls-java'], 'alpha\nbeta\n');
  const consumed = await runJavaToolOk('kafka-console-consumer', ['--bootstrap-server', bootstrap, '--command-config', withCert, '--topic', 'tls-java',
    '--from-beginning', '--max-messages', '2', '--timeout-ms', '60000']);
  assert.deepEqual(consumed.trim().split('\n'), ['alpha', 'beta']);
  const refused = await runJavaTool('kafka-topics', ['--bootstrap-server', bootstrap, '--command-config', withoutCert, '--list']);
  assert.equal(refused.code, 1);
  // Kafka 4.3.1 prints the same two lines, its alert named bad_certificate.
  assert.match(refused.stdout + refused.stderr, /Error while executing topic command : Failed to process post-handshake messages/);
  assert.match(refused.stdout + refused.stderr, /Caused by: javax.net.ssl.SSLHandshakeException: Received fatal alert: certificate_required/);
});
