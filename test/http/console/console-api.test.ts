// The console's JSON API over HTTP (port 0) against an in-process broker, with kafkajs (a real client) as the
// workload: topic changes answer Kafka's errors, the message browser pages through every record once, newest
// first or from an offset or a time, filters find by key, value and header, the live tail streams new records,
// and groups show lag, refuse a reset or delete while active, and reset as kafka-consumer-groups does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { kafkaFor, until } from '../../coordinator/kafkajs-group-helpers.js';
import { call, ok, startConsoleBroker, type ConsoleBroker } from './console-harness.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../../src/protocol/generated/share-group-heartbeat.js';
import { RawClient } from '../../server/raw-client.js';
import { roundTrip } from '../../server/broker-harness.js';

let broker: ConsoleBroker;

before(async () => {
  broker = await startConsoleBroker({ 'num.partitions': '1' });
});
after(async () => {
  await broker?.close();
});

interface Shown { partition: number; offset: number; timestamp: number; key: { b64: string | null }; value: { b64: string | null }; headers: { key: string; value: { b64: string | null } }[] }
const text = (b: { b64: string | null }): string | null => (b.b64 === null ? null : Buffer.from(b.b64, 'base64').toString('utf8'));

test('topics: create, list, configs, partitions, delete records and delete answer as the Kafka admin APIs do', async () => {
  assert.deepEqual(await ok(broker, 'POST', '/topics', { name: 'admin-t', partitions: 2, configs: { 'retention.ms': '3600000' } }), { name: 'admin-t' });
  assert.deepEqual(await call(broker, 'POST', '/topics', { name: 'admin-t', partitions: 2 }),
    { status: 409, body: { error: "TOPIC_ALREADY_EXISTS: Topic 'admin-t' already exists.", code: 'TOPIC_ALREADY_EXISTS' } });
  assert.deepEqual(await call(broker, 'POST', '/topics', { name: 'bad name', partitions: 1 }),
    { status: 400, body: { error: 'INVALID_TOPIC_EXCEPTION: Topic name is invalid: \'bad name\' contains one or more characters other than ASCII alphanumerics, \'.\', \'_\' and \'-\'', code: 'INVALID_TOPIC_EXCEPTION' } });
  assert.deepEqual(await call(broker, 'POST', '/topics', { partitions: 1 }), { status: 400, body: { error: 'name must be a non-empty string' } });

  const listed = (await ok(broker, 'GET', '/topics')).find((t: { name: string }) => t.name === 'admin-t');
  assert.deepEqual({ ...listed, topicId: typeof listed.topicId }, {
    name: 'admin-t', topicId: 'string', internal: false, partitions: 2, sizeBytes: 0, messages: 0, retentionMs: 3600000, retentionBytes: -1, cleanupPolicy: 'delete',
  });

  await ok(broker, 'PATCH', '/topics/admin-t/configs', { configs: { 'cleanup.policy': 'compact' } });
  const configs = (await ok(broker, 'GET', '/topics/admin-t')).configs as { name: string; value: string; source: string }[];
  assert.deepEqual(configs.filter((c) => c.name === 'cleanup.policy' || c.name === 'retention.ms').map((c) => [c.name, c.value, c.source]),
    [['cleanup.policy', 'compact', 'DYNAMIC_TOPIC_CONFIG'], ['retention.ms', '3600000', 'DYNAMIC_TOPIC_CONFIG']]);
  assert.deepEqual(await call(broker, 'PATCH', '/topics/admin-t/configs', { configs: { 'retention.ms': 'soon' } }),
    { status: 400, body: { error: 'INVALID_CONFIG: Invalid value soon for configuration retention.ms: Not a number of type LONG', code: 'INVALID_CONFIG' } });
  await ok(broker, 'PATCH', '/topics/admin-t/configs', { configs: { 'cleanup.policy': null } });
  assert.equal((await ok(broker, 'GET', '/topics/admin-t')).configs.find((c: { name: string }) => c.name === 'cleanup.policy').source, 'DEFAULT_CONFIG');

  assert.deepEqual(await call(broker, 'POST', '/topics/admin-t/partitions', { total: 1 }),
    { status: 400, body: { error: 'INVALID_PARTITIONS: The topic admin-t currently has 2 partition(s); 1 would not be an increase.', code: 'INVALID_PARTITIONS' } });
  await ok(broker, 'POST', '/topics/admin-t/partitions', { total: 3 });
  assert.equal((await ok(broker, 'GET', '/topics/admin-t')).partitions, 3);

  for (let i = 0; i < 5; i++) await ok(broker, 'POST', '/topics/admin-t/messages', { partition: 1, key: `k${i}`, value: `v${i}`, headers: [] });
  assert.deepEqual(await ok(broker, 'POST', '/topics/admin-t/delete-records', { offsets: { 1: 3 } }), { lowWatermarks: { 1: 3 } });
  assert.deepEqual(await call(broker, 'POST', '/topics/admin-t/delete-records', { offsets: { 1: 9 } }),
    { status: 400, body: { error: 'OFFSET_OUT_OF_RANGE', code: 'OFFSET_OUT_OF_RANGE' } });
  const partition1 = (await ok(broker, 'GET', '/topics/admin-t')).partitionDetails[1];
  assert.deepEqual([partition1.logStartOffset, partition1.highWatermark], [3, 5]);

  await ok(broker, 'DELETE', '/topics/admin-t');
  assert.deepEqual(await call(broker, 'GET', '/topics/admin-t'),
    { status: 404, body: { error: 'UNKNOWN_TOPIC_OR_PARTITION: Topic admin-t not found.', code: 'UNKNOWN_TOPIC_OR_PARTITION' } });
  assert.deepEqual(await call(broker, 'DELETE', '/topics/admin-t'),
    { status: 404, body: { error: 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.', code: 'UNKNOWN_TOPIC_OR_PARTITION' } });
});

test('messages: newest first over all partitions, paged by cursor through every record once; from an offset, from a time; filters', async () => {
  await ok(broker, 'POST', '/topics', { name: 'browse', partitions: 3 });
  const producer = kafkaFor(broker.port, 'console-api').producer();
  await producer.connect();
  // 30 batches of 10 records over 3 partitions, timestamps 1000 ms apart by batch so "newest" is exact.
  const base = 1_700_000_000_000;
  for (let b = 0; b < 30; b++) {
    await producer.send({
      topic: 'browse',
      messages: Array.from({ length: 10 }, (_, i) => ({
        partition: b % 3, key: `key-${b * 10 + i}`, value: JSON.stringify({ n: b * 10 + i }), timestamp: String(base + b * 1000 + i),
        headers: { source: b === 17 ? 'needle' : 'hay' },
      })),
    });
  }
  await producer.disconnect();

  const first = await ok<{ records: Shown[]; next: Record<string, number>; done: boolean }>(broker, 'GET', '/topics/browse/messages?limit=25');
  assert.deepEqual(first.records.map((r) => text(r.key)), Array.from({ length: 25 }, (_, i) => `key-${299 - i}`));
  assert.equal(first.done, false);
  const seen = first.records.map((r) => text(r.key));
  let next = first.next;
  for (let pages = 0; pages < 20; pages++) {
    const page = await ok<{ records: Shown[]; next: Record<string, number>; done: boolean }>(broker, 'GET',
      `/topics/browse/messages?limit=40&cursor=${encodeURIComponent(JSON.stringify(next))}`);
    seen.push(...page.records.map((r) => text(r.key)));
    next = page.next;
    if (page.done) break;
  }
  assert.deepEqual(seen, Array.from({ length: 300 }, (_, i) => `key-${299 - i}`));

  const fromOffset = await ok<{ records: Shown[] }>(broker, 'GET', '/topics/browse/messages?partition=1&from=offset&offset=95&limit=3');
  assert.deepEqual(fromOffset.records.map((r) => [r.partition, r.offset, text(r.key), text(r.value)]),
    [[1, 95, 'key-285', '{"n":285}'], [1, 96, 'key-286', '{"n":286}'], [1, 97, 'key-287', '{"n":287}']]);
  const fromTime = await ok<{ records: Shown[] }>(broker, 'GET', `/topics/browse/messages?from=timestamp&timestamp=${base + 28_000}&limit=4`);
  assert.deepEqual(fromTime.records.map((r) => text(r.key)), ['key-280', 'key-281', 'key-282', 'key-283']);

  const byKey = await ok<{ records: Shown[]; done: boolean }>(broker, 'GET', '/topics/browse/messages?key=key-123');
  assert.deepEqual(byKey.records.map((r) => [r.partition, r.offset, text(r.key), r.timestamp]), [[0, 43, 'key-123', base + 12_003]]);
  assert.equal(byKey.done, true);
  const byValue = await ok<{ records: Shown[] }>(broker, 'GET', '/topics/browse/messages?value=%22n%22%3A7');
  assert.deepEqual(byValue.records.map((r) => text(r.key)).sort(), ['key-7', ...Array.from({ length: 10 }, (_, i) => `key-${70 + i}`)].sort());
  const byHeader = await ok<{ records: Shown[] }>(broker, 'GET', '/topics/browse/messages?header=needle');
  assert.deepEqual(byHeader.records.map((r) => text(r.key)), Array.from({ length: 10 }, (_, i) => `key-${179 - i}`));
  assert.deepEqual(byHeader.records[0]!.headers.map((h) => [h.key, text(h.value)]), [['source', 'needle']]);

  assert.deepEqual(await call(broker, 'GET', '/topics/browse/messages?from=soon'), { status: 400, body: { error: 'from must be newest, offset or timestamp' } });
  assert.deepEqual(await call(broker, 'GET', '/topics/browse/messages?partition=7'),
    { status: 404, body: { error: 'UNKNOWN_TOPIC_OR_PARTITION: Partition browse-7 not found.', code: 'UNKNOWN_TOPIC_OR_PARTITION' } });
});

test('produce goes through the Produce API: the partition by murmur2 of the key as the Java client and kafkajs pick it', async () => {
  await ok(broker, 'POST', '/topics', { name: 'produced', partitions: 6 });
  const producer = kafkaFor(broker.port, 'console-api').producer();
  await producer.connect();
  const keys = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  const kafkajsPartitions: number[] = [];
  for (const key of keys) kafkajsPartitions.push((await producer.send({ topic: 'produced', messages: [{ key, value: 'x' }] }))[0]!.partition);
  await producer.disconnect();
  const consolePartitions: number[] = [];
  for (const key of keys) {
    consolePartitions.push((await ok<{ partition: number }>(broker, 'POST', '/topics/produced/messages', { key, value: 'y', headers: [{ key: 'h', value: 'v' }] })).partition);
  }
  assert.deepEqual(consolePartitions, kafkajsPartitions);
  assert.ok(new Set(consolePartitions).size > 1);
  assert.deepEqual(await call(broker, 'POST', '/topics/produced/messages', { partition: 9, key: 'k', value: 'v' }),
    { status: 404, body: { error: 'UNKNOWN_TOPIC_OR_PARTITION', code: 'UNKNOWN_TOPIC_OR_PARTITION' } });
});

test('the live tail streams records appended after it opened, filtered', async () => {
  await ok(broker, 'POST', '/topics', { name: 'tailed', partitions: 2 });
  await ok(broker, 'POST', '/topics/tailed/messages', { partition: 0, key: 'before', value: 'old' });
  const abort = new AbortController();
  const response = await fetch(`${broker.base}/console/api/topics/tailed/tail?value=new`, { signal: abort.signal });
  assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const reader = response.body!.getReader();
  let received = '';
  const read = (async () => {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      received += Buffer.from(chunk.value).toString('utf8');
    }
  })().catch(() => {});
  await until(() => received.startsWith(': tailing'), 'the tail opened');
  await ok(broker, 'POST', '/topics/tailed/messages', { partition: 1, key: 'a', value: 'new one' });
  await ok(broker, 'POST', '/topics/tailed/messages', { partition: 0, key: 'b', value: 'skip me' });
  await ok(broker, 'POST', '/topics/tailed/messages', { partition: 0, key: 'c', value: 'new two' });
  const keys = (): (string | null)[] => [...received.matchAll(/^data: (.*)$/gm)].flatMap((m) => (JSON.parse(m[1]!) as { records: Shown[] }).records).map((r) => text(r.key));
  await until(() => keys().length >= 2, 'two records tailed');
  assert.deepEqual(keys().sort(), ['a', 'c']);
  abort.abort();
  await read;
});

test('groups: lag per partition; reset and delete refused while the group has members, then done as kafka-consumer-groups does', async () => {
  await ok(broker, 'POST', '/topics', { name: 'grouped', partitions: 2 });
  const kafka = kafkaFor(broker.port, 'console-api');
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: 'grouped', messages: Array.from({ length: 10 }, (_, i) => ({ partition: i % 2, value: `m${i}` })) });
  const consumer = kafka.consumer({ groupId: 'console-group' });
  await consumer.connect();
  await consumer.subscribe({ topic: 'grouped', fromBeginning: true });
  let consumed = 0;
  await consumer.run({ autoCommitInterval: 50, eachMessage: async () => void consumed++ });
  await until(() => consumed === 10, 'ten consumed');
  await until(async () => (await ok(broker, 'GET', '/groups/console-group')).offsets.every((o: { committed: number | null }) => o.committed === 5), 'offsets committed');
  await producer.send({ topic: 'grouped', messages: [{ partition: 0, value: 'late' }] });

  const stable = await ok(broker, 'GET', '/groups/console-group');
  assert.deepEqual([stable.type, stable.state, stable.protocol, stable.members.length], ['classic', 'Stable', 'RoundRobinAssigner', 1]);
  assert.deepEqual(stable.members[0].assignment, { grouped: [0, 1] });
  assert.deepEqual(stable.offsets.map((o: any) => [o.topic, o.partition, o.committed, o.logEndOffset, o.lag, o.memberId === stable.members[0].memberId]),
    [['grouped', 0, 5, 6, 1, true], ['grouped', 1, 5, 5, 0, true]]);
  assert.equal(stable.totalLag, 1);
  assert.deepEqual((await ok(broker, 'GET', '/groups')).find((g: { groupId: string }) => g.groupId === 'console-group'),
    { groupId: 'console-group', type: 'classic', protocolType: 'consumer', state: 'Stable' });

  assert.deepEqual(await call(broker, 'POST', '/groups/console-group/reset-offsets', { to: 'earliest' }),
    { status: 409, body: { error: "Assignments can only be reset if the group 'console-group' is inactive, but the current state is Stable." } });
  assert.deepEqual(await call(broker, 'DELETE', '/groups/console-group'), { status: 409, body: { error: 'NON_EMPTY_GROUP', code: 'NON_EMPTY_GROUP' } });

  await consumer.disconnect();
  await producer.disconnect();
  assert.deepEqual(await ok(broker, 'POST', '/groups/console-group/reset-offsets', { to: 'offset', offset: 99 }),
    { offsets: [{ topic: 'grouped', partition: 0, offset: 6 }, { topic: 'grouped', partition: 1, offset: 5 }] });
  assert.deepEqual(await ok(broker, 'POST', '/groups/console-group/reset-offsets', { topic: 'grouped', to: 'earliest' }),
    { offsets: [{ topic: 'grouped', partition: 0, offset: 0 }, { topic: 'grouped', partition: 1, offset: 0 }] });
  const empty = await ok(broker, 'GET', '/groups/console-group');
  assert.deepEqual([empty.state, empty.totalLag, empty.offsets.map((o: any) => o.committed)], ['Empty', 11, [0, 0]]);
  assert.deepEqual(await call(broker, 'POST', '/groups/console-group/reset-offsets', { to: 'sometime' }),
    { status: 400, body: { error: 'to must be earliest, latest, offset or timestamp' } });

  await ok(broker, 'DELETE', '/groups/console-group');
  assert.deepEqual(await call(broker, 'GET', '/groups/console-group'),
    { status: 404, body: { error: 'GROUP_ID_NOT_FOUND: Group console-group not found.', code: 'GROUP_ID_NOT_FOUND' } });
});

