// ACLs (StandardAuthorizer) with Kafka's tools and clients. Every output expected is what the same command or client
// printed against Kafka 4.3.1's reference broker configured the same way: a SASL_PLAINTEXT listener with PLAIN users
// admin, alice and bob, authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer,
// super.users=User:admin (the reference also names User:ANONYMOUS, its broker's principal on the controller listener).
// kafka-acls prints a resource's ACLs in the order of a Java HashSet (identity hash codes: it varies between runs),
// so its outputs are compared with the lines of each resource sorted. Where gregor's text differs from Kafka's by
// design (the request a ClusterAuthorizationException names), the test says so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { startBroker, type Broker } from '../../src/server/broker.js';
import { startTestBroker } from '../server/broker-harness.js';
import { installJavaTools, runJavaProgramOk, runJavaTool } from './java-tools.js';
import { kafkajsAclChecks } from './acl-kafkajs-checks.js';

const dir = mkdtempSync(join(tmpdir(), 'gregor-acls-'));
const PLAIN = 'org.apache.kafka.common.security.plain.PlainLoginModule';
const settings = {
  listeners: 'SASL_PLAINTEXT://127.0.0.1:0',
  'log.dirs': join(dir, 'data'),
  'sasl.enabled.mechanisms': 'PLAIN',
  'listener.name.sasl_plaintext.plain.sasl.jaas.config':
    `${PLAIN} required user_admin="admin-secret" user_alice="alice-secret" user_bob="bob-secret";`,
  'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
  'super.users': 'User:admin',
};
let broker: Broker;
let bootstrap: string;

async function start(): Promise<void> {
  broker = await startBroker(resolveBrokerConfig(settings));
  bootstrap = `127.0.0.1:${broker.addresses[0]!.port}`;
}

function commandConfig(user: string): string {
  const path = join(dir, `${user}.properties`);
  writeFileSync(path, `security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=${PLAIN} required username="${user}" password="${user}-secret";\n`);
  return path;
}

