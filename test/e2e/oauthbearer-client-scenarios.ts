// OAUTHBEARER with real clients, each on a SASL_PLAINTEXT listener with Kafka's default unsecured-JWT validation
// and unsecuredValidatorRequiredScope="kafka": kafkajs (oauthBearerProvider), the Java client through Kafka's tools
// (OAuthBearerLoginModule with the unsecured login callback handler) and confluent-kafka (librdkafka's unsecured
// JWT, sasl.oauthbearer.config). Run against gregor by the test and against Kafka 4.3.1's reference broker
// configured the same way; what each observed is what the test asserts.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { firstValue } from './kafkajs-first-value.js';
import { runJavaTool } from './java-tools.js';

const run = promisify(execFile);
export const OAUTH_JAAS = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="admin" unsecuredValidatorRequiredScope="kafka";';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (claims: object) => `${b64({ alg: 'none' })}.${b64(claims)}.`;

async function kafkajs(bootstrap: string, claims: object, topic: string): Promise<string> {
  const kafka = new Kafka({
    brokers: [bootstrap], clientId: 'oauth-e2e', retry: { retries: 0 }, logLevel: logLevel.NOTHING,
    sasl: { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: token(claims) }) },
  });
  const admin = kafka.admin();
  const producer = kafka.producer();
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    await producer.connect();
    await producer.send({ topic, messages: [{ value: 'over OAUTHBEARER' }] });
  } catch (err) {
    const cause = (err as { cause?: Error }).cause;
    return `${(err as Error).name}: ${(err as Error).message}${cause === undefined ? '' : ` (${cause.name}: ${cause.message})`}`;
  } finally {
    await admin.disconnect();
    await producer.disconnect();
  }
  return `read ${await firstValue(kafka, topic)}`;
}

async function java(bootstrap: string, dir: string, loginOptions: string): Promise<string> {
  const config = join(dir, 'oauth-java.properties');
  writeFileSync(config, 'security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n' +
    `sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required ${loginOptions};\n`);
  const result = await runJavaTool('kafka-topics', ['--bootstrap-server', bootstrap, '--command-config', config, '--create', '--if-not-exists', '--topic', 'oauth-java']);
  const lines = (result.stdout + result.stderr).split('\n').filter((l) => l.startsWith('Error while executing'));
  return `exit ${result.code}: ${lines.join(' | ')}`;
}

const PYTHON = String.raw`
import sys
from confluent_kafka import Producer, KafkaException
conf = {'bootstrap.servers': sys.argv[1], 'security.protocol': 'SASL_PLAINTEXT', 'sasl.mechanisms': 'OAUTHBEARER',
        'enable.sasl.oauthbearer.unsecure.jwt': True, 'sasl.oauthbearer.config': sys.argv[2]}
errors = []
conf['error_cb'] = lambda e: errors.append(e.str())
p = Producer(conf)
p.produce('oauth-rd', b'v')
left = p.flush(15)
print('delivered' if left == 0 else 'not delivered', '|', errors[0] if errors else '')
`;

async function confluent(bootstrap: string, oauthConfig: string): Promise<string> {
  const { stdout } = await run('compat-tests/.cache/py/venv/bin/python', ['-c', PYTHON, bootstrap, oauthConfig], { timeout: 120_000 });
  // librdkafka says how long the step took and which port: not part of the answer.
  return stdout.trim().replace(/ \(after \d+ms in state (\w+)\)/, ' (in state $1)').replaceAll(bootstrap, '<bootstrap>');
}

export async function installClients(): Promise<void> {
  await run('compat-tests/clients/python/install.sh', [], { timeout: 600_000 });
}

export async function observeClients(bootstrap: string, dir: string): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  return {
    'kafkajs, a valid token': await kafkajs(bootstrap, { sub: 'alice', iat: now, exp: now + 3600, scope: 'kafka' }, 'oauth-kafkajs'),
    // kafkajs takes the error challenge for success and sends its next request: refused with ILLEGAL_SASL_STATE.
    'kafkajs, an expired token': await kafkajs(bootstrap, { sub: 'alice', iat: now - 7200, exp: now - 3600, scope: 'kafka' }, 'oauth-kafkajs-2'),
    'Java, a token with the scope': await java(bootstrap, dir, 'unsecuredLoginStringClaim_sub="alice" unsecuredLoginStringClaim_scope="kafka"'),
    'Java, a token without it': await java(bootstrap, dir, 'unsecuredLoginStringClaim_sub="alice"'),
    'confluent-kafka, a token with the scope': await confluent(bootstrap, 'principal=alice scope=kafka'),
    'confluent-kafka, a token without it': await confluent(bootstrap, 'principal=alice'),
  };
}