test('overview, transactions and broker configs', async () => {
  const overview = await ok(broker, 'GET', '/overview');
  assert.equal(overview.clusterId, broker.clusterId);
  assert.deepEqual(overview.brokers, [{ nodeId: 1, host: '127.0.0.1', port: broker.port, listener: 'PLAINTEXT' }]);
  assert.equal(overview.features.find((f: { name: string }) => f.name === 'transaction.version').level, 2);

  const producer = kafkaFor(broker.port, 'console-api').producer({ transactionalId: 'console-txn', maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  const txn = await producer.transaction();
  await txn.send({ topic: 'browse', messages: [{ partition: 2, value: 'in a transaction' }] });
  const open = (await ok(broker, 'GET', '/transactions')).find((t: { transactionalId: string }) => t.transactionalId === 'console-txn');
  assert.deepEqual([open.state, open.partitions], ['Ongoing', { browse: [2] }]);
  await txn.commit();
  await producer.disconnect();
  const done = (await ok(broker, 'GET', '/transactions')).find((t: { transactionalId: string }) => t.transactionalId === 'console-txn');
  assert.deepEqual([done.state, done.partitions], ['CompleteCommit', {}]);

  await ok(broker, 'PATCH', '/broker/configs', { configs: { 'log.retention.ms': '7200000' } });
  const entry = (await ok(broker, 'GET', '/broker/configs')).find((c: { name: string }) => c.name === 'log.retention.ms');
  assert.deepEqual([entry.value, entry.source], ['7200000', 'DYNAMIC_BROKER_CONFIG']);
  assert.deepEqual(await call(broker, 'PATCH', '/broker/configs', { configs: { 'log.dirs': '/tmp/x' } }),
    { status: 400, body: { error: 'INVALID_REQUEST: Cannot update these configs dynamically: [log.dirs]', code: 'INVALID_REQUEST' } });
});

test('the page is served at /console/ and / redirects there', async () => {
  const redirect = await fetch(`${broker.base}/`, { redirect: 'manual' });
  assert.deepEqual([redirect.status, redirect.headers.get('location')], [302, '/console/']);
  const page = await fetch(`${broker.base}/console/`);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await page.text(), /<script type="module" src="\/console\/app.js"><\/script>/);
  for (const file of ['app.js', 'app.css']) assert.equal((await fetch(`${broker.base}/console/${file}`)).status, 200);
  // The bundle holds the page's script, every section's view included (an empty bundle is served with a 200 too).
  const script = await (await fetch(`${broker.base}/console/app.js`)).text();
  for (const route of ['/overview', '/topics', '/groups', '/transactions', '/broker/configs', '/cluster', '/acls', '/users']) assert.ok(script.includes(route), route);
  // Only the page's own files are served, whatever the path names.
  const outside = await fetch(`${broker.base}/console/..%2F..%2Fpackage.json`);
  assert.deepEqual({ status: outside.status, body: await outside.json() }, { status: 404, body: { error: 'no such file: ../../package.json' } });
});

test('with an authorizer, the console is User:ANONYMOUS: what the ACLs deny it is refused, the logs it reads included', async () => {
  const secured = await startConsoleBroker({
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'allow.everyone.if.no.acl.found': 'true',
  });
  try {
    await ok(secured, 'POST', '/topics', { name: 'secret', partitions: 1 });
    await ok(secured, 'POST', '/topics', { name: 'open', partitions: 1 });
    const admin = kafkaFor(secured.port, 'console-api').admin();
    await admin.connect();
    const { AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes } = (await import('kafkajs')).default;
    await admin.createAcls({ acl: [{
      resourceType: AclResourceTypes.TOPIC, resourceName: 'secret', resourcePatternType: ResourcePatternTypes.LITERAL,
      principal: 'User:ANONYMOUS', host: '*', operation: AclOperationTypes.ALL, permissionType: AclPermissionTypes.DENY,
    }] });
    await admin.disconnect();
    assert.deepEqual((await ok(secured, 'GET', '/topics')).map((t: { name: string }) => t.name), ['open']);
    const refused = { status: 403, body: { error: 'TOPIC_AUTHORIZATION_FAILED', code: 'TOPIC_AUTHORIZATION_FAILED' } };
    assert.deepEqual(await call(secured, 'GET', '/topics/secret'), refused);
    assert.deepEqual(await call(secured, 'GET', '/topics/secret/messages'), refused);
    assert.equal((await fetch(`${secured.base}/console/api/topics/secret/tail`)).status, 403);
    assert.deepEqual(await call(secured, 'POST', '/topics/secret/messages', { key: 'k', value: 'v' }), refused);
    assert.deepEqual((await call(secured, 'DELETE', '/topics/secret')).status, 403);
    assert.deepEqual((await ok(secured, 'GET', '/topics/open/messages')).records, []);
  } finally {
    await secured.close();
  }
});

test('a share group is listed and described with its members and their partitions', async () => {
  await ok(broker, 'POST', '/topics', { name: 'shared', partitions: 2 });
  const client = await RawClient.connect(broker.port);
  try {
    const join = { ...createShareGroupHeartbeatRequest(), groupId: 'console-share', memberId: 'member-1', subscribedTopicNames: ['shared'] };
    let beat = await roundTrip(client, shareGroupHeartbeatApi, 1, join);
    // The partitions are assigned once initialized, at a later heartbeat.
    while (beat.assignment?.topicPartitions.length !== 1) beat = await roundTrip(client, shareGroupHeartbeatApi, 1, { ...join, memberEpoch: beat.memberEpoch, subscribedTopicNames: null });
    assert.deepEqual((await ok(broker, 'GET', '/groups')).find((g: { groupId: string }) => g.groupId === 'console-share'),
      { groupId: 'console-share', type: 'share', protocolType: 'share', state: 'Stable' });
    const described = await ok(broker, 'GET', '/groups/console-share');
    assert.deepEqual([described.type, described.state, described.protocol, described.totalLag], ['share', 'Stable', 'simple', 0]);
    // A share group commits no offsets: its rows are the partitions its members hold.
    assert.deepEqual(described.offsets.map((o: any) => [o.topic, o.partition, o.committed, o.lag, o.memberId]), [['shared', 0, null, null, 'member-1'], ['shared', 1, null, null, 'member-1']]);
    assert.deepEqual(described.members.map((m: any) => [m.memberId, m.clientId, m.host, m.assignment]), [['member-1', 'test-client', '/127.0.0.1', { shared: [0, 1] }]]);

    // Records arrive; the member leaves; a reset to the earliest offsets is AlterShareGroupOffsets, and the start
    // offsets and lag are then what DescribeShareGroupOffsets answers (kafka-share-groups --describe).
    const producer = kafkaFor(broker.port, 'console-api').producer();
    await producer.connect();
    await producer.send({ topic: 'shared', messages: [{ partition: 0, value: 'a' }, { partition: 0, value: 'b' }, { partition: 1, value: 'c' }] });
    await producer.disconnect();
    // kafka-share-groups' own check and words.
    assert.deepEqual(await call(broker, 'POST', '/groups/console-share/reset-offsets', { to: 'earliest' }),
      { status: 409, body: { error: "Share group 'console-share' is not empty." } });
    await roundTrip(client, shareGroupHeartbeatApi, 1, { ...join, memberEpoch: -1, subscribedTopicNames: null });
    assert.deepEqual(await ok(broker, 'POST', '/groups/console-share/reset-offsets', { to: 'earliest' }),
      { offsets: [{ topic: 'shared', partition: 0, offset: 0 }, { topic: 'shared', partition: 1, offset: 0 }] });
    const reset = await ok(broker, 'GET', '/groups/console-share');
    assert.deepEqual([reset.state, reset.totalLag, reset.members], ['Empty', 3, []]);
    assert.deepEqual(reset.offsets.map((o: any) => [o.topic, o.partition, o.committed, o.logEndOffset, o.lag, o.memberId]),
      [['shared', 0, 0, 2, 2, null], ['shared', 1, 0, 1, 1, null]]);
  } finally {
    await client.close();
  }
});

test('cluster: a single broker is the controller and leads every partition, its one replica in sync', async () => {
  await ok(broker, 'POST', '/topics', { name: 'clustered', partitions: 2 });
  const cluster = await ok(broker, 'GET', '/cluster');
  assert.deepEqual([cluster.mode, cluster.controllerId, cluster.underReplicated, cluster.offline], ['single', 1, 0, 0]);
  assert.deepEqual(cluster.brokers, [{ nodeId: 1, rack: null, controller: true, self: true, endpoints: [{ listener: 'PLAINTEXT', host: '127.0.0.1', port: broker.port }] }]);
  assert.deepEqual(cluster.partitions.filter((p: { topic: string }) => p.topic === 'clustered'), [0, 1].map((partition) => ({
    topic: 'clustered', partition, leader: 1, leaderEpoch: 0, replicas: [1], isr: [1], offline: [], underReplicated: false, leaderless: false,
  })));
});

test('ACLs: listed, filtered, added and removed through the broker\'s authorizer, as kafka-acls does', async () => {
  // Without an authorizer, as kafka-acls is answered.
  assert.deepEqual(await call(broker, 'GET', '/acls'),
    { status: 409, body: { error: 'SECURITY_DISABLED: No Authorizer is configured on the broker', code: 'SECURITY_DISABLED' } });
  const secured = await startConsoleBroker({
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'allow.everyone.if.no.acl.found': 'true',
  });
  try {
    const read = { resourceType: 'TOPIC', resourceName: 'orders', patternType: 'LITERAL', principal: 'User:alice', host: '*', operation: 'READ', permissionType: 'ALLOW' };
    // Host and pattern take kafka-acls' defaults.
    assert.deepEqual(await ok(secured, 'POST', '/acls', { resourceType: 'TOPIC', resourceName: 'orders', principal: 'User:alice', operation: 'READ' }), read);
    const group = { resourceType: 'GROUP', resourceName: 'billing-', patternType: 'PREFIXED', principal: 'User:bob', host: '10.0.0.1', operation: 'READ', permissionType: 'DENY' };
    await ok(secured, 'POST', '/acls', group);
    assert.deepEqual(await ok(secured, 'GET', '/acls'), [group, read]);
    assert.deepEqual(await ok(secured, 'GET', '/acls?resourceType=TOPIC'), [read]);
    assert.deepEqual(await ok(secured, 'GET', '/acls?principal=User:bob'), [group]);
    // MATCH: what applies to group billing-eu.
    assert.deepEqual(await ok(secured, 'GET', '/acls?resourceType=GROUP&resourceName=billing-eu&patternType=MATCH'), [group]);
    // kafkajs' describeAcls sees what the page made.
    const admin = kafkaFor(secured.port, 'console-api').admin();
    await admin.connect();
    const { AclResourceTypes, AclOperationTypes, AclPermissionTypes, ResourcePatternTypes } = (await import('kafkajs')).default;
    const described = await admin.describeAcls({
      resourceType: AclResourceTypes.TOPIC, resourcePatternType: ResourcePatternTypes.ANY, operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY,
    });
    await admin.disconnect();
    assert.deepEqual(described.resources.map((r) => [r.resourceName, r.acls.map((a) => [a.principal, a.host])]), [['orders', [['User:alice', '*']]]]);

    assert.deepEqual(await call(secured, 'POST', '/acls', { ...read, resourceType: 'CLUSTER' }),
      { status: 400, body: { error: 'INVALID_REQUEST: The only valid name for the CLUSTER resource is kafka-cluster', code: 'INVALID_REQUEST' } });
    assert.deepEqual(await call(secured, 'POST', '/acls', { ...read, operation: 'SING' }), {
      status: 400, body: { error: 'operation must be one of ANY, ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, CREATE_TOKENS, DESCRIBE_TOKENS, TWO_PHASE_COMMIT' },
    });
    assert.deepEqual(await call(secured, 'POST', '/acls', { ...read, principal: '' }), { status: 400, body: { error: 'principal must be a non-empty string' } });

    assert.deepEqual(await ok(secured, 'DELETE', '/acls', read), { deleted: 1 });
    assert.deepEqual(await ok(secured, 'DELETE', '/acls', read), { deleted: 0 });
    assert.deepEqual(await ok(secured, 'GET', '/acls'), [group]);
  } finally {
    await secured.close();
  }
});

test('users: SCRAM credentials added, listed without their secrets, used by kafkajs to log in, and deleted', async () => {
  const secured = await startConsoleBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0', 'sasl.enabled.mechanisms': 'SCRAM-SHA-256,SCRAM-SHA-512',
  });
  try {
    assert.deepEqual(await ok(secured, 'GET', '/users'), []);
    assert.deepEqual(await ok(secured, 'PUT', '/users/carol/credentials/SCRAM-SHA-512', { password: 'carol-secret', iterations: 8192 }),
      { user: 'carol', mechanism: 'SCRAM-SHA-512' });
    await ok(secured, 'PUT', '/users/carol/credentials/SCRAM-SHA-256', { password: 'other-secret' });
    const listed = await call(secured, 'GET', '/users');
    assert.deepEqual(listed.body, [{ user: 'carol', credentials: [{ mechanism: 'SCRAM-SHA-256', iterations: 4096 }, { mechanism: 'SCRAM-SHA-512', iterations: 8192 }] }]);
    assert.doesNotMatch(JSON.stringify(listed.body), /secret|salt/);

    const { Kafka, logLevel } = (await import('kafkajs')).default;
    const login = async (mechanism: 'scram-sha-256' | 'scram-sha-512', password: string): Promise<string[]> => {
      const admin = new Kafka({ brokers: [`127.0.0.1:${secured.addresses[1]!.port}`], clientId: 'console-scram', retry: { retries: 0 }, logLevel: logLevel.NOTHING,
        sasl: { mechanism, username: 'carol', password } as never }).admin();
      try {
        await admin.connect();
        return await admin.listTopics();
      } finally {
        await admin.disconnect();
      }
    };
    assert.deepEqual(await login('scram-sha-512', 'carol-secret'), []);
    assert.deepEqual(await login('scram-sha-256', 'other-secret'), []);
    await assert.rejects(login('scram-sha-512', 'wrong'), /SASL SCRAM SHA512 authentication failed/);

    assert.deepEqual(await call(secured, 'PUT', '/users/carol/credentials/SCRAM-SHA-1', { password: 'x' }),
      { status: 400, body: { error: 'mechanism must be one of SCRAM-SHA-256, SCRAM-SHA-512' } });
    assert.deepEqual(await call(secured, 'PUT', '/users/carol/credentials/SCRAM-SHA-256', { password: 'x', iterations: 100 }),
      { status: 400, body: { error: 'UNACCEPTABLE_CREDENTIAL: Too few iterations', code: 'UNACCEPTABLE_CREDENTIAL' } });
    assert.deepEqual(await call(secured, 'PUT', '/users/carol/credentials/SCRAM-SHA-256', {}), { status: 400, body: { error: 'password must be a non-empty string' } });

    await ok(secured, 'DELETE', '/users/carol/credentials/SCRAM-SHA-512');
    assert.deepEqual(await ok(secured, 'GET', '/users'), [{ user: 'carol', credentials: [{ mechanism: 'SCRAM-SHA-256', iterations: 4096 }] }]);
    await assert.rejects(login('scram-sha-512', 'carol-secret'), /SASL SCRAM SHA512 authentication failed/);
    assert.deepEqual(await call(secured, 'DELETE', '/users/carol/credentials/SCRAM-SHA-512'),
      { status: 404, body: { error: 'RESOURCE_NOT_FOUND: Attempt to delete a user credential that does not exist', code: 'RESOURCE_NOT_FOUND' } });
  } finally {
    await secured.close();
  }
});