before(async () => {
  installJavaTools();
  await start();
});
after(async () => {
  await broker?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A tool's output without its log lines' timestamps and the broker's port. */
function normalized(output: string): string {
  return output.replace(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+\] /gm, '').replaceAll(bootstrap, 'BOOTSTRAP');
}

/**
 * kafka-acls output with each resource's ACL lines sorted and the resources in order (Java's HashSet order varies).
 * A `--principal` listing's "ACLs for principal" line heads whichever resource Java prints first: it is a block of its own.
 */
function aclBlocks(output: string): string[] {
  return output.split('\n\n').filter((block) => block.trim() !== '').flatMap((block) => {
    const [first, ...rest] = block.split('\n');
    const principal = first!.startsWith('ACLs for principal') ? [first!] : [];
    const [header, ...lines] = principal.length > 0 ? rest : [first!, ...rest];
    return [...principal, [header, ...lines.map((line) => line.trim()).filter((line) => line !== '').sort()].join('\n')];
  }).sort();
}

async function acls(user: string, ...args: string[]): Promise<{ code: number | null; out: string }> {
  const run = await runJavaTool('kafka-acls', ['--bootstrap-server', bootstrap, '--command-config', commandConfig(user), ...args]);
  return { code: run.code, out: normalized(run.stdout + run.stderr) };
}

async function aclsOk(...args: string[]): Promise<string[]> {
  const { code, out } = await acls('admin', ...args);
  assert.equal(code, 0, out);
  return aclBlocks(out);
}

const resource = (type: string, name: string, pattern = 'LITERAL') => `ResourcePattern(resourceType=${type}, name=${name}, patternType=${pattern})`;
const entry = (principal: string, host: string, operation: string, permission: string) =>
  `(principal=${principal}, host=${host}, operation=${operation}, permissionType=${permission})`;
const adding = (pattern: string, ...entries: string[]) => [`Adding ACLs for resource \`${pattern}\`: `, ...entries.sort()].join('\n');
const current = (pattern: string, ...entries: string[]) => [`Current ACLs for resource \`${pattern}\`:`, ...entries.sort()].join('\n');

const ALICE_READ = entry('User:alice', '*', 'READ', 'ALLOW');
const ALICE_WRITE = entry('User:alice', '*', 'WRITE', 'ALLOW');
const BOB = [
  entry('User:bob', '10.0.0.1', 'DESCRIBE', 'DENY'), entry('User:bob', '127.0.0.1', 'READ', 'ALLOW'),
  entry('User:bob', '127.0.0.1', 'DESCRIBE', 'ALLOW'), entry('User:bob', '10.0.0.1', 'READ', 'DENY'),
];

test('kafka-acls --add, --list and --remove print what they print against Kafka 4.3.1; ACLs survive a restart', { timeout: 600_000 }, async () => {
  assert.deepEqual(await aclsOk('--add', '--allow-principal', 'User:alice', '--operation', 'Read', '--topic', 't1', '--group', 'g1'),
    [adding(resource('GROUP', 'g1'), ALICE_READ), adding(resource('TOPIC', 't1'), ALICE_READ)]);
  assert.deepEqual(await aclsOk('--add', '--allow-principal', 'User:alice', '--operation', 'Write', '--topic', 'pre-', '--resource-pattern-type', 'prefixed'),
    [adding(resource('TOPIC', 'pre-', 'PREFIXED'), ALICE_WRITE)]);
  assert.deepEqual(await aclsOk('--add', '--deny-principal', 'User:bob', '--allow-principal', 'User:bob', '--operation', 'Describe', '--operation', 'Read',
    '--topic', '*', '--deny-host', '10.0.0.1', '--allow-host', '127.0.0.1'), [adding(resource('TOPIC', '*'), ...BOB)]);

  const all = [
    current(resource('GROUP', 'g1'), ALICE_READ), current(resource('TOPIC', '*'), ...BOB),
    current(resource('TOPIC', 'pre-', 'PREFIXED'), ALICE_WRITE), current(resource('TOPIC', 't1'), ALICE_READ),
  ].sort();
  assert.deepEqual(await aclsOk('--list'), all);
  assert.deepEqual(await aclsOk('--list', '--topic', 't1', '--resource-pattern-type', 'match'),
    [current(resource('TOPIC', '*'), ...BOB), current(resource('TOPIC', 't1'), ALICE_READ)].sort());
  const alices = await aclsOk('--list', '--principal', 'User:alice');
  assert.deepEqual(alices, [
    'ACLs for principal `User:alice`', current(resource('TOPIC', 't1'), ALICE_READ),
    current(resource('GROUP', 'g1'), ALICE_READ), current(resource('TOPIC', 'pre-', 'PREFIXED'), ALICE_WRITE),
  ].sort());

  assert.deepEqual(await aclsOk('--remove', '--force', '--topic', 't1'), []);
  assert.deepEqual(await aclsOk('--list', '--topic', 't1'), []);
  assert.deepEqual(await aclsOk('--remove', '--force', '--deny-principal', 'User:bob', '--operation', 'Read', '--deny-host', '10.0.0.1', '--topic', '*'), []);
  const bobLeft = current(resource('TOPIC', '*'), BOB[0]!, BOB[1]!, BOB[2]!);
  assert.deepEqual(await aclsOk('--list', '--topic', '*'), [bobLeft]);

  // Kafka names its own Request object in the message (processor, session...); gregor names the connection.
  const refused = await acls('bob', '--list');
  assert.equal(refused.code, 1);
  assert.match(refused.out.split('\n')[0]!,
    /^Error while executing ACL command: org\.apache\.kafka\.common\.errors\.ClusterAuthorizationException: Request Request\(.*\) needs DESCRIBE permission\.$/);

  await broker.close();
  await start();
  assert.deepEqual(await aclsOk('--list'),
    [current(resource('GROUP', 'g1'), ALICE_READ), bobLeft, current(resource('TOPIC', 'pre-', 'PREFIXED'), ALICE_WRITE)].sort());
  assert.ok(readFileSync(join(dir, 'data', 'gregor-acls.json'), 'utf8').includes('"principal": "User:alice"'));
  await aclsOk('--remove', '--force', '--topic', '*', '--topic', 'pre-', '--resource-pattern-type', 'any');
  await aclsOk('--remove', '--force', '--group', 'g1');
  assert.deepEqual(await aclsOk('--list'), []);
});

test('without an authorizer kafka-acls gets SECURITY_DISABLED with Kafka\'s messages', { timeout: 120_000 }, async () => {
  const plain = await startTestBroker();
  try {
    const run = async (...args: string[]) => {
      const result = await runJavaTool('kafka-acls', ['--bootstrap-server', `127.0.0.1:${plain.port}`, ...args]);
      assert.equal(result.code, 1);
      return result.stdout.split('\n')[0];
    };
    assert.equal(await run('--list'),
      'Error while executing ACL command: org.apache.kafka.common.errors.SecurityDisabledException: No Authorizer is configured on the broker');
    assert.equal(await run('--add', '--allow-principal', 'User:bob', '--operation', 'Read', '--topic', 't9'),
      'Error while executing ACL command: org.apache.kafka.common.errors.SecurityDisabledException: No Authorizer is configured on the broker');
    assert.equal(await run('--remove', '--force', '--topic', 't9'),
      'Error while executing ACL command: org.apache.kafka.common.errors.SecurityDisabledException: No Authorizer is configured.');
  } finally {
    await plain.close();
  }
});

test('a user with READ on one topic and its groups reads it and nothing else: kafkajs, the Java client and the tools see Kafka\'s errors', { timeout: 900_000 }, async () => {
  const tool = (name: string, user: string, args: string[], input = '') =>
    runJavaTool(name, ['--bootstrap-server', bootstrap, '--command-config', commandConfig(user), ...args], input);
  for (const topic of ['readable', 'secret']) {
    assert.equal((await tool('kafka-topics', 'admin', ['--create', '--topic', topic, '--partitions', '1'])).code, 0);
    assert.equal((await tool('kafka-console-producer', 'admin', ['--topic', topic], `${topic === 'readable' ? 'r1' : 's1'}\n`)).code, 0);
  }
  await aclsOk('--add', '--allow-principal', 'User:alice', '--operation', 'Read', '--topic', 'readable', '--group', 'g-kafkajs', '--group', 'g-java');

  const expectedKafkajs = [
    'consume readable: read r1',
    'consume secret: KafkaJSProtocolError TOPIC_AUTHORIZATION_FAILED: Not authorized to access topics: [Topic authorization failed]',
    'consume with group other: KafkaJSGroupCoordinatorNotFound: Failed to find group coordinator',
    'produce readable: KafkaJSProtocolError TOPIC_AUTHORIZATION_FAILED: Not authorized to access topics: [Topic authorization failed]',
    'transactional produce: KafkaJSProtocolError CLUSTER_AUTHORIZATION_FAILED: Cluster authorization failed',
    'list topics: ["readable"]',
    'create topic: KafkaJSAggregateError: Topic creation errors [KafkaJSCreateTopicError TOPIC_AUTHORIZATION_FAILED: Not authorized to access topics: [Topic authorization failed]]',
    'delete topic readable: KafkaJSProtocolError TOPIC_AUTHORIZATION_FAILED: Not authorized to access topics: [Topic authorization failed]',
    'describe configs readable: KafkaJSProtocolError TOPIC_AUTHORIZATION_FAILED: Not authorized to access topics: [Topic authorization failed]',
    'list groups: ["g-kafkajs"]',
    'describe acls: KafkaJSProtocolError CLUSTER_AUTHORIZATION_FAILED: Cluster authorization failed',
  ];
  assert.deepEqual(await kafkajsAclChecks({ bootstrap, user: 'alice', password: 'alice-secret', readable: 'readable', group: 'g-kafkajs', secret: 'secret' }),
    expectedKafkajs);

  const java = await runJavaProgramOk('test/e2e/java/AclChecks.java', [bootstrap, 'alice', 'alice-secret', 'readable', 'g-java', 'secret']);
  const lines = java.split('\n').filter((line) => line.startsWith('= ')).map((line) => line.slice(2));
  // The last line: Kafka's message names its own Request object (processor, session...), gregor's the connection.
  assert.match(lines.pop()!, /^list acls: org\.apache\.kafka\.common\.errors\.ClusterAuthorizationException: Request Request\(.*\) needs DESCRIBE permission\.$/);
  assert.deepEqual(lines, [
    'consume readable: read [r1]',
    'consume secret: org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access topics: [secret]',
    'consume with group other: org.apache.kafka.common.errors.GroupAuthorizationException: Not authorized to access group: other',
    'produce readable: org.apache.kafka.common.errors.ClusterAuthorizationException: Cluster authorization failed.',
    'transactional produce: org.apache.kafka.common.errors.TransactionalIdAuthorizationException: Transactional Id authorization failed.',
    'list topics: [readable]',
    'create topic: org.apache.kafka.common.errors.TopicAuthorizationException: Authorization failed.',
    'delete topic readable: org.apache.kafka.common.errors.TopicAuthorizationException: Topic authorization failed.',
    'describe configs readable: org.apache.kafka.common.errors.TopicAuthorizationException: Topic authorization failed.',
    'describe cluster operations: []',
    'list groups: [g-java, g-kafkajs]',
    'describe topic operations readable: [READ, DESCRIBE]',
  ]);

  const alice = async (name: string, args: string[], input = '') => {
    const run = await tool(name, 'alice', args, input);
    return { code: run.code, out: normalized(run.stdout + run.stderr).split('\n').filter((line) => line !== '' && !/^\s+at /.test(line)) };
  };
  assert.deepEqual(await alice('kafka-console-producer', ['--topic', 'readable'], 'x\n'), { code: 0, out: [
    'ERROR [Producer clientId=console-producer] Aborting producer batches due to fatal error (org.apache.kafka.clients.producer.internals.Sender)',
    'org.apache.kafka.common.errors.ClusterAuthorizationException: Cluster authorization failed.',
    'ERROR Error when sending message to topic readable with key: null, value: 1 bytes with error: (org.apache.kafka.clients.producer.internals.ErrorLoggingCallback)',
    'org.apache.kafka.common.errors.ClusterAuthorizationException: Cluster authorization failed.',
  ] });
  assert.deepEqual(await alice('kafka-topics', ['--create', '--topic', 'made-by-alice']), { code: 1, out: [
    'Error while executing topic command : Authorization failed.',
    'ERROR org.apache.kafka.common.errors.TopicAuthorizationException: Authorization failed.',
    ' (org.apache.kafka.tools.TopicCommand)',
  ] });
  assert.deepEqual(await alice('kafka-topics', ['--delete', '--topic', 'readable']), { code: 1, out: [
    'Error while executing topic command : Topic authorization failed.',
    'ERROR org.apache.kafka.common.errors.TopicAuthorizationException: Topic authorization failed.',
    ' (org.apache.kafka.tools.TopicCommand)',
  ] });
  assert.deepEqual(await alice('kafka-topics', ['--list']), { code: 0, out: ['readable'] });
  const configs = await alice('kafka-configs', ['--describe', '--entity-type', 'topics', '--entity-name', 'readable']);
  assert.equal(configs.code, 1);
  assert.deepEqual(configs.out.filter((line) => !line.startsWith('Error while executing config command with args')), [
    'Dynamic configs for topic readable are:',
    'java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.TopicAuthorizationException: Topic authorization failed.',
    'Caused by: org.apache.kafka.common.errors.TopicAuthorizationException: Topic authorization failed.',
  ]);
  const topicFailure = (message: string) => ({ code: 1, out: [
    `Error while executing topic command : ${message}`, `ERROR org.apache.kafka.common.errors.TopicAuthorizationException: ${message}`, ' (org.apache.kafka.tools.TopicCommand)',
  ] });
  assert.deepEqual(await alice('kafka-topics', ['--describe', '--topic', 'readable']), topicFailure('Topic authorization failed.'));
  assert.deepEqual(await alice('kafka-topics', ['--alter', '--topic', 'readable', '--partitions', '3']), topicFailure('Topic authorization failed.'));
  assert.deepEqual(await alice('kafka-get-offsets', ['--topic', 'secret']), { code: 1, out: ['Error occurred: Could not match any topic-partitions with the specified filters'] });
  assert.deepEqual(await alice('kafka-consumer-groups', ['--delete', '--group', 'g-kafkajs']), { code: 0, out: [
    'Error: Deletion of some consumer groups failed:',
    "* Group 'g-kafkajs' could not be deleted due to: org.apache.kafka.common.errors.GroupAuthorizationException: Group authorization failed.",
  ] });
  // DescribeUserScramCredentials: Kafka asks authorize, so the refusal carries the error's own message.
  const users = await alice('kafka-configs', ['--describe', '--entity-type', 'users']);
  assert.deepEqual({ code: users.code, out: users.out.slice(1) }, { code: 1, out: [
    'java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.ClusterAuthorizationException: Cluster authorization failed.',
    'Caused by: org.apache.kafka.common.errors.ClusterAuthorizationException: Cluster authorization failed.',
  ] });
  // The groups come in the coordinator's hash order, which is Kafka's own: compared as a set.
  const groups = await alice('kafka-consumer-groups', ['--list']);
  assert.deepEqual({ code: groups.code, out: groups.out.sort() }, { code: 0, out: ['g-java', 'g-kafkajs'] });
});
