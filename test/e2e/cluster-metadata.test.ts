// The cluster-wide metadata in cluster mode: three gregor processes (the real command) on one real etcd, each with a
// PLAINTEXT listener (the tools, User:ANONYMOUS, a super user) and a SASL_PLAINTEXT one (SCRAM), StandardAuthorizer with
// allow.everyone.if.no.acl.found. A change made through one broker with Kafka's tools takes effect on every broker: a
// SCRAM user logs in everywhere, so does a delegation token, a DENY ACL refuses a real client's produce on every leader, a client quota throttles
// on every broker, dynamic broker configs (the cluster default; one broker's own) and a group's configs are described
// alike through each; and all of it survives a restart of every broker (etcd holds it, no broker's files do).
//
// Kafka's admin client sends these requests to the least loaded broker it knows, not always the one bootstrapped:
// each effect is therefore checked on all three brokers, so at least two of them learned it from another.
//
// CLUSTER_AGAINST_REFERENCE=1 runs the same test against the three-node Kafka 4.3.1 cluster of
// compat-tests/reference/start-cluster.sh (started fresh with these settings, restarted, and stopped by the test).
// It takes about two minutes there (three JVMs, and their restart), so it is run by hand, not in npm test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import kafkajs from 'kafkajs';
import { createDescribeConfigsRequest, describeConfigsApi, type DescribeConfigsResponse } from '../../src/protocol/generated/describe-configs.js';
import { produceApi, type ProduceResponse } from '../../src/protocol/generated/produce.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { ZERO_UUID } from '../../src/protocol/uuid.js';
import { RawClient } from '../server/raw-client.js';
import { decodeResponse, encodeRequest, roundTrip } from '../server/broker-harness.js';
import { batch } from '../broker/data-harness.js';
import { freePorts } from '../cli/gregor-process.js';
import { installJavaTools, runJavaTool, runJavaToolOk } from './java-tools.js';
import { startEtcd, type EtcdServer } from './etcd-server.js';
import { startGregor, stopGregor, type GregorProcess } from './gregor-process.js';

const { Kafka, logLevel } = kafkajs;
const REFERENCE = process.env['CLUSTER_AGAINST_REFERENCE'] === '1';
const NODES = [1, 2, 3] as const;
const SCRAM_MODULE = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
/** The same on gregor and on the reference cluster (start-cluster.sh sets the listeners and SASL itself). */
const SETTINGS: Record<string, string> = {
  'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
  'super.users': 'User:ANONYMOUS',
  'allow.everyone.if.no.acl.found': 'true',
  'delegation.token.secret.key': 'meta-secret',
};
const USER = 'alice-meta';
const PASSWORD = 'alice-meta-secret';
const ACL_TOPIC = 'meta-acl';
const QUOTA_TOPIC = 'meta-quota';
const QUOTA_CLIENT = 'meta-quota-client';
const GROUP = 'meta-group';
// Kafka's ConfigResource.Type and DescribeConfigsResponse.ConfigSource codes.
const BROKER_RESOURCE = 4;
const GROUP_RESOURCE = 32;
const DYNAMIC_DEFAULT_BROKER_CONFIG = 3;
const GROUP_CONFIG = 8;

interface Target {
  plain(n: number): string;
  sasl(n: number): string;
  restartAll(): Promise<void>;
  stop(): Promise<void>;
  /** gregor's data dirs: none of them may hold the metadata etcd keeps. */
  readonly dataDirs: readonly string[];
}

const REFERENCE_SCRIPTS = fileURLToPath(new URL('../../../compat-tests/reference/', import.meta.url));

function referenceCluster(): Target {
  const start = () => execFileSync(join(REFERENCE_SCRIPTS, 'start-cluster.sh'), [], { encoding: 'utf8' });
  const stop = () => execFileSync(join(REFERENCE_SCRIPTS, 'stop-cluster.sh'), [], { encoding: 'utf8' });
  stop();
  execFileSync(join(REFERENCE_SCRIPTS, 'start-cluster.sh'), ['--fresh', ...Object.entries(SETTINGS).flatMap(([k, v]) => ['--set', `${k}=${v}`])], { encoding: 'utf8' });
  return {
    plain: (n) => `127.0.0.1:${19500 + n}`,
    sasl: (n) => `127.0.0.1:${19510 + n}`,
    restartAll: async () => {
      stop();
      start();
    },
    stop: async () => { stop(); },
    dataDirs: [],
  };
}

async function gregorCluster(): Promise<Target> {
  const etcd: EtcdServer = await startEtcd();
  const dataDir = mkdtempSync(join(tmpdir(), 'gregor-cluster-meta-'));
  const ports = await freePorts(6);
  const plainPort = (n: number) => ports[n - 1]!;
  const saslPort = (n: number) => ports[n + 2]!;
  const brokers = new Map<number, GregorProcess>();
  const args = (n: number) => Object.entries({
    ...SETTINGS,
    'node.id': String(n),
    'gregor.cluster.etcd.endpoints': etcd.endpoint,
    listeners: `PLAINTEXT://127.0.0.1:${plainPort(n)},SASL_PLAINTEXT://127.0.0.1:${saslPort(n)}`,
    'sasl.enabled.mechanisms': 'SCRAM-SHA-256,SCRAM-SHA-512',
    'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config': SCRAM_MODULE,
    'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config': SCRAM_MODULE,
  }).flatMap(([k, v]) => ['-o', `${k}=${v}`]);
  const startAll = async () => {
    const started = await Promise.all(NODES.map((n) => startGregor(join(dataDir, `node-${n}`), args(n), { port: plainPort(n) })));
    for (const [i, broker] of started.entries()) brokers.set(NODES[i]!, broker);
  };
  const stopAll = async () => {
    for (const broker of brokers.values()) {
      if (broker.child.exitCode === null && broker.child.signalCode === null) await stopGregor(broker);
    }
  };
  await startAll();
  return {
    plain: (n) => `127.0.0.1:${plainPort(n)}`,
    sasl: (n) => `127.0.0.1:${saslPort(n)}`,
    restartAll: async () => {
      await stopAll();
      await startAll();
    },
    stop: async () => {
      await stopAll();
      await etcd.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    dataDirs: NODES.map((n) => join(dataDir, `node-${n}`)),
  };
}

let target: Target;
const configDir = mkdtempSync(join(tmpdir(), 'gregor-cluster-meta-config-'));
const aliceConfig = join(configDir, 'alice.properties');
const tokenConfig = join(configDir, 'token.properties');
const scramConfig = (user: string, password: string, extra = '') =>
  `security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${user}" password="${password}"${extra};\n`;

before(async () => {
  installJavaTools();
  writeFileSync(aliceConfig, scramConfig(USER, PASSWORD));
  target = REFERENCE ? referenceCluster() : await gregorCluster();
});

after(async () => {
  await target?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

/** Asks again until `check` holds: another broker hears of a change a moment after it is made. */
async function eventually<T>(ask: () => Promise<T>, check: (answer: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  let answer = await ask();
  while (!check(answer)) {
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    answer = await ask();
  }
  return answer;
}

const kafkaOf = (brokers: string[], extra: Partial<kafkajs.KafkaConfig> = {}) =>
  new Kafka({ clientId: 'cluster-metadata-test', brokers, logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 10_000, ...extra });
const aliceOf = (n: number) => kafkaOf([target.sasl(n)], { sasl: { mechanism: 'scram-sha-256', username: USER, password: PASSWORD } });

/** Whether alice logs in on broker n's SASL listener (and lists topics there). */
async function logsIn(n: number): Promise<boolean> {
  const admin = aliceOf(n).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** alice's produce of one record to partition n - 1 (led by broker n) through broker n: 'ok' or the error's type. */
async function aliceProduces(n: number): Promise<string> {
  const producer = aliceOf(n).producer({ allowAutoTopicCreation: false });
  try {
    await producer.connect();
    await producer.send({ topic: ACL_TOPIC, acks: 1, messages: [{ partition: n - 1, value: `from ${n}` }] });
    return 'ok';
  } catch (err) {
    const error = err as { type?: string; cause?: { type?: string }; name?: string };
    return error.type ?? error.cause?.type ?? error.name ?? 'error';
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

/** A topic with one partition per broker: partition n - 1 has broker n as its only replica (so its leader). */
async function createTopicOnEveryBroker(topic: string): Promise<void> {
  const admin = kafkaOf([target.plain(1)]).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, replicaAssignment: NODES.map((n) => ({ partition: n - 1, replicas: [n] })) }] });
  } finally {
    await admin.disconnect();
  }
}

/** One produce of 64 KiB by the quota's client id to partition n - 1 through its leader n: the response's throttle time. */
async function throttleOn(n: number): Promise<number> {
  const [host, port] = target.plain(n).split(':');
  const client = await RawClient.connect(Number(port), host);
  try {
    const request = {
      transactionalId: null, acks: 1, timeoutMs: 30_000,
      topicData: [{ topicId: ZERO_UUID, name: QUOTA_TOPIC, partitionData: [{ index: n - 1, records: batch([{ value: Buffer.alloc(64 * 1024, 1) }]) }] }],
    };
    client.send(encodeRequest(produceApi, 9, request, 1, QUOTA_CLIENT));
    const response: ProduceResponse = decodeResponse(produceApi, 9, await client.read()).response;
    const errorCode = response.responses[0]?.partitionResponses[0]?.errorCode;
    // A leader not yet known to the broker answers NOT_LEADER_OR_FOLLOWER: asked again.
    return errorCode === ErrorCode.NONE ? response.throttleTimeMs : -1;
  } finally {
    await client.close();
  }
}

/** A config of a resource as broker n answers DescribeConfigs itself: [value, source], or null when not listed. */
async function describedOn(n: number, resourceType: number, resourceName: string, key: string): Promise<[string | null, number] | null> {
  const [host, port] = target.plain(n).split(':');
  const client = await RawClient.connect(Number(port), host);
  try {
    const response: DescribeConfigsResponse = await roundTrip(client, describeConfigsApi, 4,
      { ...createDescribeConfigsRequest(), resources: [{ resourceType, resourceName, configurationKeys: [key] }], includeSynonyms: false });
    const config = response.results[0]?.configs.find((c) => c.name === key);
    return config === undefined ? null : [config.value, config.configSource];
  } finally {
    await client.close();
  }
}

const configs = (...args: string[]) => runJavaToolOk('kafka-configs', ['--bootstrap-server', target.plain(1), ...args]);
const DEFAULT_DESCRIBED = 'Default configs for brokers in the cluster are:\n' +
  '  log.retention.ms=123456789 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:log.retention.ms=123456789}\n' +
  '  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1}\n';
const BROKER_3_DESCRIBED = 'Dynamic configs for broker 3 are:\n' +
  '  log.retention.bytes=1073741824 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.retention.bytes=1073741824, DEFAULT_CONFIG:log.retention.bytes=-1}\n';

/** Whether a client authenticated with the delegation token (tokenConfig) lists topics through broker n. */
async function tokenLogsIn(n: number): Promise<boolean> {
  return (await runJavaTool('kafka-topics', ['--bootstrap-server', target.sasl(n), '--command-config', tokenConfig, '--list'])).code === 0;
}

/** Every effect, checked on every broker. */
async function everyBrokerHasIt(when: string): Promise<void> {
  for (const n of NODES) {
    await eventually(() => logsIn(n), (ok) => ok, `${when}: alice logs in on broker ${n}`);
    await eventually(() => tokenLogsIn(n), (ok) => ok, `${when}: the delegation token logs in on broker ${n}`);
    await eventually(() => aliceProduces(n), (result) => result === 'TOPIC_AUTHORIZATION_FAILED', `${when}: alice's produce through broker ${n} is refused`);
    await eventually(() => throttleOn(n), (ms) => ms > 0, `${when}: the quota throttles on broker ${n}`);
    await eventually(() => describedOn(n, BROKER_RESOURCE, '', 'log.retention.ms'), (c) => c?.[0] === '123456789' && c[1] === DYNAMIC_DEFAULT_BROKER_CONFIG,
      `${when}: broker ${n} describes the cluster default`);
    await eventually(() => describedOn(n, GROUP_RESOURCE, GROUP, 'consumer.session.timeout.ms'), (c) => c?.[0] === '50000' && c[1] === GROUP_CONFIG,
      `${when}: broker ${n} describes the group's config`);
  }
  // The tools through broker 2 print what Kafka prints; broker 3's own config is asked of broker 3 by the admin client.
  const describe = (...args: string[]) => runJavaToolOk('kafka-configs', ['--bootstrap-server', target.plain(2), '--describe', ...args]);
  assert.equal(await describe('--entity-type', 'brokers', '--entity-default'), DEFAULT_DESCRIBED);
  assert.equal(await describe('--entity-type', 'brokers', '--entity-name', '3'), BROKER_3_DESCRIBED);
  assert.equal(await describe('--entity-type', 'users', '--entity-name', USER), `SCRAM credential configs for user-principal '${USER}' are SCRAM-SHA-256=iterations=8192\n`);
  assert.equal(await describe('--entity-type', 'clients', '--entity-name', QUOTA_CLIENT), `Quota configs for client-id '${QUOTA_CLIENT}' are producer_byte_rate=1024.0\n`);
  const acls = await runJavaToolOk('kafka-acls', ['--bootstrap-server', target.plain(3), '--list', '--topic', ACL_TOPIC]);
  assert.match(acls, new RegExp(`\\(principal=User:${USER}, host=\\*, operation=WRITE, permissionType=DENY\\)`));
}

test('a SCRAM user added through one broker logs in on every broker, and alice may produce while no ACL names her', async () => {
  for (const n of NODES) assert.equal(await logsIn(n), false, `no such user yet on broker ${n}`);
  assert.equal(await configs('--alter', '--entity-type', 'users', '--entity-name', USER, '--add-config', `SCRAM-SHA-256=[iterations=8192,password=${PASSWORD}]`),
    `Completed updating config for user ${USER}.\n`);
  for (const n of NODES) await eventually(() => logsIn(n), (ok) => ok, `alice logs in on broker ${n}`);
  await createTopicOnEveryBroker(ACL_TOPIC);
  for (const n of NODES) await eventually(() => aliceProduces(n), (result) => result === 'ok', `alice produces through broker ${n}`);
});

test('a delegation token created through one broker authenticates on every broker', async () => {
  const created = await runJavaToolOk('kafka-delegation-tokens', ['--bootstrap-server', target.sasl(1), '--command-config', aliceConfig, '--create', '--max-life-time-period', '-1']);
  const id = /^Created delegation token with tokenId : (\S{22})$/m.exec(created)?.[1];
  const hmac = new RegExp(`^${id} (\\S{88}) User:${USER}`, 'm').exec(created)?.[1];
  assert.ok(id !== undefined && hmac !== undefined, created);
  writeFileSync(tokenConfig, scramConfig(id, hmac, ' tokenauth="true"'));
  for (const n of NODES) await eventually(() => tokenLogsIn(n), (ok) => ok, `the delegation token logs in on broker ${n}`);
});

test('a DENY ACL created through one broker with kafka-acls refuses alice\'s produce on every broker', async () => {
  const added = await runJavaToolOk('kafka-acls', ['--bootstrap-server', target.plain(1), '--add', '--deny-principal', `User:${USER}`, '--operation', 'Write', '--topic', ACL_TOPIC]);
  assert.match(added, /Adding ACLs for resource `ResourcePattern\(resourceType=TOPIC, name=meta-acl, patternType=LITERAL\)`/);
  for (const n of NODES) {
    await eventually(() => aliceProduces(n), (result) => result === 'TOPIC_AUTHORIZATION_FAILED', `alice's produce through broker ${n} is refused`);
  }
});

test('a client quota set through one broker throttles its client on every broker', async () => {
  await createTopicOnEveryBroker(QUOTA_TOPIC);
  for (const n of NODES) assert.equal(await eventually(() => throttleOn(n), (ms) => ms >= 0, `broker ${n} leads its partition`), 0, `no quota yet on broker ${n}`);
  assert.equal(await configs('--alter', '--entity-type', 'clients', '--entity-name', QUOTA_CLIENT, '--add-config', 'producer_byte_rate=1024'),
    `Completed updating config for client ${QUOTA_CLIENT}.\n`);
  for (const n of NODES) await eventually(() => throttleOn(n), (ms) => ms > 0, `the quota throttles on broker ${n}`);
});

test('dynamic broker configs (the cluster default, one broker\'s own) and a group\'s configs set through one broker are described through every broker', async () => {
  assert.equal(await configs('--alter', '--entity-type', 'brokers', '--entity-default', '--add-config', 'log.retention.ms=123456789'),
    'Completed updating default config for brokers in the cluster.\n');
  assert.equal(await configs('--alter', '--entity-type', 'brokers', '--entity-name', '3', '--add-config', 'log.retention.bytes=1073741824'),
    'Completed updating config for broker 3.\n');
  assert.equal(await configs('--alter', '--entity-type', 'groups', '--entity-name', GROUP, '--add-config', 'consumer.session.timeout.ms=50000'),
    `Completed updating config for group ${GROUP}.\n`);
  await everyBrokerHasIt('before the restart');
});

test('all of it survives a restart of every broker', async () => {
  await target.restartAll();
  await everyBrokerHasIt('after the restart');
  // etcd holds it: no broker keeps it in files of its own.
  const files = target.dataDirs.flatMap((dir) => readdirSync(dir, { recursive: true }).map(String));
  for (const kept of ['gregor-acls.json', 'gregor-scram-credentials.json', 'gregor-client-quotas.json', 'gregor-dynamic-configs.json', 'gregor-resource-configs.json',
    'gregor-delegation-tokens.json']) {
    assert.equal(files.some((file) => file.endsWith(kept)), false, `${kept} in a broker's data dir`);
  }
});
